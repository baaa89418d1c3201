/**
 * Drives the account pool and the scheduler (src/scheduler) against the GitHub simulator for tests and
 * bench/campaign-scale.ts. What it drives, precisely: the real scheduler (Redis slots, priorities, fair share), the
 * real GitHub App client (src/github: App JWT, installation tokens, throttling, typed errors), and the simulator with
 * per-account job limits and the synthetic runner. The pipeline's publish and record steps are replaced by the
 * simulator calls they make: publishing = `POST …/actions/workflows/{id}/dispatches` (instead of the git push, which
 * is not a REST call) + `POST …/check-runs`; recording a finished run = `GET …/runs/{id}/attempts/{n}/jobs` +
 * `PATCH …/check-runs/{id}`. Job and run completions reach the scheduler by signed webhook, as in the service.
 */
import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import type { Redis } from 'ioredis';
import { createGithubApp, type GithubApp } from '../../src/github/index.js';
import { createScheduler, createSlotStore, leastLoaded, type PoolAccount, type Scheduler } from '../../src/scheduler/index.js';
import { startGithubSim, createSyntheticRunner, type DurationDistribution, type GithubSim } from './github-sim/index.js';
import { verifySignature } from './github-sim/webhooks/sign.js';
import { resolveRef } from './github-sim/git/bare-repo.js';

export interface CampaignSubmission {
  id: string;
  kind: string;
  runId: string | null;
  upstream: { owner: string; name: string };
  jobs: number;
}

export interface PoolCampaignOptions {
  redis: Redis;
  prefix: string;
  accounts: PoolAccount[];
  /** Upstream repositories and the jobs their workflow starts (a matrix of that many legs). */
  upstreams: { owner: string; name: string; jobs: number }[];
  durations: DurationDistribution;
  timeScale: number;
  random?: () => number;
  /**
   * The simulator's REST limit per installation per wall-clock hour (default GitHub's 5,000). A time-scaled campaign
   * makes an hour's calls in seconds: the bench lifts it, or one account stalls once 5,000 calls are spent.
   */
  simRestPerHour?: number;
  /**
   * Assignment store (default: in memory, least-loaded by expected work per concurrent job: each upstream weighs the
   * jobs its workflow starts, every job drawing from the same duration distribution).
   */
  assign?: (upstream: { owner: string; name: string }, accounts: PoolAccount[]) => Promise<string | null>;
  /** Default assignment by repository count instead of expected work (what the pool did before; for comparison). */
  assignByRepositories?: boolean;
}

export interface SubmissionTimes {
  admittedAt: number;
  startedAt?: number;
  finishedAt?: number;
  account?: string;
}

export interface PoolCampaign {
  sim: GithubSim;
  scheduler: Scheduler;
  github: GithubApp;
  /** The clients that dispatch runs (the pipeline's git push stand-in, several workers). */
  dispatchers: GithubApp[];
  accounts: PoolAccount[];
  times: Map<string, SubmissionTimes>;
  /** Simulated job-time per account (ms, unscaled). */
  jobTime: Map<string, number>;
  /** Publish/record REST calls that failed (they are retried by the next tick). */
  errors: string[];
  submit(submission: CampaignSubmission): Promise<void>;
  /** Assigns the upstreams and creates their benchmark repositories ahead of time (as `ci-replay repos sync` does before a campaign). */
  prepareRepos(upstreams: { owner: string; name: string }[]): Promise<void>;
  /** Resolves once every given submission finished. */
  waitAll(ids: string[], timeoutMs: number): Promise<void>;
  /** Sets an account's state (draining/removed) in the pool the scheduler reads. */
  setAccountState(owner: string, state: PoolAccount['state']): void;
  /** Moves every upstream of `from` to the least-loaded active account (operator `pool move`). */
  moveAssignments(from: string): number;
  assignments: Map<string, string>;
  close(): Promise<void>;
}

const silent = pino({ level: 'silent' });

const workflowText = (jobs: number): string => `name: CI
on:
  workflow_dispatch:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        leg: [${Array.from({ length: jobs }, (_, i) => i + 1).join(', ')}]
    steps:
      - run: echo test
`;

export async function startPoolCampaign(options: PoolCampaignOptions): Promise<PoolCampaign> {
  const jobTime = new Map<string, number>();
  const sim = await startGithubSim({
    queueDelayMs: 0,
    runner: createSyntheticRunner({
      durations: options.durations, timeScale: options.timeScale, ...(options.random !== undefined ? { random: options.random } : {}),
      onJobDone: ({ account, simulatedMs }) => jobTime.set(account, (jobTime.get(account) ?? 0) + simulatedMs),
    }),
  });
  const accounts = options.accounts.map((account) => ({ ...account }));
  const installations = new Map<string, number>();
  for (const account of accounts) {
    const installation = sim.createInstallation({ account: account.owner });
    installations.set(account.owner, installation.id);
    account.installationId = installation.id;
    sim.limits.setConcurrentJobs(account.owner, account.concurrentJobs);
    if (options.simRestPerHour !== undefined) sim.limits.setInstallationRate(installation.id, { restPerHour: options.simRestPerHour });
  }
  const jobsOf = new Map(options.upstreams.map((u) => [`${u.owner}/${u.name}`, u.jobs]));
  const github = createGithubApp({ appId: String(sim.appId), privateKey: sim.privateKeyPem, baseUrl: sim.url, logger: silent, writeIntervalMs: 0, retryAfterBaseMs: 10 });
  // The workflow dispatch stands in for the pipeline's git push, which does not queue behind the installation's
  // serialized REST writes (check runs): a client of its own, so a run starts as soon as its slots are reserved.
  // (Several clients dispatching at once measured slower on a 2-CPU host: the simulator's run creation is CPU-bound.)
  const pushers = [createGithubApp({ appId: String(sim.appId), privateKey: sim.privateKeyPem, baseUrl: sim.url, logger: silent, writeIntervalMs: 0, retryAfterBaseMs: 10 })];
  const pusher = (): GithubApp => pushers[0] ?? github;
  const assignments = new Map<string, string>();
  /** Load per account: assigned upstreams weighted by the jobs their workflow starts (or 1 each by repository count). */
  const loads = (): Map<string, number> => {
    const load = new Map<string, number>();
    for (const [key, owner] of assignments) load.set(owner, (load.get(owner) ?? 0) + (options.assignByRepositories === true ? 1 : (jobsOf.get(key) ?? 1)));
    return load;
  };
  const defaultAssign = async (upstream: { owner: string; name: string }): Promise<string | null> => {
    const key = `${upstream.owner}/${upstream.name}`;
    const existing = assignments.get(key);
    if (existing !== undefined) return existing;
    const chosen = leastLoaded(accounts, loads());
    if (chosen !== null) assignments.set(key, chosen);
    return chosen;
  };
  const assign = async (upstream: { owner: string; name: string }): Promise<string | null> => {
    const owner = options.assign === undefined ? await defaultAssign(upstream) : await options.assign(upstream, accounts);
    if (owner !== null) assignments.set(`${upstream.owner}/${upstream.name}`, owner);
    return owner;
  };

  const submissions = new Map<string, CampaignSubmission>();
  const times = new Map<string, SubmissionTimes>();
  const runs = new Map<string, { submissionId: string; repo: string; checkRunId: Promise<number> }>();
  const readyRepos = new Map<string, Promise<string>>();
  const errors: string[] = [];

  /** The benchmark repository on the account (made directly in the simulator: one-time setup, not per submission). */
  const ensureRepo = (account: string, upstream: { owner: string; name: string }): Promise<string> => {
    const name = `${upstream.owner}--${upstream.name}`;
    const key = `${account}/${name}`;
    let ready = readyRepos.get(key);
    if (ready === undefined) {
      ready = sim.createRepo({ owner: account, name, files: { '.github/workflows/ci.yml': workflowText(jobsOf.get(`${upstream.owner}/${upstream.name}`) ?? 1) } }).then(async (repo) => (await resolveRef(repo.gitDir, 'refs/heads/main')) ?? '');
      readyRepos.set(key, ready);
    }
    return ready;
  };

  const publish = async (submissionId: string, account: string): Promise<void> => {
    const submission = submissions.get(submissionId);
    const entry = times.get(submissionId);
    if (submission === undefined || entry === undefined) return;
    entry.startedAt = Date.now();
    entry.account = account;
    const repo = `${submission.upstream.owner}--${submission.upstream.name}`;
    const headSha = await ensureRepo(account, submission.upstream);
    const installation = installations.get(account) ?? 0;
    const dispatched = await pusher().installation(installation).request<{ workflow_run_id: number }>('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', { owner: account, repo, workflow_id: 'ci.yml', ref: 'main', return_run_details: true });
    const head = `${account}/${repo}`;
    const runId = String(dispatched.data.workflow_run_id);
    // Known as soon as it exists (the pipeline knows its commit before the push): a job completion that arrives while
    // the check run is being created still gives its slot back at once.
    const checkRunId = github.installation(installation)
      .request<{ id: number }>('POST /repos/{owner}/{repo}/check-runs', { owner: account, repo, name: 'ci-replay', head_sha: headSha, status: 'queued', external_id: submissionId })
      .then((check) => check.data.id);
    runs.set(runId, { submissionId, repo: head, checkRunId });
    for (const jobId of earlyJobs.get(runId) ?? []) await scheduler.jobCompleted(submissionId, jobId);
    earlyJobs.delete(runId);
    await checkRunId;
    // Its completion may have arrived before the run was known (short synthetic jobs).
    const early = early_.get(runId);
    if (early !== undefined) {
      early_.delete(runId);
      await record(runId, early);
    }
  };
  const early_ = new Map<string, number>();
  const earlyJobs = new Map<string, string[]>();

  const scheduler = createScheduler({
    store: createSlotStore(options.redis, options.prefix),
    accounts: async () => accounts,
    assign,
    accountOf: async (submissionId) => {
      const submission = submissions.get(submissionId);
      return submission === undefined ? null : assign(submission.upstream);
    },
    onStart: async (started) => {
      for (const { submissionId, account } of started) {
        publish(submissionId, account).catch((error: unknown) => {
          errors.push(`${submissionId}: ${error instanceof Error ? error.message : String(error)}`);
        });
      }
    },
    logger: silent,
    holdMs: 3_600_000,
  });

  const record = async (runId: string, attempt: number): Promise<void> => {
    const run = runs.get(runId);
    if (run === undefined) {
      early_.set(runId, attempt);
      return;
    }
    const [owner = '', repo = ''] = run.repo.split('/');
    const client = github.installation(installations.get(owner) ?? 0);
    await client.paginate('GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs', { owner, repo, run_id: runId, attempt_number: attempt });
    await client.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { owner, repo, check_run_id: await run.checkRunId, status: 'completed', conclusion: 'success', output: { title: 'done', summary: 'done' } });
    const entry = times.get(run.submissionId);
    if (entry !== undefined) entry.finishedAt = Date.now();
    await scheduler.finished(run.submissionId);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (!verifySignature(sim.webhookSecret, raw, String(req.headers['x-hub-signature-256'] ?? ''))) return void res.writeHead(401).end();
      res.writeHead(202).end();
      const event = String(req.headers['x-github-event'] ?? '');
      const payload = JSON.parse(raw.toString('utf8')) as { action?: string; workflow_job?: { id: number; run_id: number }; workflow_run?: { id: number; run_attempt: number } };
      const onError = (error: unknown): void => void errors.push(`${event}: ${error instanceof Error ? error.message : String(error)}`);
      if (event === 'workflow_job' && payload.action === 'completed' && payload.workflow_job !== undefined) {
        const runId = String(payload.workflow_job.run_id);
        const run = runs.get(runId);
        if (run !== undefined) scheduler.jobCompleted(run.submissionId, String(payload.workflow_job.id)).catch(onError);
        else earlyJobs.set(runId, [...(earlyJobs.get(runId) ?? []), String(payload.workflow_job.id)]);
      }
      if (event === 'workflow_run' && payload.action === 'completed' && payload.workflow_run !== undefined) {
        record(String(payload.workflow_run.id), payload.workflow_run.run_attempt).catch(onError);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  sim.setWebhookUrl(`http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/`);

  return {
    sim, scheduler, github, dispatchers: pushers, accounts, times, jobTime, errors, assignments,
    async submit(submission) {
      submissions.set(submission.id, submission);
      times.set(submission.id, { admittedAt: Date.now() });
      const admission = await scheduler.admit({ submissionId: submission.id, kind: submission.kind, runId: submission.runId, upstream: submission.upstream, jobs: submission.jobs });
      // Started at once: the caller publishes it itself (onStart is for submissions started later).
      if (admission.state === 'started') {
        publish(submission.id, admission.account).catch((error: unknown) => errors.push(`${submission.id}: ${error instanceof Error ? error.message : String(error)}`));
      }
    },
    async prepareRepos(list) {
      for (const upstream of list) {
        const account = await assign(upstream);
        if (account !== null) await ensureRepo(account, upstream);
      }
    },
    async waitAll(ids, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (ids.some((id) => times.get(id)?.finishedAt === undefined)) {
        if (Date.now() > deadline) throw new Error(`${ids.filter((id) => times.get(id)?.finishedAt === undefined).length} submissions unfinished after ${timeoutMs} ms; errors: ${errors.slice(0, 3).join('; ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    setAccountState(owner, state) {
      const account = accounts.find((a) => a.owner === owner);
      if (account !== undefined) account.state = state;
    },
    moveAssignments(from) {
      let moved = 0;
      for (const [key, owner] of assignments) {
        if (owner !== from) continue;
        const to = leastLoaded(accounts, loads());
        if (to === null) continue;
        assignments.set(key, to);
        moved += 1;
      }
      return moved;
    },
    async close() {
      await sim.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
