/**
 * Webhook intake throughput: signed `workflow_job` deliveries (a real payload from @octokit/webhooks-examples,
 * a fresh X-GitHub-Delivery GUID per request) driven by autocannon at
 *   1. a stock probot `createNodeMiddleware` server doing signature verification only, and
 *   2. ci-replay's `POST /api/github/webhooks` (verify over the raw body + record in Postgres + enqueue in Redis),
 * at full speed (same connections and duration), then ci-replay at a fixed 200 deliveries/s for p99. Prints
 * throughput and latency, the ratio, and checks that every 2xx delivery was recorded and enqueued.
 * Target: ≥ 0.8× probot's throughput, p99 < 50 ms at 200/s, none lost.
 * The intake is measured as shipped (deliveries arriving in one event-loop turn recorded with one INSERT through
 * `deliveries.recordMany` and enqueued as one events job) and, for comparison, with one insert per delivery.
 * The servers run in a child process (as in a deployment), autocannon in this one, so load generation does not
 * share the servers' event loop.
 * Run: `npx tsx bench/webhook-ingest.ts [seconds] [connections]` (needs the test Postgres and Redis).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createNodeMiddleware, Probot } from 'probot';
import { buildApp } from '../src/http/app.js';
import type { NewDelivery } from '../src/db/index.js';
import { githubWebhookRoutes } from '../src/http/routes/github-webhooks.js';
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

const line = (label: string, result: CannonResult): string =>
  `${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  2xx ${result['2xx']}  non-2xx ${result.non2xx}  errors ${result.errors}`;

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

  // 2. ci-replay's intake on a fresh schema and queue prefix: as shipped (one `deliveries.record` per delivery,
  // batched enqueue), and with a batched insert (what a `deliveries.recordMany` in src/db would do; written
  // here with one INSERT … ON CONFLICT DO NOTHING RETURNING id so the figure is measurable today).
  const env = await createTestEnv();
  const logger = pino({ level: 'silent' });
  const recordMany = (deliveries: NewDelivery[]): Promise<Set<string>> => env.deps.repos.deliveries.recordMany(deliveries);
  const intake = async (batched: boolean): Promise<{ url: string; close(): Promise<void> }> => {
    const app = await buildApp({
      config: env.deps.config,
      logger,
      repos: env.deps.repos,
      submissions: env.deps.submissions,
      readiness: env.deps.readiness,
      extraRoutes: [githubWebhookRoutes({ webhookSecret: secret, queues: env.deps.queues, logger, ...(batched ? { recordMany } : {}) })],
    });
    return { url: `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/github/webhooks`, close: () => app.close() };
  };
  const perRow = await intake(false);
  const batched = await intake(true);
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
      if (message === 'stop') {
        await perRow.close();
        await batched.close();
        probotServer.close();
        await env.cleanup();
        process.exit(0);
      }
    })();
  });
  process.send?.({ urls: { probot: probotUrl, perRow: perRow.url, batched: batched.url } });
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
  const urls = await next<{ probot: string; perRow: string; batched: string }>('urls');
  const probotUrl = urls.probot;
  const perRow = { url: urls.perRow };
  const batched = { url: urls.batched };
  try {
    await fire(probotUrl, { duration: 2 });
    await fire(perRow.url, { duration: 2 });
    await fire(batched.url, { duration: 2 });
    const probotResult = await fire(probotUrl, {});
    const perRowResult = await fire(perRow.url, {});
    const batchedResult = await fire(batched.url, {});
    const perRowPaced = await fire(perRow.url, { overallRate: 200, connections: 20 });
    const batchedPaced = await fire(batched.url, { overallRate: 200, connections: 20 });
    // autocannon paces each connection: 20 connections at 200/s arrive as bursts of 20 every 100 ms; one connection
    // at 200/s is an evenly spaced stream, closer to how GitHub delivers.
    const perRowEven = await fire(perRow.url, { overallRate: 200, connections: 1 });
    const batchedEven = await fire(batched.url, { overallRate: 200, connections: 1 });
    console.log(`payload ${body.length} bytes, ${connections} connections, ${seconds} s per run`);
    console.log(line('probot createNodeMiddleware (verify)', probotResult));
    console.log(line('ci-replay, record per row', perRowResult));
    console.log(line('ci-replay as shipped (batched)', batchedResult));
    console.log(line('ci-replay, record per row, 200/s', perRowPaced));
    console.log(line('ci-replay as shipped, 200/s', batchedPaced));
    console.log(line('ci-replay, record per row, 200/s even', perRowEven));
    console.log(line('ci-replay as shipped, 200/s even', batchedEven));
    console.log(`throughput ratio vs probot: per row ${(perRowResult.requests.average / probotResult.requests.average).toFixed(2)}, as shipped ${(batchedResult.requests.average / probotResult.requests.average).toFixed(2)} (target ≥ 0.80)`);
    console.log(`p99 at 200 deliveries/s (bursts of 20): per row ${perRowPaced.latency.p99} ms, as shipped ${batchedPaced.latency.p99} ms; evenly spaced: per row ${perRowEven.latency.p99} ms, as shipped ${batchedEven.latency.p99} ms (target < 50 ms)`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answered = [perRowResult, batchedResult, perRowPaced, batchedPaced, perRowEven, batchedEven].reduce((sum, result) => sum + result['2xx'], 0);
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
