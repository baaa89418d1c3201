import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Repositories } from '../db/index.js';
import type { SubmissionService } from '../submissions/service.js';
import { authHook } from './auth.js';
import { frameworkErrorHandler, installErrorHandler } from './error-handler.js';
import { inputHygieneHook } from './validate.js';
import { healthRoutes } from './routes/health.js';
import { instanceRoutes, revalidationRoutes } from './routes/instances.js';
import { instanceHealthRoutes } from './routes/instance-health.js';
import { datasetRoutes } from './routes/datasets.js';
import { runRoutes } from './routes/runs.js';
import { submissionRoutes } from './routes/submissions.js';

export type ReadinessCheck = () => Promise<unknown>;

export type RouteRegistrar = (app: FastifyInstance, deps: AppDeps) => void | Promise<void>;

export interface AppDeps {
  /** `revalidation` and `ciBackend`: re-validation settings (defaults when absent). */
  config: Pick<Config, 'publicUrl' | 'limits'> & Partial<Pick<Config, 'revalidation' | 'ciBackend'>>;
  logger: Logger;
  repos: Repositories;
  submissions: SubmissionService;
  readiness: Record<string, ReadinessCheck>;
  /** Further route groups (webhook intake, reports, …) registered by the composition root. */
  extraRoutes?: RouteRegistrar[];
}

const STREAM_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/jsonlines', 'text/plain'];

/** Builds the HTTP app; it does not listen (the entrypoint does). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger satisfies FastifyBaseLogger as FastifyBaseLogger,
    bodyLimit: Math.min(deps.config.limits.patchMaxBytes * 2 + 1024 * 1024, deps.config.limits.bodyLimitBytes),
    ajv: { customOptions: { strict: false } },
    frameworkErrors: frameworkErrorHandler,
  });
  app.decorateRequest('principal', null);
  app.setValidatorCompiler(() => () => true);
  app.setReplySerializer((payload) => JSON.stringify(payload, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
  app.addContentTypeParser(STREAM_TYPES, (_request, payload, done) => done(null, payload));
  installErrorHandler(app);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), auth: 'public' };
  });
  await app.register(multipart, { limits: { fileSize: deps.config.limits.bodyLimitBytes, files: 1 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'ci-replay', version: '0.1.0', description: 'Evaluate candidate patches by replaying real CI.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.addHook('preValidation', inputHygieneHook());
  app.addHook('preHandler', authHook(deps.repos.tokens));

  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
  healthRoutes(app, deps);
  instanceRoutes(app, deps);
  revalidationRoutes(app, deps);
  instanceHealthRoutes(app, deps);
  runRoutes(app, deps);
  submissionRoutes(app, deps);
  datasetRoutes(app, deps);
  for (const register of deps.extraRoutes ?? []) await register(app, deps);
  return app;
}
