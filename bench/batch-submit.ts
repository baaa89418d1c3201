/**
 * Streams a batch of patches through `POST /v1/runs/{id}/submissions` of the real app (real Postgres and Redis,
 * scratch schema and queue prefix) and prints throughput and the API process's peak RSS above its baseline, for
 * two batch sizes: memory must not grow with the batch.
 * Run: `npx tsx bench/batch-submit.ts [small] [large]` (defaults 5000 and 20000).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { mintToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/index.js';
import { createDeps } from '../src/deps.js';
import { buildApp } from '../src/http/app.js';
import { migrationsDir } from '../src/paths.js';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ci_replay_test';
const sizes = [Number(process.argv[2] ?? 5000), Number(process.argv[3] ?? 20_000)];
const suffix = randomBytes(4).toString('hex');
const schema = `bench_${suffix}`;

const patch = (i: number): string =>
  [`diff --git a/src/module_${i}.py b/src/module_${i}.py`, `--- a/src/module_${i}.py`, `+++ b/src/module_${i}.py`, '@@ -1,3 +1,3 @@', ' import os', '-x = 1', `+x = ${i}`, ' y = 2', ''].join('\n');

const exec = promisify(execFile);
const workDir = await mkdtemp(join(tmpdir(), 'batch-bench-'));
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
const config = loadConfig({ DATABASE_URL: url, QUEUE_PREFIX: `bench-${suffix}`, LOG_LEVEL: 'silent' });
const deps = createDeps(config, { logger: pino({ level: 'silent' }), dbSchema: schema });
try {
  await migrate({ pool: deps.db.pool, dir: migrationsDir() });
  await deps.repos.instances.upsert({
    id: 'bench', dataset: 'bench', language: 'Python', repoOwner: 'octo', repoName: 'bench', sourceRepoOwner: null, upstreamUrl: null, headBranch: null,
    workflowName: null, workflowFilename: null, workflowPath: '.github/workflows/ci.yml', workflow: 'on: push', shaFail: 'a'.repeat(40), shaSuccess: null, diff: '',
    changedFiles: [], commitDate: null, logs: [], labels: [], rawLabels: [], protectedPaths: [], oracleSha: null, subtasks: null, basePassingTests: [],
    pythonVersion: null, installCommand: null, contentHash: 'bench', metadata: {},
  });
  const app = await buildApp({ ...deps, extraRoutes: deps.routes });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const { token, id: tokenId } = await mintToken(deps.repos.tokens, { name: 'bench', role: 'submitter' });
  for (const size of sizes) {
    const run = await deps.repos.runs.create({ label: `batch-${size}`, metadata: {}, ownerTokenId: tokenId });
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const file = join(workDir, `batch-${size}.jsonl`);
    await pipeline(
      Readable.from((function* (): Generator<string> {
        for (let i = 0; i < size; i += 1) yield `${JSON.stringify({ instanceId: 'bench', patch: patch(i) })}\n`;
      })()),
      createWriteStream(file),
    );
    const start = performance.now();
    // The client is curl in its own process, streaming the file: the RSS measured is the API's alone.
    const { stdout } = await exec('curl', ['-sS', '-X', 'POST', '-H', `authorization: Bearer ${token}`, '-H', 'content-type: application/x-ndjson', '-T', file, '-w', '\n%{http_code}', `${address}/v1/runs/${run.id}/submissions`], { maxBuffer: 64 * 1024 * 1024 });
    const [json = '{}', status = ''] = stdout.split(/\n(?=\d+$)/);
    const response = { status };
    const body = JSON.parse(json) as { accepted: number; rejected: number };
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    global.gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    console.log(
      `${String(size).padStart(6)} patches: status ${response.status}, accepted ${body.accepted}, rejected ${body.rejected}, ` +
        `${(size / seconds).toFixed(0)} patches/s, ${seconds.toFixed(2)} s, peak RSS +${((peak - baseline) / 1048576).toFixed(1)} MiB over ${(baseline / 1048576).toFixed(0)} MiB, heap after GC ${(heapAfter / 1048576).toFixed(1)} MiB (API process; client is curl)`,
    );
  }
  await app.close();
} finally {
  await deps.close();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
  await rm(workDir, { recursive: true, force: true });
}
