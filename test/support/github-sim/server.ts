import { randomUUID, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { authenticate, hasPermission, installationAuth, tokenCoversRepo, type AuthContext } from './auth.js';
import type { SimContext } from './context.js';
import { takeApiFault, type ApiFaultRule } from './faults.js';
import { readPushLog } from './git/bare-repo.js';
import { serveGitCgi } from './git/http-backend.js';
import { GhError } from './http/gh-error.js';
import { matchRoute, type Route, type SimResponse } from './http/router.js';
import { verifySignedUrl } from './http/signed-url.js';
import type { Engine } from './runs/engine.js';
import { handlePush } from './runs/on-push.js';
import { findRepo, isReady } from './state.js';

export interface ServerDeps {
  ctx: SimContext;
  engine: Engine;
  routes: Route[];
  publicKey: KeyObject;
  apiRules: ApiFaultRule[];
  counters: Map<string, number>;
  /** Every REST request: method, concrete path, matched template (null when no route matched) and JSON body. */
  requestLog: SimRequest[];
}

export interface SimRequest {
  method: string;
  path: string;
  template: string | null;
  body: Record<string, unknown> | null;
}

const RATE_LIMIT = { app: 5000, installation: 5000, none: 60 };

function count(counters: Map<string, number>, key: string): void {
  counters.set(key, (counters.get(key) ?? 0) + 1);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

function rateKey(auth: AuthContext): { key: string; limit: number; label: string } {
  if (auth.kind === 'app') return { key: 'app', limit: RATE_LIMIT.app, label: 'app' };
  if (auth.kind === 'installation') return { key: `installation:${auth.installation.id}`, limit: RATE_LIMIT.installation, label: `installation ID ${auth.installation.id}` };
  return { key: 'anonymous', limit: RATE_LIMIT.none, label: '127.0.0.1' };
}

export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ message: error instanceof Error ? error.message : 'Server Error', documentation_url: 'https://docs.github.com/rest', status: '500' }));
    });
  };
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sim.invalid');
  const method = (req.method ?? 'GET').toUpperCase();
  if (url.pathname.startsWith('/_sim/download/')) return download(deps, url, res);
  const gitMatch = /^\/([^/]+)\/([^/]+?)\.git(\/.*)$/.exec(url.pathname);
  if (gitMatch) return serveGit(deps, req, res, gitMatch[1] ?? '', gitMatch[2] ?? '', gitMatch[3] ?? '', url);
  return serveApi(deps, req, res, method, url);
}

function download(deps: ServerDeps, url: URL, res: ServerResponse): void {
  const [, , , kind, idText] = url.pathname.split('/');
  const id = Number(idText);
  if (kind !== 'job-logs' && kind !== 'artifact') {
    res.writeHead(404).end();
    return;
  }
  const verdict = verifySignedUrl(deps.ctx.signingKey, kind, id, url.searchParams);
  if (verdict !== 'ok') {
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>${verdict === 'expired' ? 'Signed expiry time has passed' : 'Signature did not match'}</Message></Error>`);
    return;
  }
  if (kind === 'job-logs') {
    const job = deps.ctx.state.jobs.get(id);
    res.writeHead(job ? 200 : 404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(job?.log ?? '');
    return;
  }
  const artifact = deps.ctx.state.artifacts.get(id);
  res.writeHead(artifact ? 200 : 404, { 'content-type': 'application/zip', 'content-disposition': `attachment; filename=${artifact?.name ?? 'artifact'}.zip` });
  res.end(artifact ? Buffer.from(artifact.zip) : undefined);
}

async function serveApi(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
  const { ctx } = deps;
  const requestId = `${randomUUID().slice(0, 4).toUpperCase()}:${randomUUID().slice(0, 6).toUpperCase()}`;
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-github-request-id': requestId,
    'x-github-api-version-selected': '2022-11-28',
    'x-github-media-type': 'github.v3; format=json',
  };
  const send = (response: SimResponse): void => {
    const body = response.body === undefined ? '' : JSON.stringify(response.body);
    const all = { ...headers, ...response.headers };
    if (response.body === undefined) delete all['content-type'];
    res.writeHead(response.status, all);
    res.end(body);
  };
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const matched = matchRoute(deps.routes, method, path);
  const template = matched && matched !== 'method' ? matched.route.template : path;
  count(deps.counters, `${method} ${template}`);
  const logged: SimRequest = { method, path, template: matched && matched !== 'method' ? matched.route.template : null, body: null };
  deps.requestLog.push(logged);
  // Read the body first, so requests answered with an injected fault are logged with their body too.
  const raw = await readBody(req);
  try {
    logged.body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : null;
  } catch {
    logged.body = null;
  }
  let auth: AuthContext = { kind: 'none' };
  try {
    auth = authenticate(ctx.state, deps.publicKey, req.headers);
    const { key, label } = rateKey(auth);
    const installationRate = auth.kind === 'installation' ? ctx.limits.rate(auth.installation.id) : undefined;
    const limit = installationRate?.restPerHour ?? rateKey(auth).limit;
    const now = Date.now();
    let window = ctx.state.rate.get(key);
    if (!window || window.resetAt <= now) {
      window = { used: 0, resetAt: now + (installationRate?.restWindowMs ?? 3_600_000) };
      ctx.state.rate.set(key, window);
    }
    const fault = matched && matched !== 'method' ? takeApiFault(deps.apiRules, method, template, path) : null;
    if (fault?.kind === 'primary-rate-limit') {
      window.used = limit;
      window.resetAt = now + (fault.resetInSeconds ?? 60) * 1000;
    }
    const exhausted = window.used >= limit;
    if (!exhausted) window.used += 1;
    Object.assign(headers, {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - window.used)),
      'x-ratelimit-reset': String(Math.ceil(window.resetAt / 1000)),
      'x-ratelimit-used': String(window.used),
      'x-ratelimit-resource': 'core',
    });
    if (exhausted) throw new GhError(403, `API rate limit exceeded for ${label}. If you reach out to GitHub Support for help, please include the request ID ${requestId}.`, { documentationUrl: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' });
    if (auth.kind === 'installation' && method !== 'GET' && method !== 'HEAD') {
      const over = ctx.limits.takeWrite(auth.installation.id);
      if (over !== null && over.status === 429) throw new GhError(429, 'Too Many Requests', { headers: { 'retry-after': String(over.retryAfterSeconds) } });
      if (over !== null) {
        throw new GhError(403, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ' + requestId + '.', {
          documentationUrl: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
          headers: { 'retry-after': String(over.retryAfterSeconds) },
        });
      }
    }
    if (fault?.kind === 'status') throw new GhError(fault.status, fault.status === 502 ? 'Server Error' : 'Internal Server Error');
    if (fault?.kind === 'secondary-rate-limit') {
      throw new GhError(403, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ' + requestId + '.', {
        documentationUrl: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        headers: { 'retry-after': String(fault.retryAfterSeconds ?? 60) },
      });
    }
    if (fault?.kind === 'too-many-requests') {
      throw new GhError(429, 'Too Many Requests', { headers: { 'retry-after': String(fault.retryAfterSeconds ?? 60) } });
    }
    if (matched === null) throw new GhError(404, 'Not Found');
    if (matched === 'method') throw new GhError(404, 'Not Found');
    let body: Record<string, unknown> = {};
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        throw new GhError(400, 'Problems parsing JSON');
      }
    }
    const response = await matched.route.handler({ method, path, template, params: matched.params, query: url.searchParams, body, headers: req.headers, auth });
    send(response);
  } catch (error) {
    if (!(error instanceof GhError)) throw error;
    send({ status: error.status, body: error.body(), headers: error.headers });
  }
}

async function serveGit(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, owner: string, name: string, subPath: string, url: URL): Promise<void> {
  const { ctx } = deps;
  const service = subPath === '/info/refs' ? url.searchParams.get('service') ?? 'dumb' : subPath.replace(/^\//, '');
  count(deps.counters, `${req.method ?? 'GET'} /{owner}/{repo}.git${subPath === '/info/refs' ? `/info/refs?service=${service}` : subPath}`);
  const repo = findRepo(ctx.state, owner, name);
  const plain = (status: number, text: string, extra: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...extra });
    res.end(text);
  };
  if (!repo || !isReady(repo)) return plain(404, 'Repository not found.\n');
  if (service !== 'git-upload-pack' && service !== 'git-receive-pack') return plain(403, 'Smart HTTP only.\n');
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  let auth: AuthContext = { kind: 'none' };
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const password = decoded.slice(decoded.indexOf(':') + 1);
    try {
      auth = installationAuth(ctx.state, password);
    } catch {
      return plain(401, 'Invalid username or token. Password authentication is not supported for Git operations.\n', { 'www-authenticate': 'Basic realm="GitHub"' });
    }
  }
  const writing = service === 'git-receive-pack';
  if (auth.kind !== 'installation') {
    if (writing || repo.private) return plain(401, 'Authentication required.\n', { 'www-authenticate': 'Basic realm="GitHub"' });
  } else {
    const covers = tokenCoversRepo(auth, repo);
    if (!covers && (writing || repo.private)) return plain(repo.private ? 404 : 403, repo.private ? 'Repository not found.\n' : `Permission to ${repo.fullName}.git denied to ${ctx.state.app.slug}[bot].\n`);
    if (writing && !hasPermission(auth.token.permissions, 'contents', 'write')) return plain(403, `Permission to ${repo.fullName}.git denied to ${ctx.state.app.slug}[bot].\n`);
  }
  const allowWorkflows = auth.kind === 'installation' && hasPermission(auth.token.permissions, 'workflows', 'write');
  const pushing = writing && subPath === '/git-receive-pack';
  // Each push names its own log file: the post-receive hook writes the refs that push (and no concurrent one) updated.
  const pushLog = pushing ? join(tmpdir(), `github-sim-push-${randomUUID()}`) : null;
  await serveGitCgi(req, res, {
    gitDir: repo.gitDir,
    subPath,
    query: url.search.replace(/^\?/, ''),
    remoteUser: auth.kind === 'installation' ? 'x-access-token' : '',
    extraEnv: { SIM_ALLOW_WORKFLOWS: allowWorkflows ? '1' : '0', ...(pushLog ? { SIM_PUSH_LOG: pushLog } : {}) },
    beforeEnd: pushLog
      ? async () => {
          const updates = await readPushLog(pushLog);
          if (updates.length > 0) await handlePush(ctx, deps.engine, repo, updates);
        }
      : undefined,
  });
}
