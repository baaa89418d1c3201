/**
 * A benchmark campaign on the local backend: N submissions (default 567, CI-Repair-Bench's size) over synthetic
 * instances whose CI takes realistic time without doing the work (two jobs per run, each sleeping 1–5 s drawn from a
 * seeded distribution; the unpatched commit fails its test job, the candidate passes). Runs the real
 * `ci-replay worker` as child processes against a database of its own on the local Postgres and a private Redis, in
 * four scenarios: 1 worker, 3 workers, and each again with one worker SIGKILLed halfway and restarted at once.
 * Prints wall time, submissions per minute, each worker's peak RSS, the workers' CPU per submission (own and child
 * processes', from /proc), and checks every scenario ends with the same
 * results (each submission its expected verdict, one branch).
 *
 * Run: `npx tsx bench/campaign.ts [N] [--scenarios 1,3,1k,3k] [--seed 20261201] [--lease 15] [--sweep 5] [--sleep 1.0-5.0] [--concurrency 2] [--worker-env KEY=value,…]`
 * (`--lease`/`--sweep`: LEASE_SECONDS and RECOVERY_INTERVAL_SECONDS of the workers; a killed worker's submissions
 * resume within lease + one sweep).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { importInstances } from '../src/catalog/import-instances.js';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/index.js';
import { createDeps, type Deps } from '../src/deps.js';
import { isTerminal, type SubmissionState } from '../src/domain/states.js';
import { migrationsDir } from '../src/paths.js';
import { createPrng } from '../src/scoring/synthetic/prng.js';
import { createFixtureRepo, makePatch } from '../test/support/git-fixtures.js';
import { startPrivateRedis, type PrivateRedis } from '../test/support/private-redis.js';
import { adminUrl } from '../test/support/test-database.js';
import { startWorkerProcess, type WorkerProcess } from '../test/support/worker-process.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : (args[index + 1] ?? fallback);
};
const positional = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const total = Number(positional[0] ?? 567);
const seed = Number(flag('seed', '20261201'));
const leaseSeconds = flag('lease', '15');
const sweepSeconds = flag('sweep', '5');
const [sleepMin, sleepMax] = flag('sleep', '1.0-5.0').split('-').map(Number) as [number, number];
const concurrency = flag('concurrency', '2');
/** Extra worker settings, `--worker-env KEY=value,KEY=value` (e.g. EXECUTOR_SANDBOX=off). */
const workerEnv = Object.fromEntries(
  flag('worker-env', '')
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const scenarios = flag('scenarios', '1,3,1k,3k').split(',').map((name) => ({ name, workers: Number.parseInt(name, 10), kill: name.endsWith('k') }));
const INSTANCES = 21;

/** Instance i: jobs `lint` and `test`, each sleeping a seeded `--sleep` range (default 1.0–5.0 s); `test` then checks the status file. */
function workflow(lint: number, test: number): string {
  return `name: CI
on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Lint
        run: sleep ${lint.toFixed(1)}
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Run tests
        run: sleep ${test.toFixed(1)} && grep -q fixed status.txt
`;
}

interface Sample {
  pid: number;
  label: string;
  peakRssKiB: number;
  /** CPU seconds: the worker's own (user + system), and its reaped children's (git, steps, sandbox set-up). */
  cpuSelf: number;
  cpuChildren: number;
}

/** The last CPU figures /proc has for a process (utime+stime, cutime+cstime), in seconds (clock ticks of 1/100 s). */
function cpuTimes(pid: number): { self: number; children: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    // After the command name: state is field 3, so utime/stime/cutime/cstime (fields 14–17) are at 11–14 here.
    return { self: (fields[11]! + fields[12]!) / 100, children: (fields[13]! + fields[14]!) / 100 };
  } catch {
    return null;
  }
}

function peakRss(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    return line === undefined ? null : Number(line.split(/\s+/)[1]);
  } catch {
    return null;
  }
}

const database = `ci_replay_bench_${randomBytes(4).toString('hex')}`;
const databaseUrl = `postgresql://postgres@127.0.0.1:5432/${database}`;
const admin = new pg.Client({ connectionString: adminUrl() });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const redis: PrivateRedis = await startPrivateRedis();
const dataDir = await mkdtemp(join(tmpdir(), 'ci-replay-bench-campaign-'));
const env: Record<string, string> = {
  DATABASE_URL: databaseUrl,
  REDIS_URL: redis.url,
  QUEUE_PREFIX: 'bench',
  DATA_DIR: dataDir,
  LEASE_SECONDS: leaseSeconds,
  RECOVERY_INTERVAL_SECONDS: sweepSeconds,
  EXECUTOR_NETWORK: 'none',
  // Jobs on the host (namespaces), as before job containers existed: a runner image need not be built first.
  LOCAL_RUNTIME: 'host',
  WORKER_CONCURRENCY: concurrency,
  ...workerEnv,
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
};
const deps: Deps = createDeps(loadConfig(env), { logger: pino({ level: 'silent' }) });
const live: WorkerProcess[] = [];

try {
  await migrate({ pool: deps.db.pool, dir: migrationsDir() });
  const prng = createPrng(seed);
  const steps = Math.round((sleepMax - sleepMin) * 10);
  const durations = Array.from({ length: INSTANCES }, () => [sleepMin + prng.int(0, steps) / 10, sleepMin + prng.int(0, steps) / 10] as const);
  const files: Record<string, string> = { 'status.txt': 'broken\n', 'README.md': 'bench\n' };
  durations.forEach(([lint, test], i) => {
    files[`.github/workflows/w${i}.yml`] = workflow(lint, test);
  });
  const upstream = await createFixtureRepo(join(dataDir, 'upstream.git'), [{ message: 'project', files }, { message: 'fix', files: { 'status.txt': 'fixed\n' } }]);
  const fix = await makePatch(upstream.gitDir, upstream.shas[0]!, upstream.shas[1]!);
  const rows = durations.map(([lint, test], i) => ({
    id: `bench-${i}`, repo_owner: 'bench', repo_name: 'sleepy', workflow_path: `.github/workflows/w${i}.yml`, workflow: workflow(lint, test),
    sha_fail: upstream.shas[0], sha_success: upstream.shas[1], diff: fix, error_type: ['Test Failure'], upstream_url: upstream.gitDir,
  }));
  await importInstances(Readable.from([rows.map((row) => `${JSON.stringify(row)}\n`).join('')]), deps.repos.instances, {});
  const meanSleep = durations.reduce((sum, [lint, test]) => sum + Math.max(lint, test), 0) / INSTANCES;
  console.log(`campaign: ${total} submissions over ${INSTANCES} instances (seed ${seed}; per run two jobs sleeping ${sleepMin.toFixed(1)}–${sleepMax.toFixed(1)} s, mean run ${meanSleep.toFixed(1)} s of sleep);`);
  console.log(`workers: WORKER_CONCURRENCY=${concurrency}, EXECUTOR_MAX_PARALLEL_JOBS=2, LEASE_SECONDS=${leaseSeconds}, RECOVERY_INTERVAL_SECONDS=${sweepSeconds}${Object.entries(workerEnv).map(([key, value]) => `, ${key}=${value}`).join('')}; ${(await import('node:os')).cpus().length} CPU cores`);

  const results: Record<string, { wall: number; perMinute: number; peaks: Sample[]; attempts: number; resumed: number; verdicts: string; killedAt: number | null }> = {};
  for (const scenario of scenarios) {
    const run = await deps.repos.runs.create({ label: `bench ${scenario.name}`, metadata: {} });
    const samples = new Map<number, Sample>();
    const start = (label: string): WorkerProcess => {
      const worker = startWorkerProcess(env);
      live.push(worker);
      samples.set(worker.pid, { pid: worker.pid, label, peakRssKiB: 0, cpuSelf: 0, cpuChildren: 0 });
      return worker;
    };
    const workers = Array.from({ length: scenario.workers }, (_, i) => start(`worker ${i + 1}`));
    await Promise.all(workers.map((worker) => worker.waitForLog((record) => record.msg === 'workers started', { timeoutMs: 300_000 })));
    const sampler = setInterval(() => {
      for (const sample of samples.values()) {
        sample.peakRssKiB = Math.max(sample.peakRssKiB, peakRss(sample.pid) ?? 0);
        const cpu = cpuTimes(sample.pid);
        if (cpu !== null) Object.assign(sample, { cpuSelf: cpu.self, cpuChildren: cpu.children });
      }
    }, 250);
    const began = Date.now();
    const ids: { id: string; kind: 'baseline' | 'candidate'; instance: string }[] = [];
    for (let i = 0; i < total; i += 1) {
      const kind = i % 2 === 0 ? 'baseline' : 'candidate';
      const instance = `bench-${Math.floor(i / 2) % INSTANCES}`;
      const { submission } = await deps.submissions.create({ instanceId: instance, runId: run.id, kind, ...(kind === 'candidate' ? { patch: fix } : {}) });
      ids.push({ id: submission.id, kind, instance });
    }
    let killedAt: number | null = null;
    for (;;) {
      const counts = await deps.repos.runs.countByState(run.id);
      const done = Object.entries(counts).filter(([state]) => isTerminal(state as SubmissionState)).reduce((sum, [, count]) => sum + count, 0);
      if (scenario.kill && killedAt === null && done >= total / 2) {
        killedAt = Date.now() - began;
        const victim = workers[0]!;
        await victim.kill('SIGKILL');
        workers[0] = start('worker 1 (restarted)');
      }
      if (done === total) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const wall = (Date.now() - began) / 1000;
    clearInterval(sampler);
    await Promise.all(workers.map((worker) => worker.kill('SIGTERM')));
    const rowsNow = await deps.repos.submissions.list({ runId: run.id, limit: total + 1 });
    let attempts = 0;
    let wrong = 0;
    for (const row of rowsNow) {
      attempts += (await deps.repos.ci.runsOf(row.id)).length;
      const expected = row.kind === 'baseline' ? 'failed' : 'passed';
      if (row.state !== 'completed' || row.verdict !== expected) wrong += 1;
    }
    const verdicts = `${rowsNow.length - wrong}/${rowsNow.length} as expected`;
    if (killedAt !== null) {
      // The submissions the killed worker held: how long after the kill each one ended.
      const held = rowsNow.filter((row) => row.resumeCount > 0);
      const after = held.map((row) => ((row.completedAt?.getTime() ?? Date.now()) - began - killedAt) / 1000);
      console.log(`  held by the killed worker: ${held.length} (${held.map((row) => row.kind).join(', ')}), each done ${after.map((s) => `${s.toFixed(1)} s`).join(', ')} after the kill`);
    }
    results[scenario.name] = { wall, perMinute: (total / wall) * 60, peaks: [...samples.values()], attempts, resumed: rowsNow.reduce((sum, row) => sum + row.resumeCount, 0), verdicts, killedAt };
    const peaks = [...samples.values()].map((sample) => `${sample.label} ${(sample.peakRssKiB / 1024).toFixed(0)} MiB`).join(', ');
    const cpuSelf = [...samples.values()].reduce((sum, sample) => sum + sample.cpuSelf, 0);
    const cpuChildren = [...samples.values()].reduce((sum, sample) => sum + sample.cpuChildren, 0);
    console.log(
      `${scenario.workers} worker${scenario.workers === 1 ? ' ' : 's'}${scenario.kill ? `, one SIGKILLed at ${((killedAt ?? 0) / 1000).toFixed(0)} s and restarted` : ''}: ` +
        `wall ${wall.toFixed(1)} s, ${((total / wall) * 60).toFixed(1)} submissions/min; runs ${attempts} for ${total} submissions (${results[scenario.name]!.resumed} resumed); verdicts ${verdicts}; peak RSS ${peaks}; ` +
        `worker CPU ${((cpuSelf + cpuChildren) / total).toFixed(2)} s per submission (${(cpuSelf / total).toFixed(2)} s in the worker, ${(cpuChildren / total).toFixed(2)} s in its child processes; start-up included)`,
    );
  }
  for (const scenario of scenarios.filter((s) => s.kill)) {
    const base = results[String(scenario.workers)];
    const killed = results[scenario.name];
    if (base === undefined || killed === undefined) continue;
    const delta = killed.wall - base.wall;
    console.log(`${scenario.workers} worker(s), killed midway vs not: ${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(1)} s wall (${killed.verdicts}; ${killed.attempts - base.attempts} extra run attempt(s))`);
  }
} finally {
  await Promise.all(live.map((worker) => worker.kill('SIGKILL')));
  await deps.close();
  await redis.destroy();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  await rm(dataDir, { recursive: true, force: true });
}
