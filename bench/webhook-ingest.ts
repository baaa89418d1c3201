/**
 * Webhook intake throughput: signed `workflow_job` deliveries (a real payload from @octokit/webhooks-examples,
 * a fresh X-GitHub-Delivery GUID per request) driven by autocannon at
 *   1. a stock probot `createNodeMiddleware` server doing signature verification only, and
 *   2. ci-replay's `POST /api/github/webhooks` (verify over the raw body + record in Postgres + enqueue in Redis),
 * at full speed (same connections and duration), then ci-replay at a fixed 200 deliveries/s for p99. Prints
 * throughput and latency, the ratio, and checks that every 2xx delivery was recorded and enqueued.
 * Target: ≥ 0.8× probot's throughput, p99 < 50 ms at 200/s, none lost.
 * The intake is measured as shipped: deliveries arriving in one event-loop turn are recorded with one INSERT
 * through `deliveries.recordMany` and enqueued as one events job; each request is answered once its own delivery
 * is committed.
 * The servers run in a child process (as in a deployment), autocannon in this one, so load generation does not
 * share the servers' event loop.
 * Run: `npx tsx bench/webhook-ingest.ts [seconds] [connections] [rounds]` (needs Postgres and Redis; creates the test database).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createNodeMiddleware, Probot } from 'probot';
import { buildApp } from '../src/http/app.js';
import { githubWebhookRoutes } from '../src/http/routes/github-webhooks.js';
import { createTestDatabase } from '../test/support/global-setup.js';
import { createTestEnv } from '../test/support/test-env.js';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Cannon;
const examples = require('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: Record<string, unknown>[] }[];

const serving = process.argv[2] === '--serve';
const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const rounds = Number(process.argv[4] ?? 3);
const secret = 'bench-webhook-secret';
const payload = examples.find((entry) => entry.name === 'workflow_job')?.examples.find((example) => example.action === 'completed') ?? {};
const body = JSON.stringify(payload);
const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

function fire(url: string, extra: Record<string, unknown>): Promise<CannonResult> {
  return autocannon({
    url,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'workflow_job', 'x-hub-signature-256': signature, 'x-github-hook-id': '1' },
    body,
    requests: [{ setupRequest: (request: { headers: Record<string, string> }) => ({ ...request, headers: { ...request.headers, 'x-github-delivery': randomUUID() } }) }],
    ...extra,
  });
}

/** CPU time (µs) used so far by every live process whose command name starts with `name` (postgres, redis-server). */
function processCpu(name: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    if (!stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith(name)) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks * 10_000; // USER_HZ is 100 on Linux
}

interface CpuSnapshot {
  server: number;
  postgres: number;
  redis: number;
  load: number;
}

const line = (label: string, result: CannonResult): string =>
  `${label.padEnd(52)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  2xx ${result['2xx']}  non-2xx ${result.non2xx}  errors ${result.errors}`;

async function serve(): Promise<void> {
  // 1. Stock probot: verification only.
  const probot = new Probot({ appId: 1, privateKey: 'unused', secret, log: pino({ level: 'silent' }) });
  const middleware = await createNodeMiddleware(() => undefined, { probot });
  const probotServer = createServer((request, response) => {
    void middleware(request, response, () => {
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => probotServer.listen(0, '127.0.0.1', resolve));
  const probotUrl = `http://127.0.0.1:${(probotServer.address() as AddressInfo).port}/api/github/webhooks`;

  // 2. ci-replay's intake as shipped, on a fresh schema and queue prefix.
  await createTestDatabase();
  const env = await createTestEnv();
  const logger = pino({ level: 'silent' });
  const app = await buildApp({
    config: env.deps.config,
    logger,
    repos: env.deps.repos,
    submissions: env.deps.submissions,
    readiness: env.deps.readiness,
    extraRoutes: [githubWebhookRoutes({ webhookSecret: secret, queues: env.deps.queues, logger })],
  });
  const intakeUrl = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/github/webhooks`;
  const count = async (): Promise<{ recorded: number; enqueued: number }> => {
    const recorded = (await env.deps.db.pool.query(`SELECT count(*)::int AS n FROM ${env.schema}."WebhookDelivery"`)).rows[0].n as number;
    // Every recorded delivery id must sit in exactly one events job (a job carries one id or a batch of ids).
    const queue = new Queue('events', { connection: new Redis(env.config.redisUrl, { maxRetriesPerRequest: null }), prefix: env.config.queuePrefix });
    const ids = new Set<string>();
    for (const job of await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'], 0, -1)) {
      for (const id of job.data.source === 'deliveries' ? (job.data.deliveryIds as string[]) : [job.data.deliveryId as string]) ids.add(id);
    }
    await queue.close();
    return { recorded, enqueued: ids.size };
  };
  process.on('message', (message: string) => {
    void (async () => {
      if (message === 'count') process.send?.({ counts: await count() });
      if (message === 'settle') {
        await env.deps.db.pool.query(`VACUUM ANALYZE ${env.schema}."WebhookDelivery"`);
        await env.deps.db.pool.query('CHECKPOINT');
        process.send?.({ settled: true });
      }
      if (message === 'cpu') process.send?.({ cpu: process.cpuUsage().user + process.cpuUsage().system });
      if (message === 'stop') {
        await app.close();
        probotServer.close();
        await env.cleanup();
        process.exit(0);
      }
    })();
  });
  process.send?.({ urls: { probot: probotUrl, intake: intakeUrl } });
}

async function drive(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(key: string): Promise<T> =>
    new Promise((resolve) => {
      const listener = (message: Record<string, unknown>): void => {
        if (!(key in message)) return;
        child.off('message', listener);
        resolve(message[key] as T);
      };
      child.on('message', listener);
    });
  const urls = await next<{ probot: string; intake: string }>('urls');
  const snapshot = async (): Promise<CpuSnapshot> => {
    child.send('cpu');
    const own = process.cpuUsage();
    return { server: await next<number>('cpu'), postgres: processCpu('postgres'), redis: processCpu('redis-server'), load: own.user + own.system };
  };
  /** Runs `fire` and reports the CPU each party spent per answered request. */
  const measured = async (url: string, extra: Record<string, unknown>): Promise<{ result: CannonResult; cpu: CpuSnapshot }> => {
    const before = await snapshot();
    const result = await fire(url, extra);
    const after = await snapshot();
    const per = (key: keyof CpuSnapshot): number => Math.round((after[key] - before[key]) / Math.max(1, result['2xx']));
    return { result, cpu: { server: per('server'), postgres: per('postgres'), redis: per('redis'), load: per('load') } };
  };
  const cpuLine = (label: string, cpu: CpuSnapshot): string =>
    `${label.padEnd(42)} CPU per delivery: server ${cpu.server} µs, postgres ${cpu.postgres} µs, redis ${cpu.redis} µs, load generator ${cpu.load} µs`;
  try {
    await fire(urls.probot, { duration: 2 });
    await fire(urls.intake, { duration: 2 });
    // Alternate the two servers for a few rounds: this machine's CPU share varies from minute to minute, and a
    // ratio taken from back-to-back runs is steadier than one taken from runs a minute apart.
    const runs: { probot: Awaited<ReturnType<typeof measured>>; intake: Awaited<ReturnType<typeof measured>> }[] = [];
    for (let round = 0; round < rounds; round += 1) runs.push({ probot: await measured(urls.probot, {}), intake: await measured(urls.intake, {}) });
    // The latency runs measure steady operation at 200/s, not the aftermath of the full-speed rounds: let
    // Postgres vacuum the ~100k rows just inserted and checkpoint first (autovacuum would do so meanwhile).
    child.send('settle');
    await next<boolean>('settled');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // autocannon paces each connection: 20 connections at 200/s arrive as bursts of 20 every 100 ms; one connection
    // at 200/s is an evenly spaced stream, closer to how GitHub delivers.
    const paced = await fire(urls.intake, { overallRate: 200, connections: 20 });
    const even = await fire(urls.intake, { overallRate: 200, connections: 1 });
    console.log(`payload ${body.length} bytes, ${connections} connections, ${seconds} s per run, ${rounds} rounds`);
    runs.forEach((run, round) => {
      console.log(line(`round ${round + 1}: probot createNodeMiddleware (verify)`, run.probot.result));
      console.log(line(`round ${round + 1}: ci-replay intake (verify+record+enqueue)`, run.intake.result));
    });
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const medianCpu = (pick: (run: (typeof runs)[number]) => CpuSnapshot): CpuSnapshot => ({
      server: median(runs.map((run) => pick(run).server)),
      postgres: median(runs.map((run) => pick(run).postgres)),
      redis: median(runs.map((run) => pick(run).redis)),
      load: median(runs.map((run) => pick(run).load)),
    });
    console.log(cpuLine('probot (median over rounds)', medianCpu((run) => run.probot.cpu)));
    console.log(cpuLine('ci-replay intake (median over rounds)', medianCpu((run) => run.intake.cpu)));
    console.log(line('ci-replay intake, 200/s in bursts of 20', paced));
    console.log(line('ci-replay intake, 200/s evenly spaced', even));
    const ratios = runs.map((run) => run.intake.result.requests.average / run.probot.result.requests.average);
    console.log(`throughput ratio vs probot: median ${median(ratios).toFixed(2)} (rounds: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}; target ≥ 0.80)`);
    // Everything (servers, Postgres, Redis, autocannon) shares this machine's cores: at 0.8× probot's rate each
    // delivery may use at most cores / rate of CPU time in total.
    const probotRate = median(runs.map((run) => run.probot.result.requests.average));
    const budget = (availableParallelism() * 1e6) / (0.8 * probotRate);
    const intakeCpu = medianCpu((run) => run.intake.cpu);
    const used = intakeCpu.server + intakeCpu.postgres + intakeCpu.redis + intakeCpu.load;
    console.log(`CPU budget per delivery at 0.8× probot's rate on ${availableParallelism()} cores: ${budget.toFixed(0)} µs; the intake used ${used} µs (server ${intakeCpu.server}, postgres ${intakeCpu.postgres}, redis ${intakeCpu.redis}, load generator ${intakeCpu.load})`);
    console.log(`p99 at 200 deliveries/s: ${paced.latency.p99} ms in bursts of 20, ${even.latency.p99} ms evenly spaced (target < 50 ms)`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answered = [...runs.map((run) => run.intake.result), paced, even].reduce((sum, result) => sum + result['2xx'], 0);
    child.send('count');
    const { recorded, enqueued } = await next<{ recorded: number; enqueued: number }>('counts');
    console.log(`2xx answered in measured runs: ${answered}; deliveries recorded (incl. warm-ups): ${recorded}; delivery ids on the events queue: ${enqueued}`);
    console.log(`lost: ${recorded === enqueued && recorded >= answered ? 'none' : `${recorded - enqueued} recorded but not enqueued`}`);
  } finally {
    child.send('stop');
  }
}

if (serving) await serve();
else await drive();
