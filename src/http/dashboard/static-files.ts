import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../../paths.js';
import { errorBody } from '../error-handler.js';

/** Where `npm run build:ui` (scripts/build-ui.mjs, Vite) writes the dashboard; git-ignored. */
export const uiBuildDir = (): string => join(projectRoot(), 'dist', 'ui');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
};

/** The page's scripts and styles come from this origin only; data is fetched from the API on the same origin. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * Serves the built dashboard: `/ui/` is the single page (hash routes), `/ui/assets/*` its hashed files. The page
 * and assets carry no data, so they are public; every JSON call the page makes goes through the API's auth.
 */
export function staticUiRoutes(app: FastifyInstance, dir = uiBuildDir()): void {
  const notBuilt = errorBody('ui_not_built', 'the dashboard is not built: run `npm run build:ui` (or `npm run build`)');
  app.get('/ui', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/ui/'));
  app.get('/ui/', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const html = await readFile(join(dir, 'index.html')).catch(() => null);
    if (html === null) return reply.code(503).send(notBuilt);
    return reply.type(TYPES['.html']!).header('content-security-policy', CSP).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(html);
  });
  app.get('/ui/assets/*', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    const path = normalize(join(dir, 'assets', rest));
    if (!path.startsWith(join(dir, 'assets') + sep)) return reply.code(404).send(errorBody('not_found', 'no such asset'));
    const body = await readFile(path).catch(() => null);
    if (body === null) return reply.code(404).send(errorBody('not_found', `no such asset: ${rest}`));
    return reply
      .type(TYPES[extname(path)] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });
}
