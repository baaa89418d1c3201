import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { SESSION_COOKIE } from '../../src/http/dashboard/index.js';
import { projectRoot } from '../../src/paths.js';
import { seedDashboardFixture, type DashboardFixture } from '../support/dashboard-fixture.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';

/** Screenshots of every page at desktop width (git-ignored; CI keeps them as artifacts). */
const ARTIFACTS = join(projectRoot(), 'test-artifacts', 'dashboard');
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** The dashboard in headless Chromium over a realistic campaign: pages, accessibility, sessions and ownership. */
describe('dashboard (/ui) in headless Chromium', () => {
  let env: TestEnv;
  let app: FastifyInstance;
  let base: string;
  let fixture: DashboardFixture;
  let profile: string;
  let context: BrowserContext;
  let page: Page;

  /** A screenshot of the page (full page, 1440 px wide) and an axe-core check: no serious or critical violations. */
  const check = async (name: string): Promise<void> => {
    const path = join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    console.log(`dashboard screenshot: ${path}`);
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      // Runs in the page (no DOM types here): axe.run over the whole document.
      const page = globalThis as unknown as { document: unknown; axe: { run(context: unknown, options: object): Promise<{ violations: AxeViolation[] }> } };
      return (await page.axe.run(page.document, { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
    });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), name).toEqual([]);
  };
  const goto = async (hash: string, heading: RegExp | string): Promise<void> => {
    await page.goto(`${base}/ui/${hash}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 30_000 });
  };
  const signIn = async (token: string): Promise<void> => {
    await page.goto(`${base}/ui/#/login`);
    await page.getByLabel('API token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Runs' }).waitFor({ timeout: 30_000 });
  };
  const signOut = async (): Promise<void> => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor({ timeout: 30_000 });
  };

  beforeAll(async () => {
    execFileSync(process.execPath, [join(projectRoot(), 'scripts', 'build-ui.mjs')], { stdio: 'inherit' });
    await mkdir(ARTIFACTS, { recursive: true });
    env = await createTestEnv();
    const { deps } = env;
    app = await buildApp({ config: deps.config, logger: deps.logger, repos: deps.repos, submissions: deps.submissions, readiness: deps.readiness, extraRoutes: deps.routes });
    base = (await app.listen({ host: '127.0.0.1', port: 0 })).replace('[::1]', '127.0.0.1');
    fixture = await seedDashboardFixture(env, app);
    profile = await mkdtemp(join(tmpdir(), 'ci-replay-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1440, height: 900 },
      // axe-core is injected as an inline script; the page's CSP (script-src 'self') would refuse it.
      bypassCSP: true,
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(30_000);
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await app?.close();
    await env?.cleanup();
    if (profile !== undefined) await rm(profile, { recursive: true, force: true });
  });

  it('without a session: the page shows the login form, the JSON API answers 401, the queues send the browser to the login page', async () => {
    await page.goto(`${base}/ui/#/runs`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(page.url()).toContain('#/login');
    await check('login');
    expect((await page.request.get(`${base}/v1/runs`)).status()).toBe(401);
    await page.goto(`${base}/ui/queues`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(page.url()).toContain('next=queues');
  });

  it('a wrong token is refused with a message and no cookie', async () => {
    await page.goto(`${base}/ui/#/login`);
    await page.getByLabel('API token').fill('cirp_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('unknown or revoked');
    expect((await context.cookies()).filter((c) => c.name === SESSION_COOKIE)).toEqual([]);
  });

  it('a submitter signs in: the cookie is HttpOnly, SameSite=Strict and signed, and no URL ever carries the token', async () => {
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await signIn(fixture.submitterA);
    const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_%+/=-]+$/);
    expect(cookie?.value).not.toContain(fixture.submitterA);
    expect(urls.some((url) => url.includes('cirp_'))).toBe(false);
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).not.toContain(SESSION_COOKIE);
  });

  it('runs page: only the submitter\'s own runs, with progress', async () => {
    await goto('#/runs', 'Runs');
    const table = page.locator('table.runs');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    const text = await table.textContent();
    expect(text).toContain('agent-v1');
    expect(text).toContain('agent-v2');
    expect(text).not.toContain('team-b-secret-model');
    await check('runs');
  });

  it('a run while it runs: progress, Wilson intervals, outcome breakdown, per-type chart, per-instance outcomes with filters', async () => {
    await goto(`#/runs/${fixture.runV1}`, 'Run agent-v1');
    expect(await page.getByText('16 of 20 submissions finished').count()).toBe(1);
    // The strict rate over the report's scope (unhealthy instances are left out), with its Wilson interval.
    const report = await (await page.request.get(`${base}/v1/runs/${fixture.runV1}/report?format=json`)).json();
    const strict = report.runs[0].successRateStrict;
    expect(strict.total).toBe(report.scope.instances);
    expect(await page.locator('#rate-strict').textContent()).toBe(
      `${strict.percent.toFixed(1)}% (${strict.count}/${strict.total}; 95% CI ${strict.ci.lower.toFixed(1)}%–${strict.ci.upper.toFixed(1)}%)`,
    );
    expect(await page.getByRole('img', { name: /Outcome breakdown: Passed \d+, Failed/ }).count()).toBe(1);
    expect(await page.getByRole('img', { name: /Repaired rate per error type: .*Code Linting/ }).count()).toBe(1);
    const rows = page.locator('table.instances tbody tr');
    expect(await rows.count()).toBe(20);
    await check('run-in-progress');
    await page.locator('#filter-outcome').selectOption('failed');
    await expect.poll(() => rows.count()).toBe(4);
    await page.locator('#filter-repo').selectOption('pylint-dev/astroid');
    await expect.poll(() => rows.count()).toBe(2);
    expect(page.url()).toContain('outcome=failed');
    await page.locator('#filter-repo').selectOption('');
    await page.locator('#filter-outcome').selectOption('');
    await page.locator('#filter-type').selectOption('Type Checking');
    await expect.poll(() => rows.count()).toBe(3);
    // While it runs: a submission finishing shows up on the open page without a reload.
    await page.locator('#filter-type').selectOption('');
    await page.getByText('16 of 20 submissions finished').waitFor();
    await env.deps.db.pool.query(
      `UPDATE "${env.schema}"."Submission" SET "state" = 'completed', "outcome" = 'passed', "verdict" = 'passed', "completedAt" = now() WHERE "id" = (SELECT "id" FROM "${env.schema}"."Submission" WHERE "runId" = $1 AND "state" = 'running' LIMIT 1)`,
      [fixture.runV1],
    );
    await page.getByText('17 of 20 submissions finished').waitFor({ timeout: 30_000 });
  });

  it('the submission page: jobs, steps, error types with evidence, log segments, standardization report, GitHub links', async () => {
    await goto(`#/runs/${fixture.runV1}?outcome=failed`, 'Run agent-v1');
    await page.locator('table.instances tbody tr').first().getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: /^Submission / }).waitFor();
    expect(page.url()).toContain(fixture.failedSubmission);
    const body = (await page.locator('main').textContent()) ?? '';
    expect(body).toContain('step_failed');
    expect(body).toContain('Run flake8 src');
    expect(body).toContain("F401 'typing.Any' imported but unused");
    expect(body).toContain('Code Formatting');
    expect(body).toContain('python-flake8-pytest');
    expect(await page.locator('figure.segment pre').first().textContent()).toContain('E501 line too long');
    expect(await page.getByRole('link', { name: 'Workflow run 9123456789 (attempt 1)' }).getAttribute('href')).toBe('https://github.com/ci-replay-bench/scrapy--scrapy/actions/runs/9123456789');
    expect(await page.getByRole('link', { name: 'Check run 29876543210' }).getAttribute('href')).toBe('https://github.com/ci-replay-bench/scrapy--scrapy/runs/29876543210');
    await check('submission');
  });

  it("two runs compared: McNemar's test and the instances that differ", async () => {
    await goto(`#/compare/${fixture.runV1}/${fixture.runV2}`, 'agent-v1 vs agent-v2');
    expect(await page.locator('#mcnemar-p').textContent()).toMatch(/^\d\.\d+(e-\d+)? \((exact binomial|chi square continuity|none)\)$/);
    expect(await page.getByRole('table', { name: /Per-instance differences \(\d+\)/ }).count()).toBe(1);
    await check('compare');
  });

  it('benchmark health: statuses, flakiness per repository, recent re-validations', async () => {
    await goto('#/health', 'Benchmark health');
    const repos = page.getByRole('table', { name: /Instances per repository/ });
    expect(await repos.locator('tbody tr').count()).toBe(4);
    expect(await page.getByRole('img', { name: /Instances by health status: healthy 7, flaky 3, drifted 1/ }).count()).toBe(1);
    expect(await page.getByRole('table', { name: /Latest re-validations/ }).locator('tbody tr').count()).toBe(12);
    await check('health');
  });

  it("a submitter cannot see another's run, in the page or through the API with the cookie, nor open the queues", async () => {
    await goto(`#/runs/${fixture.runOther}`, 'Not available');
    expect(await page.getByRole('alert').textContent()).toContain('404 not_found');
    for (const path of [`/v1/runs/${fixture.runOther}`, `/v1/runs/${fixture.runOther}/instances`, `/v1/runs/${fixture.runOther}/report`]) {
      expect((await page.request.get(`${base}${path}`)).status(), path).toBe(404);
    }
    expect((await page.request.get(`${base}/v1/runs/${fixture.runV1}/instances`)).status()).toBe(200);
    const queues = await page.request.get(`${base}/ui/queues`, { headers: { accept: 'text/html' } });
    expect(queues.status()).toBe(403);
    expect(await page.locator('a[href="/ui/queues"]').isHidden()).toBe(true);
  });

  it('the cookie alone cannot change state from another origin', async () => {
    const response = await page.request.post(`${base}/v1/runs`, { data: { label: 'csrf' }, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(response.status()).toBe(401);
  });

  it('signing out ends the session on the server', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)!;
    await signOut();
    const replay = await fetch(`${base}/v1/runs`, { headers: { cookie: `${SESSION_COOKIE}=${cookie.value}` } });
    expect(replay.status).toBe(401);
  });

  it('an operator sees every run and bull-board at /ui/queues', async () => {
    await signIn(fixture.operator);
    expect(await page.locator('table.runs tbody tr').count()).toBe(3);
    await page.getByRole('link', { name: 'Queues' }).click();
    await page.waitForURL(`${base}/ui/queues**`);
    await page.getByText('prepare', { exact: false }).first().waitFor({ timeout: 30_000 });
    const path = join(ARTIFACTS, 'queues.png');
    await page.screenshot({ path, fullPage: true });
    console.log(`dashboard screenshot: ${path}`);
    expect((await page.request.get(`${base}/ui/queues/api/queues`)).status()).toBe(200);
  });
});
