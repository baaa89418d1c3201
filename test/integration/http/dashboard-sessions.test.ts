import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/auth/tokens.js';
import { SESSION_COOKIE } from '../../../src/http/dashboard/index.js';
import { createApiHarness, type ApiHarness } from '../../support/api-client.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

/** Dashboard sessions and routes through the real app (inject): what the browser test does not reach. */
describe('dashboard sessions, bull-board and static files', () => {
  let env: TestEnv;
  let api: ApiHarness;
  const sameOrigin = { origin: 'http://localhost:3000', host: 'localhost:3000' };

  const login = async (token: string): Promise<string> => {
    const response = await api.app.inject({ method: 'POST', url: '/ui/session', headers: sameOrigin, payload: { token } });
    expect(response.statusCode, response.body).toBe(201);
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    return cookie.value;
  };
  const withCookie = (value: string, extra: Record<string, string> = {}) => ({ cookie: `${SESSION_COOKIE}=${value}`, ...extra });

  beforeAll(async () => {
    env = await createTestEnv();
    api = await createApiHarness(env);
  });
  afterAll(async () => {
    await api.app.close();
    await env.cleanup();
  });

  it('a login needs a valid token and the same origin; the session answers as its token', async () => {
    expect((await api.app.inject({ method: 'POST', url: '/ui/session', payload: { token: api.submitter } })).statusCode).toBe(403);
    expect((await api.app.inject({ method: 'POST', url: '/ui/session', headers: sameOrigin, payload: { token: 'cirp_nope' } })).statusCode).toBe(401);
    expect((await api.app.inject({ method: 'POST', url: '/ui/session', headers: sameOrigin, payload: {} })).statusCode).toBe(400);
    const cookie = await login(api.submitter);
    expect((await api.app.inject({ url: '/ui/session', headers: withCookie(cookie) })).json()).toEqual({ name: 'test-submitter', role: 'submitter' });
    // The database keeps only the secret's hash, never the token.
    const rows = await env.deps.db.pool.query(`SELECT "secretHash" FROM "${env.schema}"."UiSession"`);
    expect(JSON.stringify(rows.rows)).not.toContain(api.submitter);
    expect(JSON.stringify(rows.rows)).not.toContain(cookie.split('.')[0]);
  });

  it('a tampered cookie, an expired session and a revoked token are no session', async () => {
    const cookie = await login(api.submitter);
    const [secret, signature] = cookie.split('.');
    expect((await api.app.inject({ url: '/v1/runs', headers: withCookie(`${secret}x.${signature}`) })).statusCode).toBe(401);
    await env.deps.db.pool.query(`UPDATE "${env.schema}"."UiSession" SET "expiresAt" = now() - interval '1 second'`);
    expect((await api.app.inject({ url: '/v1/runs', headers: withCookie(cookie) })).statusCode).toBe(401);
    const fresh = await login(api.submitter);
    expect((await api.app.inject({ url: '/v1/runs', headers: withCookie(fresh) })).statusCode).toBe(200);
    const token = await env.deps.repos.tokens.findActiveByHash(hashToken(api.submitter));
    await env.deps.repos.tokens.revoke(token!.id);
    expect((await api.app.inject({ url: '/v1/runs', headers: withCookie(fresh) })).statusCode).toBe(401);
  });

  it('bull-board: operators only, with a bearer token or a session', async () => {
    expect((await api.app.inject({ url: '/ui/queues/api/queues' })).statusCode).toBe(401);
    const html = await api.app.inject({ url: '/ui/queues', headers: { accept: 'text/html' } });
    expect(html.statusCode).toBe(302);
    expect(html.headers.location).toBe('/ui/#/login?next=queues');
    const submitter = await env.deps.repos.tokens.create({ name: 's2', role: 'submitter', tokenHash: hashToken('cirp_s2-token-for-test'), prefix: 'cirp_s2' });
    expect(submitter.id).toBeTruthy();
    expect((await api.app.inject({ url: '/ui/queues/api/queues', headers: api.auth('cirp_s2-token-for-test') })).statusCode).toBe(403);
    const response = await api.app.inject({ url: '/ui/queues/api/queues', headers: api.auth(api.operator) });
    expect(response.statusCode).toBe(200);
    expect(response.json().queues.map((q: { name: string }) => q.name).sort()).toEqual(['events', 'finalize', 'logs', 'maintenance', 'prepare']);
    const session = await login(api.operator);
    expect((await api.app.inject({ url: '/ui/queues/api/queues', headers: withCookie(session) })).statusCode).toBe(200);
  });

  it('static files: no path escapes the build folder', async () => {
    expect((await api.app.inject({ url: '/ui' })).headers.location).toBe('/ui/');
    const escape = await api.app.inject({ url: '/ui/assets/..%2F..%2Fpackage.json' });
    expect(escape.statusCode).toBe(404);
    expect(escape.body).not.toContain('"name": "ci-replay"');
  });
});
