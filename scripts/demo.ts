/**
 * `npm run demo`: the quickstart. First checks that the tools the example's CI runs (flake8, black, pytest) are
 * there as the local executor will find them — installing them with the setup's means when it can (apt as root;
 * pip into .venv when a package index answers), otherwise stopping with exit code 1 and one message naming what is
 * missing and the command that installs it, before anything is migrated or submitted. Then migrates the database
 * (creating it if needed), builds the bundled example project's repository, starts the API and a worker in this
 * process with the local backend, imports the example instances and submits, through the REST API, the unpatched
 * commit (baseline) and a candidate patch for each instance, and prints the results table. Exits 1 when a row is
 * not what the example expects (a verdict, or the baseline's error types).
 */
import { join } from 'node:path';
import { buildDemo, type DemoInstance } from '../examples/build-demo.js';
import { unexpectedRow } from '../examples/demo-expected.js';
import { mintToken } from '../src/auth/tokens.js';
import { runMigrations } from '../src/cli/server.js';
import { loadConfig } from '../src/config.js';
import { createDeps, type Deps } from '../src/deps.js';
import { buildApp } from '../src/http/app.js';
import { createLogger } from '../src/logger.js';
import { createWorkers } from '../src/workers.js';
import { ensureTools } from './setup-machine/install-tools.js';

const TERMINAL = new Set(['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error']);

const say = (text: string): void => void process.stdout.write(`${text}\n`);

type Kind = 'baseline' | 'candidate';
interface Submitted {
  id: string;
  instance: DemoInstance;
  kind: Kind;
}

/** `npm run demo -- --serve`: after the table, keep the API and the worker up and print how to open the dashboard. */
const SERVE = process.argv.includes('--serve');

/** Waits for Ctrl-C (SIGINT) or SIGTERM. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

async function runDemo(deps: Deps, stepPath: string): Promise<number> {
  const { config } = deps;
  await runMigrations(deps);
  const demo = await buildDemo(join(config.dataDir, 'examples'));
  say(`demo upstream: ${demo.upstreamPath} (${demo.instances.length} failing commits); the executor's steps get PATH=${stepPath}`);
  const app = await buildApp({ ...deps, extraRoutes: deps.routes });
  const address = await app.listen({ host: '127.0.0.1', port: config.port });
  const workers = await createWorkers(deps);
  const { token } = await mintToken(deps.repos.tokens, { name: 'demo', role: 'operator' });
  const api = async (method: string, path: string, body?: unknown, type = 'application/json'): Promise<Record<string, unknown>> => {
    const response = await fetch(`${address}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': type }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    const imported = await api('POST', '/v1/instances:import', demo.jsonl, 'application/x-ndjson');
    say(`imported: ${JSON.stringify({ created: imported.created, updated: imported.updated, unchanged: imported.unchanged })}`);
    const run = await api('POST', '/v1/runs', { label: 'demo', metadata: { source: 'npm run demo' } });
    const submissions: Submitted[] = [];
    for (const instance of demo.instances) {
      const baseline = await api('POST', '/v1/submissions', { instanceId: instance.id, kind: 'baseline', runId: run.id });
      const candidate = await api('POST', '/v1/submissions', { instanceId: instance.id, patch: instance.candidate, runId: run.id });
      submissions.push({ id: String(baseline.id), instance, kind: 'baseline' }, { id: String(candidate.id), instance, kind: 'candidate' });
    }
    say(`submitted ${submissions.length} submissions to run ${String(run.id)}; waiting for CI…`);
    const results = new Map<string, Record<string, unknown>>();
    const deadline = Date.now() + 15 * 60_000;
    while (results.size < submissions.length && Date.now() < deadline) {
      for (const submission of submissions) {
        if (results.has(submission.id)) continue;
        const body = await api('GET', `/v1/submissions/${submission.id}`);
        if (TERMINAL.has(String(body.state)) && !(body.state === 'completed' && body.verdict === null)) {
          results.set(submission.id, body);
          say(`  ${submission.instance.id} ${submission.kind}: ${String(body.verdict ?? body.state)}`);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const rows = [['instance', 'kind', 'verdict', 'failed jobs', 'observed error types']];
    const wrong: string[] = [];
    for (const submission of submissions) {
      const body = results.get(submission.id);
      const runs = await deps.repos.ci.runsOf(submission.id);
      const failed: string[] = [];
      for (const runRow of runs) for (const job of await deps.repos.ci.jobsOfRun(runRow.id)) if (job.conclusion === 'failure') failed.push(`${job.name}: ${job.failedStep ?? '?'}`);
      rows.push([submission.instance.id, submission.kind, String(body?.verdict ?? body?.state ?? 'unfinished'), failed.join('; '), ((body?.observedLabels as string[] | undefined) ?? []).join(', ')]);
      const problem = unexpectedRow(submission.instance, submission.kind, body);
      if (problem !== null) wrong.push(problem);
    }
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    say('');
    for (const row of rows) say(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
    if (wrong.length > 0) process.stderr.write(`\nnpm run demo: ${wrong.length} of ${rows.length - 1} rows are not what the example expects:\n${wrong.map((w) => `  - ${w}`).join('\n')}\n`);
    if (!SERVE) {
      say(`\nAPI was at ${address} (docs at ${address}/docs); the run's submissions: GET /v1/submissions?runId=${String(run.id)}`);
      say('`npm run demo -- --serve` keeps it up and opens the campaign in the dashboard.');
      return wrong.length === 0 ? 0 : 1;
    }
    // The demo's own operator token, minted for this database: the dashboard's login takes it (docs/dashboard.md).
    say(`\ndashboard: ${address}/ui/#/runs/${String(run.id)}`);
    say(`sign in with the demo's operator token: ${token}`);
    say(`API docs: ${address}/docs. Serving until Ctrl-C.`);
    await untilInterrupted();
    return wrong.length === 0 ? 0 : 1;
  } finally {
    await workers.close();
    await app.close();
  }
}

async function main(): Promise<number> {
  if (SERVE) {
    // the dashboard's page is built by Vite into dist/ui (only when ui/ changed since the last build)
    const { buildUi } = await import('./build-ui.mjs');
    if (await buildUi()) say('built the dashboard (dist/ui)');
  }
  const tools = await ensureTools('demo', { install: true, say });
  if (!tools.ok) {
    process.stderr.write(tools.message ?? 'npm run demo: the example\'s tools are missing\n');
    return 1;
  }
  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, CI_BACKEND: 'local', PORT: process.env.DEMO_PORT ?? (SERVE ? '3000' : '0') });
  // The executor's steps get exactly the PATH the tools were checked on (with the project's .venv/bin first when the setup made one).
  const deps = createDeps(config, { logger: createLogger({ level: config.logLevel }), stepEnv: { PATH: tools.report.toolsPath } });
  try {
    return await runDemo(deps, tools.report.toolsPath);
  } finally {
    await deps.close();
  }
}

process.exitCode = await main();
