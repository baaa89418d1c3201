import { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCiDataset } from '../../../bench/report-seed.js';
import { registerReportCommands } from '../../../src/cli/report-commands.js';
import { ERROR_TYPES } from '../../../src/domain/error-types.js';
import { buildApp } from '../../../src/http/app.js';
import { reportRoutes } from '../../../src/http/routes/reports.js';
import { loadCiRepairInputs, loadCiRepairReport, runReport } from '../../../src/reports/index.js';
import { buildCiRepairReport, NOT_REPAIRED_REASONS, renderReport, type CiInstance, type CiRunInput } from '../../../src/scoring/index.js';
import { syntheticCiDataset } from '../../../src/scoring/synthetic/ci-dataset.js';
import { mintToken } from '../../../src/auth/tokens.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

let env: TestEnv;
let app: FastifyInstance;
let auth: { authorization: string };
let instances: CiInstance[];
let runs: CiRunInput[];

beforeAll(async () => {
  env = await createTestEnv();
  const data = syntheticCiDataset({ seed: 8, instances: 567, submissions: 6000, runs: 2 });
  instances = data.instances;
  runs = await seedCiDataset(env.deps.db.pool, data);
  const { deps } = env;
  app = await buildApp({ config: deps.config, logger: deps.logger, repos: deps.repos, submissions: deps.submissions, readiness: deps.readiness, extraRoutes: [reportRoutes] });
  auth = { authorization: `Bearer ${(await mintToken(deps.repos.tokens, { name: 'reader', role: 'operator' })).token}` };
});

afterAll(async () => {
  await app?.close();
  await env?.cleanup();
});

const runAt = (index: number): CiRunInput => {
  const run = runs[index];
  if (run === undefined) throw new Error('missing run');
  return run;
};

describe('CI-Repair-Bench report from the database', () => {
  it('loads the same inputs and computes the same report as the pure function on the same data', async () => {
    const ids = runs.map((run) => run.id);
    const inputs = await loadCiRepairInputs(env.deps, ids);
    expect(inputs.instances).toEqual(instances);
    expect(inputs.runs.map((run) => run.submissions.length)).toEqual(runs.map((run) => run.submissions.length));
    const report = await loadCiRepairReport(env.deps, ids);
    expect(report).toEqual(buildCiRepairReport(instances, runs));
    const withUnhealthy = await loadCiRepairReport(env.deps, ids, { includeUnhealthy: true });
    expect(withUnhealthy).toEqual(buildCiRepairReport(instances, runs, { includeUnhealthy: true }));
    expect(withUnhealthy.scope.instances).toBe(567);
    expect(report.scope.instances).toBe(567 - report.scope.excluded.length);
    expect(report.scope.excluded.length).toBeGreaterThan(0);
  });

  it('covers all 12 types and every kind of failure', async () => {
    const report = await loadCiRepairReport(env.deps, [runAt(0).id], { includeUnhealthy: true });
    expect(report.byType.map((row) => row.type).sort()).toEqual([...ERROR_TYPES].sort());
    expect(report.byType.every((row) => row.occurrences > 0)).toBe(true);
    expect(report.labels).toBe(893);
    const outcomes = new Set(report.byInstance.map((row) => row.runs[0]?.outcome));
    for (const reason of NOT_REPAIRED_REASONS.filter((r) => r !== 'pending')) expect(outcomes, reason).toContain(reason);
    expect(outcomes).toContain('passed');
  });

  it('renders through runReport exactly as renderReport does', async () => {
    const expected = buildCiRepairReport(instances, [runAt(0)]);
    for (const format of ['table', 'markdown', 'csv', 'json'] as const) {
      for (const by of ['summary', 'type', 'repo', 'instance', 'observed'] as const) {
        const rendered = await runReport(env.deps, [runAt(0).id], { format, by });
        expect(rendered.body).toBe(renderReport(expected, format, { by }));
      }
    }
  });

  it('rejects unknown and duplicate runs with typed errors', async () => {
    await expect(runReport(env.deps, ['00000000-0000-4000-8000-00000000dead'])).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(runReport(env.deps, [runAt(0).id, runAt(0).id])).rejects.toMatchObject({ code: 'duplicate_run', status: 400 });
    await expect(runReport(env.deps, [])).rejects.toMatchObject({ code: 'no_runs' });
  });
});

describe('HTTP report routes', () => {
  it('serves JSON, Markdown and CSV with their content types', async () => {
    const id = runAt(0).id;
    const single = buildCiRepairReport(instances, [runAt(0)]);
    const json = await app.inject({ method: 'GET', url: `/v1/runs/${id}/report`, headers: auth });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.json()).toEqual(JSON.parse(renderReport(single, 'json')));
    const markdown = await app.inject({ method: 'GET', url: `/v1/runs/${id}/report?format=markdown&by=type`, headers: auth });
    expect(markdown.headers['content-type']).toMatch(/^text\/markdown/);
    expect(markdown.body).toBe(renderReport(single, 'markdown', { by: 'type' }));
    const csv = await app.inject({ method: 'GET', url: `/v1/runs/${id}/report?format=csv&by=repo`, headers: auth });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toBe(renderReport(single, 'csv', { by: 'repo' }));
    const unhealthy = await app.inject({ method: 'GET', url: `/v1/runs/${id}/report?includeUnhealthy=true`, headers: auth });
    expect(unhealthy.json().scope).toMatchObject({ includeUnhealthy: true, instances: 567, excluded: [] });
  });

  it('answers bad requests in the API error shape', async () => {
    const id = runAt(0).id;
    const badFormat = await app.inject({ method: 'GET', url: `/v1/runs/${id}/report?format=pdf`, headers: auth });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().error.code).toBe('invalid_request');
    expect(badFormat.json().error.message).toContain('query.format');
    const unknown = await app.inject({ method: 'GET', url: '/v1/runs/00000000-0000-4000-8000-00000000dead/report', headers: auth });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'not_found', message: 'run 00000000-0000-4000-8000-00000000dead does not exist' } });
    const badId = await app.inject({ method: 'GET', url: '/v1/runs/nope/report', headers: auth });
    expect(badId.statusCode).toBe(400);
    const noAuth = await app.inject({ method: 'GET', url: `/v1/runs/${id}/report` });
    expect(noAuth.statusCode).toBe(401);
  });

  it('compares runs side by side', async () => {
    const ids = runs.map((run) => run.id);
    const expected = buildCiRepairReport(instances, runs);
    const response = await app.inject({ method: 'GET', url: `/v1/reports/compare?runs=${ids.join(',')}`, headers: auth });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual(JSON.parse(renderReport(expected, 'json')));
    expect(body.comparisons).toHaveLength(1);
    expect(body.runs.map((run: { runId: string }) => run.runId)).toEqual(ids);
    const markdown = await app.inject({ method: 'GET', url: `/v1/reports/compare?runs=${ids.join(',')}&format=markdown`, headers: auth });
    expect(markdown.body).toBe(renderReport(expected, 'markdown'));
    const bad = await app.inject({ method: 'GET', url: '/v1/reports/compare?runs=x,y', headers: auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('query.runs');
    const missing = await app.inject({ method: 'GET', url: '/v1/reports/compare', headers: auth });
    expect(missing.statusCode).toBe(400);
  });
});

describe('ci-replay report', () => {
  async function cli(args: string[]): Promise<string> {
    const out: string[] = [];
    const program = new Command('ci-replay').exitOverride().configureOutput({ writeErr: () => undefined });
    registerReportCommands(program, { out: (text) => out.push(text), err: (text) => out.push(text) }, (work) => work(env.deps));
    await program.parseAsync(['node', 'ci-replay', 'report', ...args]);
    return out.join('');
  }

  it('prints the terminal table by default and every format on request', async () => {
    const ids = runs.map((run) => run.id);
    const expected = buildCiRepairReport(instances, runs);
    expect(await cli(ids)).toBe(renderReport(expected, 'table'));
    expect(await cli([...ids, '--by', 'type', '--format', 'markdown'])).toBe(renderReport(expected, 'markdown', { by: 'type' }));
    expect(await cli([ids[0] ?? '', '--format', 'csv', '--by', 'instance', '--include-unhealthy'])).toBe(
      renderReport(buildCiRepairReport(instances, [runAt(0)], { includeUnhealthy: true }), 'csv', { by: 'instance' }),
    );
  });

  it('refuses an id that is not a UUID and an unknown view', async () => {
    await expect(cli(['nope'])).rejects.toMatchObject({ code: 'invalid_run_id' });
    await expect(cli([runAt(0).id, '--by', 'colour'])).rejects.toThrow(/colour/);
  });
});
