// Runs `prisma generate` offline: Prisma 7's CLI insists on a schema-engine binary it cannot
// download here; the generated client (with @prisma/adapter-pg) needs none, so any existing file will do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(`${root}/prisma/schema.prisma`) || !existsSync(`${root}/node_modules/.bin/prisma`)) process.exit(0);
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
const result = spawnSync(`${root}/node_modules/.bin/prisma`, ['generate'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
process.exit(result.status ?? 1);
