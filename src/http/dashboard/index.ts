import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { RedisConnection } from '../../queue/index.js';
import { BULL_BOARD_PATH, mountBullBoard } from '../../queue/bull-board.js';
import type { AppDeps, RouteRegistrar } from '../app.js';
import { dashboardDataRoutes } from './data-routes.js';
import { registerSessions } from './session.js';
import { staticUiRoutes } from './static-files.js';

export { SESSION_COOKIE } from './session.js';
export { uiBuildDir } from './static-files.js';

export interface DashboardOptions {
  config: Pick<Config, 'ui' | 'publicUrl' | 'queuePrefix'>;
  /** The producer connection bull-board reads the queues through. */
  redis: RedisConnection;
  /** The built page's folder (tests may point elsewhere). */
  buildDir?: string;
}

/**
 * The dashboard at /ui (docs/dashboard.md): the Vite-built page, cookie sessions from a token login, the JSON
 * routes it reads, and bull-board at /ui/queues for operators. A browser without a session gets the login page;
 * bull-board without one is sent there too, and a submitter's session gets 403.
 */
export function dashboardRoutes(options: DashboardOptions): RouteRegistrar {
  return async (app: FastifyInstance, deps: AppDeps) => {
    await registerSessions(app, { repos: deps.repos, secret: options.config.ui.sessionSecret, hours: options.config.ui.sessionHours, publicUrl: options.config.publicUrl });
    // Every bull-board route needs an operator; a browser that is not signed in is sent to the login page first.
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith(BULL_BOARD_PATH)) route.config = { ...(route.config ?? {}), auth: 'operator' };
    });
    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith(BULL_BOARD_PATH) || request.principal !== null || request.headers.authorization !== undefined) return;
      if (request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')) return reply.redirect('/ui/#/login?next=queues');
    });
    staticUiRoutes(app, options.buildDir);
    dashboardDataRoutes(app, deps.repos);
    await mountBullBoard(app, { connection: options.redis, prefix: options.config.queuePrefix });
  };
}
