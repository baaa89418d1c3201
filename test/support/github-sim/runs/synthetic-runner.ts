import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import type { CiConclusion, WorkflowJobEvent } from '../../../../src/domain/ci-events.js';
import { expandMatrix, type Combination, type MatrixModel } from '../../../../src/workflows/matrix/index.js';
import { logTimestamp } from './bash-runner.js';
import type { WorkflowRunContext, WorkflowRunOutcome, WorkflowRunner } from './runner.js';

/** A job-duration distribution in simulated milliseconds (before time scaling). */
export type DurationDistribution =
  | { kind: 'fixed'; ms: number }
  | { kind: 'uniform'; minMs: number; maxMs: number }
  /** Log-normal by its median and the geometric standard deviation (CI job times are heavy-tailed), capped. */
  | { kind: 'lognormal'; medianMs: number; sigma: number; maxMs: number };

export interface SyntheticRunnerOptions {
  durations: DurationDistribution;
  /** Wall-clock ms per simulated ms (0.001: a 10-minute job takes 600 ms). Default 1. */
  timeScale?: number;
  /** Probability a job fails (default 0). */
  failureRate?: number;
  /** Seeded random source for reproducible draws (default Math.random). */
  random?: () => number;
  /** Called with each job's simulated duration when it ends (benchmarks add up job-time). */
  onJobDone?: (info: { account: string; repo: string; runId: string; jobId: string; simulatedMs: number }) => void;
}

/** Mulberry32: a small seeded PRNG for reproducible benchmark draws. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function drawDuration(distribution: DurationDistribution, random: () => number): number {
  if (distribution.kind === 'fixed') return distribution.ms;
  if (distribution.kind === 'uniform') return distribution.minMs + random() * (distribution.maxMs - distribution.minMs);
  // Box–Muller from two uniforms.
  const u = Math.max(random(), 1e-12);
  const v = random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.min(distribution.maxMs, distribution.medianMs * Math.exp(distribution.sigma * normal));
}

/** The workflow's jobs with matrix legs expanded (names as GitHub shows them: `key (a, b)`). */
export function expandJobs(text: string): string[] {
  const doc = parseDocument(text, { uniqueKeys: false }).toJSON() as { jobs?: Record<string, { name?: string; strategy?: { matrix?: unknown } } | null> } | null;
  const names: string[] = [];
  for (const [key, job] of Object.entries(doc?.jobs ?? {})) {
    const matrix = job?.strategy?.matrix;
    if (typeof matrix !== 'object' || matrix === null || Array.isArray(matrix)) {
      names.push(job?.name ?? key);
      continue;
    }
    const model: MatrixModel = { keys: [], values: new Map(), include: [], exclude: [] };
    for (const [k, value] of Object.entries(matrix as Record<string, unknown>)) {
      const entries = Array.isArray(value) ? value.filter((e): e is Combination => typeof e === 'object' && e !== null) : [];
      if (k === 'include') model.include = entries;
      else if (k === 'exclude') model.exclude = entries;
      else {
        model.keys.push(k);
        model.values.set(k, Array.isArray(value) ? value : [value]);
      }
    }
    const legs = expandMatrix(model);
    if (legs.length === 0) names.push(job?.name ?? key);
    for (const leg of legs) names.push(`${job?.name ?? key} (${Object.values(leg.values).map(String).join(', ')})`);
  }
  return names;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/**
 * A runner for scale tests and benchmarks: it runs no steps; every job (matrix legs expanded, `needs` ignored: all
 * jobs of a run are queued at once) waits for a slot of its account's concurrent-job limit (`acquireJob`), as
 * GitHub's hosted runners queue, then "runs" for a duration drawn from the distribution, time-scaled, and writes a
 * one-step log in GitHub's raw format.
 */
export function createSyntheticRunner(options: SyntheticRunnerOptions): WorkflowRunner {
  const random = options.random ?? Math.random;
  const scale = options.timeScale ?? 1;
  return {
    async run(ctx: WorkflowRunContext): Promise<WorkflowRunOutcome> {
      const names = expandJobs(ctx.workflow.text);
      if (names.length === 0) return { conclusion: 'startup_failure' };
      const account = ctx.repo.fullName.split('/')[0] ?? '';
      const results = await Promise.all(
        names.map(async (name): Promise<CiConclusion> => {
          const jobId = ctx.nextJobId();
          const simulatedMs = drawDuration(options.durations, random);
          const fails = random() < (options.failureRate ?? 0);
          const base: WorkflowJobEvent = {
            kind: 'workflow_job', repoFullName: ctx.repo.fullName, runId: ctx.runId, runAttempt: ctx.runAttempt, jobId, headSha: ctx.sha,
            headBranch: ctx.ref.replace(/^refs\/heads\//, ''), name, status: 'queued', conclusion: null, startedAt: null, completedAt: null,
            runnerName: null, labels: ['ubuntu-latest'], steps: [], htmlUrl: null,
          };
          ctx.onEvent(base);
          let release: (() => void) | null = null;
          try {
            release = ctx.acquireJob === undefined ? null : await ctx.acquireJob(ctx.signal);
          } catch {
            ctx.onEvent({ ...base, status: 'completed', conclusion: 'cancelled', completedAt: new Date().toISOString() });
            return 'cancelled';
          }
          const startedAt = new Date().toISOString();
          ctx.onEvent({ ...base, status: 'in_progress', startedAt, runnerName: 'GitHub Actions 1', steps: [{ number: 1, name: 'Run tests', status: 'in_progress', conclusion: null, startedAt, completedAt: null }] });
          await sleep(simulatedMs * scale, ctx.signal);
          release?.();
          const conclusion: CiConclusion = ctx.signal.aborted ? 'cancelled' : fails ? 'failure' : 'success';
          const completedAt = new Date().toISOString();
          await writeFile(join(ctx.logsDir, `${jobId}.log`), `${logTimestamp()} ##[group]Run tests\n${logTimestamp()} synthetic job ${name}: ${Math.round(simulatedMs)} ms\n${logTimestamp()} ##[endgroup]\n${conclusion === 'failure' ? `${logTimestamp()} ##[error]Process completed with exit code 1.\n` : ''}`);
          ctx.onEvent({ ...base, status: 'completed', conclusion, startedAt, completedAt, runnerName: 'GitHub Actions 1', steps: [{ number: 1, name: 'Run tests', status: 'completed', conclusion, startedAt, completedAt }] });
          options.onJobDone?.({ account, repo: ctx.repo.fullName, runId: ctx.runId, jobId, simulatedMs });
          return conclusion;
        }),
      );
      const conclusion: CiConclusion = results.includes('cancelled') ? 'cancelled' : results.includes('failure') ? 'failure' : 'success';
      return { conclusion };
    },
  };
}
