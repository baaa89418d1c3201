# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# git runs the patch engine; python3 and the tools let the local executor run typical Python CI steps.
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates python3 python3-venv python3-pip \
      python3-pytest flake8 black isort mypy && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/workflows-templates ./workflows-templates
COPY --from=build /app/bin ./bin
USER node
CMD ["node", "dist/src/main.js", "serve"]
