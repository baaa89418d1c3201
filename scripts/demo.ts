/**
 * `npm run demo`: the quickstart. Migrates the database (creating it if needed), builds the bundled example
 * project's repository, starts the API and a worker in this process with the local backend, imports the
 * example instances and submits, through the REST API, the unpatched commit (baseline) and a candidate patch
 * for each instance, then prints the results table.
 */
import { join } from 'node:path';
import { buildDemo } from '../examples/build-demo.js';
import { mintToken } from '../src/auth/tokens.js';
import { runMigrations } from '../src/cli/server.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { buildApp } from '../src/http/app.js';
import { createLogger } from '../src/logger.js';
import { createWorkers } from '../src/workers.js';

const TERMINAL = new Set(['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error']);

const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, CI_BACKEND: 'local', PORT: process.env.DEMO_PORT ?? '0' });
const deps = createDeps(config, { logger: createLogger({ level: config.logLevel }) });
const say = (text: string): void => void process.stdout.write(`${text}\n`);

try {
  await runMigrations(deps);
  const demo = await buildDemo(join(config.dataDir, 'examples'));
  say(`demo upstream: ${demo.upstreamPath} (${demo.instances.length} failing commits)`);
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
    const submissions: { id: string; instance: string; kind: string }[] = [];
    for (const instance of demo.instances) {
      const baseline = await api('POST', '/v1/submissions', { instanceId: instance.id, kind: 'baseline', runId: run.id });
      const candidate = await api('POST', '/v1/submissions', { instanceId: instance.id, patch: instance.candidate, runId: run.id });
      submissions.push({ id: String(baseline.id), instance: instance.id, kind: 'baseline' }, { id: String(candidate.id), instance: instance.id, kind: 'candidate' });
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
          say(`  ${submission.instance} ${submission.kind}: ${String(body.verdict ?? body.state)}`);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const rows = [['instance', 'kind', 'verdict', 'failed jobs', 'observed error types']];
    for (const submission of submissions) {
      const body = results.get(submission.id);
      const runs = await deps.repos.ci.runsOf(submission.id);
      const failed: string[] = [];
      for (const runRow of runs) for (const job of await deps.repos.ci.jobsOfRun(runRow.id)) if (job.conclusion === 'failure') failed.push(`${job.name}: ${job.failedStep ?? '?'}`);
      rows.push([submission.instance, submission.kind, String(body?.verdict ?? body?.state ?? 'unfinished'), failed.join('; '), ((body?.observedLabels as string[] | undefined) ?? []).join(', ')]);
    }
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    say('');
    for (const row of rows) say(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
    say(`\nAPI was at ${address} (docs at ${address}/docs); the run's submissions: GET /v1/submissions?runId=${String(run.id)}`);
    if (results.size < submissions.length) process.exitCode = 1;
  } finally {
    await workers.close();
    await app.close();
  }
} finally {
  await deps.close();
}
