import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';

export function healthRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', { config: { auth: 'public' }, schema: { tags: ['health'], summary: 'The process is up' } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { auth: 'public' }, schema: { tags: ['health'], summary: 'Postgres and Redis reachable, migrations current' } }, async (_request, reply) => {
    const checks = await Promise.all(
      Object.entries(deps.readiness).map(async ([name, check]) => {
        try {
          const detail = await withTimeout(check(), 3000);
          return [name, { ok: true, ...(detail === undefined ? {} : { detail }) }] as const;
        } catch (error) {
          return [name, { ok: false, detail: error instanceof Error ? error.message : String(error) }] as const;
        }
      }),
    );
    const ready = checks.every(([, check]) => check.ok);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(checks) });
  });
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
