/**
 * The floor under bench/campaign-scale.ts: the same workload (jobs per run, log-normal durations, 200 upstreams,
 * stable assignment) replayed as a discrete-event model with zero latency, so what is left over the bound is what the
 * rules themselves cost, not the simulator or the service:
 * - `gang`: a run starts only when all the jobs it starts fit (the rule), FIFO within the campaign; slots
 *   come back per job;
 * - `no-gang`: every job admitted on its own (what the bound assumes): the tail and the per-account spread only.
 * Assignment by expected work (jobs per run) or by repository count. Prints the mean over `--seeds` seeds.
 * `--orders` also replays the gang rule with other admission orders: largest run first, first-fit backfill (any
 * queued run that fits starts while the head waits), and EASY backfill with known durations (each repository's jobs
 * take their own duration, ±15% per run, and a run may jump the head only if it is expected to end before the
 * head's k slots are free, or uses slots the head will not need): none moves the floor (a run's slots held back
 * for the head are either left empty or handed to runs that keep them longer).
 *
 * `--widths corpus` draws each upstream's width from real workflows instead of the synthetic 1–8 mix: the files of
 * test/fixtures/workflows/corpus/ (real workflows of 2xx public repositories) standardized as the prepare step does
 * (`from-logs`, no logs) and counted as the scheduler counts them (`countWorkflowJobs(...).concurrent`, capped at the
 * limit); it also prints how much of that width is matrix legs (what a `max-parallel` cap could take away) and how
 * much is separate jobs (nothing in a workflow can start those one at a time without changing its `needs:` graph).
 *
 * Run: `npx tsx bench/campaign-scale-model.ts [N] [--limit 20] [--seeds 10] [--orders] [--widths corpus]` (seconds).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { countWorkflowJobs } from '../src/scheduler/job-count.js';
import { standardizeWorkflowText } from '../src/workflows/index.js';
import { drawDuration, seededRandom, type DurationDistribution } from '../test/support/github-sim/runs/synthetic-runner.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : (args[index + 1] ?? fallback);
};
const total = Number(args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 2000);
const limit = Number(flag('limit', '20'));
const seeds = Number(flag('seeds', '10'));
const orders = args.includes('--orders');

const durations: DurationDistribution = { kind: 'lognormal', medianMs: 6 * 60_000, sigma: 0.8, maxMs: 60 * 60_000 };
const JOB_COUNTS: [number, number][] = [[1, 0.3], [2, 0.2], [3, 0.2], [4, 0.15], [6, 0.1], [8, 0.05]];

/** Widths of the corpus's workflows as the scheduler reserves them, and with every matrix at `max-parallel: 1`. */
function corpusWidths(): { widths: number[]; narrowest: number[] } {
  const dir = join(import.meta.dirname, '../test/fixtures/workflows/corpus');
  const widths: number[] = [];
  const narrowest: number[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.yml')).sort()) {
    const [owner, repo, ...rest] = file.replace(/\.yml$/, '').split('--');
    let text: string;
    try {
      text = standardizeWorkflowText({
        text: readFileSync(join(dir, file), 'utf8'),
        path: `.github/workflows/${rest.join('--')}.yml`,
        options: { upstreamRepository: `${owner ?? ''}/${repo ?? ''}`, matrixStrategy: 'from-logs' },
      }).text;
    } catch {
      continue; // refused (nothing to validate, unsupported): never published
    }
    widths.push(Math.min(limit, countWorkflowJobs(text).concurrent));
    const doc = parseDocument(text);
    const jobs = doc.get('jobs', true);
    for (const item of isMap(jobs) ? jobs.items : []) {
      const strategy = isMap(item.value) ? item.value.get('strategy', true) : undefined;
      if (isMap(strategy) && strategy.has('matrix')) strategy.set('max-parallel', 1);
    }
    narrowest.push(Math.min(limit, countWorkflowJobs(doc.toString()).concurrent));
  }
  return { widths, narrowest };
}
const corpus = flag('widths', 'synthetic') === 'corpus' ? corpusWidths() : undefined;
if (corpus !== undefined) {
  const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
  const histogram: Record<number, number> = {};
  for (const width of corpus.widths) histogram[width] = (histogram[width] ?? 0) + 1;
  console.log(JSON.stringify({
    widths: 'corpus', workflows: corpus.widths.length, meanWidth: Number((sum(corpus.widths) / corpus.widths.length).toFixed(2)), histogram,
    slotsReserved: sum(corpus.widths), slotsWithMatricesAtMaxParallel1: sum(corpus.narrowest),
  }));
}

const drawJobs = (random: () => number): number => {
  if (corpus !== undefined) return corpus.widths[Math.floor(random() * corpus.widths.length)] ?? 1;
  let u = random();
  for (const [jobs, p] of JOB_COUNTS) {
    if (u < p) return jobs;
    u -= p;
  }
  return 1;
};

/** Makespan of one account's queue (run sizes in order) at `limit` slots; adds each job's duration to `work`. */
function makespan(queue: number[], random: () => number, work: { ms: number }): number {
  const ends: number[] = [];
  let free = limit;
  let now = 0;
  let last = 0;
  let next = 0;
  while (next < queue.length || ends.length > 0) {
    while (next < queue.length && free >= Math.min(limit, queue[next] ?? 1)) {
      const jobs = Math.min(limit, queue[next] ?? 1);
      next += 1;
      free -= jobs;
      for (let j = 0; j < jobs; j += 1) {
        const ms = drawDuration(durations, random);
        work.ms += ms;
        ends.push(now + ms);
      }
    }
    if (ends.length === 0) break;
    ends.sort((a, b) => a - b);
    now = ends.shift() ?? now;
    last = Math.max(last, now);
    free += 1;
  }
  return last;
}

/** Each of the 200 upstreams on the least-loaded account so far (stable assignment), loaded by `weights`. */
function assignAccounts(weights: number[], accounts: number): number[] {
  const load = new Array<number>(accounts).fill(0);
  return weights.map((weight) => {
    const chosen = load.indexOf(Math.min(...load));
    load[chosen] = (load[chosen] ?? 0) + weight;
    return chosen;
  });
}

/** One account's queue: the campaign's `total` runs cycle over the upstreams; this account's, in order. */
const accountQueue = <T>(upstreams: T[], owner: number[], account: number): T[] =>
  Array.from({ length: total }, (_, i) => i % upstreams.length).filter((u) => owner[u] === account).flatMap((u) => upstreams[u] ?? []);

/** Mean over the seeds, as the rows print it. */
function meanOverBound(overBound: (seed: number) => number): string {
  let sum = 0;
  for (let s = 0; s < seeds; s += 1) sum += overBound(19 + s);
  return `+${((sum / seeds) * 100).toFixed(1)}%`;
}

function overBound(accounts: number, seed: number, gang: boolean, byWork: boolean): number {
  const random = seededRandom(seed);
  const upstreams = Array.from({ length: 200 }, () => drawJobs(random));
  const owner = assignAccounts(upstreams.map((jobs) => (byWork ? jobs : 1)), accounts);
  const durationsRandom = seededRandom(seed + 2);
  const work = { ms: 0 };
  let longest = 0;
  for (let account = 0; account < accounts; account += 1) {
    const runs = accountQueue(upstreams, owner, account);
    const queue = gang ? runs : runs.flatMap((jobs) => new Array<number>(jobs).fill(1));
    longest = Math.max(longest, makespan(queue, durationsRandom, work));
  }
  const bound = work.ms / (accounts * limit);
  return (longest - bound) / bound;
}

for (const accounts of [1, 2, 4]) {
  const row: Record<string, string> = {};
  for (const [label, gang, byWork] of [['gang, by work', true, true], ['gang, by repositories', true, false], ['no-gang, by work', false, true]] as const) {
    row[label] = meanOverBound((seed) => overBound(accounts, seed, gang, byWork));
  }
  console.log(JSON.stringify({ accounts, runs: total, limit, seeds, overBound: row }));
}

type Order = 'fifo' | 'largest-first' | 'first-fit' | 'easy';
interface ModelRun { jobs: number[]; expectedMs: number }
const gauss = (random: () => number): number => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());

/** One account's makespan under the gang rule and an admission order; each job's duration is its base ±15%. */
function orderedMakespan(queue0: ModelRun[], order: Order, random: () => number, work: { ms: number }): number {
  const queue = order === 'largest-first' ? [...queue0].sort((a, b) => b.jobs.length - a.jobs.length) : [...queue0];
  const running: { end: number; expected: number }[] = [];
  let free = limit;
  let now = 0;
  const start = (run: ModelRun): void => {
    free -= run.jobs.length;
    for (const base of run.jobs) {
      const ms = Math.min(60 * 60_000, base * Math.exp(0.15 * gauss(random)));
      work.ms += ms;
      running.push({ end: now + ms, expected: now + base });
    }
  };
  while (queue.length > 0 || running.length > 0) {
    for (;;) {
      const head = queue[0];
      if (head === undefined) break;
      if (free >= head.jobs.length) {
        queue.shift();
        start(head);
        continue;
      }
      if (order === 'fifo' || order === 'largest-first') break;
      const ends = running.map((r) => Math.max(r.expected, now)).sort((a, b) => a - b);
      const shadow = ends[head.jobs.length - free - 1] ?? now;
      const spare = free + ends.filter((e) => e <= shadow).length - head.jobs.length;
      const index = queue.findIndex((q, i) => i > 0 && q.jobs.length <= free && (order === 'first-fit' || now + q.expectedMs <= shadow || q.jobs.length <= spare));
      if (index < 0) break;
      const [jumped] = queue.splice(index, 1);
      if (jumped !== undefined) start(jumped);
    }
    running.sort((a, b) => a.end - b.end);
    const next = running.shift();
    if (next === undefined) break;
    now = next.end;
    free += 1;
  }
  return now;
}

function orderOverBound(accounts: number, seed: number, order: Order): number {
  const random = seededRandom(seed);
  const upstreams = Array.from({ length: 200 }, (): ModelRun => {
    const jobs = Array.from({ length: Math.min(limit, drawJobs(random)) }, () => drawDuration(durations, random));
    return { jobs, expectedMs: Math.max(...jobs) };
  });
  const owner = assignAccounts(upstreams.map((u) => u.jobs.reduce((a, b) => a + b, 0)), accounts);
  const random2 = seededRandom(seed + 100);
  const work = { ms: 0 };
  let longest = 0;
  for (let account = 0; account < accounts; account += 1) {
    longest = Math.max(longest, orderedMakespan(accountQueue(upstreams, owner, account), order, random2, work));
  }
  const bound = work.ms / (accounts * limit);
  return (longest - bound) / bound;
}

if (orders) {
  for (const accounts of [1, 2, 4]) {
    const row: Record<string, string> = {};
    for (const order of ['fifo', 'largest-first', 'first-fit', 'easy'] as const) row[order] = meanOverBound((seed) => orderOverBound(accounts, seed, order));
    console.log(JSON.stringify({ accounts, runs: total, limit, seeds, rule: 'gang, known durations', overBound: row }));
  }
}
