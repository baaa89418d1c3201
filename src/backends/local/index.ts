import { randomInt } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Logger } from 'pino';
import type { BenchRepoRepository } from '../../db/index.js';
import type { CiEvent, WorkflowJobEvent } from '../../domain/ci-events.js';
import { readExecutorReport, type ExecutorJobReport } from '../../domain/executor-report.js';
import { DEFAULT_SANDBOX_SETTINGS, runWorkflow, type ActionSettings, type JobResult, type SandboxSettings } from '../../executor/index.js';
import { pushCommit, runGit, upstreamUrl } from '../../git/index.js';
import { preflightWorkflow, type BackendCapabilities } from '../../workflows/index.js';
import type { Artifact, CiBackend, JobRef, PublishInput, PublishResult, RunRef } from '../ci-backend.js';
import type { ContainerSettings } from '../../executor/container/index.js';
import { localExecutorCapabilities } from './capabilities.js';
import { killLeftovers, recordProcess, removeWorkFolders } from './leftovers.js';

export { LOCAL_EXECUTOR_CAPABILITIES, localExecutorCapabilities } from './capabilities.js';

export interface LocalBackendOptions {
  dataDir: string;
  benchRepos: BenchRepoRepository;
  logger: Logger;
  maxParallelJobs: number;
  outputCapBytes: number;
  /** Extra environment for every step (tests put tool shims on PATH here). */
  stepEnv?: Record<string, string>;
  hostEnv?: { PATH?: string; HOME?: string; LANG?: string };
  /** The step sandbox (EXECUTOR_SANDBOX, EXECUTOR_NETWORK, limits, hidden paths); the executor's default when absent. */
  sandbox?: SandboxSettings;
  /** The service's secrets, masked in every job log. */
  secretValues?: string[];
  /** Jobs in containers (LOCAL_RUNTIME, LOCAL_RUNNER_IMAGE, LOCAL_NETWORK, …); the host sandbox when absent. */
  container?: ContainerSettings;
  /** Marketplace actions (ACTIONS_BASE_URL, LOCAL_ACTIONS, DATA_DIR/actions): fetched, pinned and cached. */
  actions?: ActionSettings;
  /**
   * What the executor can run; the preflight checks workflows against it. Default: LOCAL_EXECUTOR_CAPABILITIES, with
   * root (sudo) allowed only where the step sandbox is off (localExecutorCapabilities).
   */
  capabilities?: BackendCapabilities;
}

const LOCAL_OWNER = 'local';

/** GitHub-like ids above 2^31 (random in [2^33, 2^53)) so nothing downstream assumes small ids. */
const bigId = (): string => (BigInt(randomInt(2 ** 20, 2 ** 47)) * 64n + BigInt(randomInt(0, 64))).toString();

/**
 * The local CI backend: publishing pushes the commit to a bare repository under DATA_DIR/bench, and the run is
 * performed right away by the project's executor on this host, reporting the same normalized events a GitHub
 * run would. Logs, artifacts and the final job list are kept under DATA_DIR/runs/<run id>/.
 */
export function createLocalBackend(options: LocalBackendOptions): CiBackend {
  const runDir = (runId: string): string => join(options.dataDir, 'runs', runId);
  const workRoot = join(options.dataDir, 'work');
  // Attempt 1 keeps the original names; a re-run after a dead worker gets its own job list and artifacts.
  const jobsFile = (ref: { runId: string; runAttempt: number }): string => join(runDir(ref.runId), ref.runAttempt === 1 ? 'jobs.json' : `jobs-${ref.runAttempt}.json`);
  const artifactsDir = (ref: { runId: string; runAttempt: number }): string => join(runDir(ref.runId), ref.runAttempt === 1 ? 'artifacts' : `artifacts-${ref.runAttempt}`);
  const bareRepo = (owner: string, name: string): string => join(options.dataDir, 'bench', `${owner}--${name}.git`);

  /**
   * The benchmark repository holds, of the upstream, only what its instances need: each instance's base commit with
   * its history and the tags pointing into it, fetched when first needed (so pushes from the partial-clone mirror
   * send only the new objects, and checkouts find every blob). Not the upstream's branches: they would carry the
   * fix commits (`sha_success`) and everything after. Only where the upstream refuses a fetch by commit id does it
   * fall back to a copy of the upstream's branches. Steps never see this repository (a run's `origin` is a view
   * of its own commit: src/executor/source-view.ts).
   */
  async function ensureBare(path: string, upstream: string, baseSha: string): Promise<void> {
    try {
      await stat(join(path, 'HEAD'));
    } catch {
      await mkdir(join(path, '..'), { recursive: true });
      const temporary = `${path}.tmp-${process.pid}-${Date.now()}`;
      await runGit(['init', '--bare', '--quiet', temporary]);
      await rename(temporary, path).catch(async () => rm(temporary, { recursive: true, force: true }));
    }
    const present = async (): Promise<boolean> => (await runGit(['cat-file', '-e', `${baseSha}^{commit}`], { gitDir: path, allowFailure: true })).exitCode === 0;
    if (await present()) return;
    const url = upstreamUrl(upstream);
    const localServer = url.startsWith('file:') ? ['--upload-pack=git -c uploadpack.allowAnySHA1InWant=true upload-pack'] : [];
    await runGit(['fetch', '--quiet', ...localServer, url, `${baseSha}:refs/ci-replay/base/${baseSha}`], { gitDir: path, allowFailure: true });
    if (await present()) return;
    await runGit(['fetch', '--quiet', '--no-tags', url, '+refs/heads/*:refs/ci-replay/upstream/*'], { gitDir: path, allowFailure: true });
  }

  const reportPath = (runId: string, jobId: string): string => join(runDir(runId), 'executor', `${jobId}.json`);

  /** Keeps what the executor observed about a job where the judge reads it (written before the job's completed event). */
  async function keepReport(runId: string, job: JobResult): Promise<void> {
    const report = {
      infraError: job.infraError ?? null,
      timedOut: job.timedOut,
      timedOutSteps: job.timedOutSteps ?? [],
    };
    const path = reportPath(runId, job.id);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(`${path}.tmp`, JSON.stringify(report));
    await rename(`${path}.tmp`, path);
  }

  return {
    name: 'local',

    async preflight(input) {
      const capabilities = options.capabilities ?? (await localExecutorCapabilities(options.sandbox ?? DEFAULT_SANDBOX_SETTINGS, options.actions, options.container));
      return preflightWorkflow({ workflow: input.workflow, callees: input.callees, capabilities });
    },

    async publish(input: PublishInput): Promise<PublishResult> {
      const name = `${input.instance.repoOwner}--${input.instance.repoName}`;
      const path = bareRepo(input.instance.repoOwner, input.instance.repoName);
      await ensureBare(path, input.instance.upstreamUrl, input.instance.shaFail);
      await pushCommit({ gitDir: input.gitDir, remoteUrl: path, commitSha: input.commitSha, branch: input.branch });
      const repo = await options.benchRepos.ensure({
        backend: 'local',
        upstreamOwner: input.instance.repoOwner,
        upstreamName: input.instance.repoName,
        owner: LOCAL_OWNER,
        name,
        mode: 'local',
        actionsEnabled: true,
      });
      return { benchRepoId: repo.id, repoFullName: `${LOCAL_OWNER}/${name}`, headSha: input.commitSha };
    },

    async afterPublish(input, context) {
      const runId = context.attempt?.runId ?? bigId();
      const runAttempt = context.attempt?.runAttempt ?? 1;
      const dir = runDir(runId);
      const path = bareRepo(input.instance.repoOwner, input.instance.repoName);
      await mkdir(dir, { recursive: true });
      const timedOut = (): boolean => context.signal.aborted && context.signal.reason instanceof Error && context.signal.reason.message === 'run timeout';
      const emit = async (event: CiEvent): Promise<void> => {
        if (event.kind === 'workflow_run' && event.status === 'completed' && timedOut()) {
          await context.emit({ ...event, conclusion: 'timed_out' });
          return;
        }
        await context.emit(event);
      };
      const result = await runWorkflow({
        workflow: input.workflow,
        repo: { gitDir: path, fullName: input.repoFullName },
        sha: input.headSha,
        ref: `refs/heads/${input.branch}`,
        runId,
        runAttempt,
        workRoot,
        logsDir: join(dir, 'logs'),
        artifactsDir: artifactsDir({ runId, runAttempt }),
        sourceViewCacheDir: join(options.dataDir, 'views'),
        maxParallelJobs: options.maxParallelJobs,
        outputCapBytes: options.outputCapBytes,
        ...(options.stepEnv !== undefined ? { env: options.stepEnv } : {}),
        ...(options.hostEnv !== undefined ? { hostEnv: options.hostEnv } : {}),
        ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
        ...(options.secretValues !== undefined ? { secretValues: options.secretValues } : {}),
        ...(options.actions !== undefined ? { actions: options.actions } : {}),
        ...(options.container !== undefined ? { container: options.container } : {}),
        signal: context.signal,
        onProcess: (pgid) => recordProcess(dir, runAttempt, pgid),
        nextJobId: bigId,
        onEvent: emit,
        onJobResult: (job) => keepReport(runId, job),
        logger: options.logger.child({ runId }),
      });
      const jobs = result.jobs.map((job) => jobEvent(job, { repoFullName: input.repoFullName, runId, runAttempt, headSha: input.headSha, branch: input.branch }));
      await writeFile(jobsFile({ runId, runAttempt }), JSON.stringify(jobs));
    },

    async abandonRun(ref: RunRef) {
      const killed = await killLeftovers(runDir(ref.runId), ref.runAttempt);
      const removed = await removeWorkFolders(workRoot, ref.runId, ref.runAttempt);
      if (killed + removed > 0) options.logger.info({ runId: ref.runId, runAttempt: ref.runAttempt, killed, removed }, 'abandoned run: leftover step processes killed, work folders removed');
    },

    async listRunJobs(ref: RunRef): Promise<WorkflowJobEvent[]> {
      try {
        return JSON.parse(await readFile(jobsFile(ref), 'utf8')) as WorkflowJobEvent[];
      } catch {
        return [];
      }
    },

    async openJobLog(ref: JobRef) {
      const path = join(runDir(ref.runId), 'logs', `${ref.jobId}.log`);
      try {
        await stat(path);
      } catch {
        return null;
      }
      return createReadStream(path);
    },

    async readExecutorReport(ref: JobRef): Promise<ExecutorJobReport | null> {
      try {
        return readExecutorReport(JSON.parse(await readFile(reportPath(ref.runId, ref.jobId), 'utf8')));
      } catch {
        return null;
      }
    },

    async listArtifacts(ref: RunRef): Promise<Artifact[]> {
      const root = artifactsDir(ref);
      let names: string[];
      try {
        names = await readdir(root);
      } catch {
        return [];
      }
      return names.map((name) => ({
        name,
        open: async () => createReadStream(join(root, name)),
        files: async () => {
          const entries = await readdir(join(root, name), { recursive: true, withFileTypes: true });
          return entries
            .filter((entry) => entry.isFile())
            .map((entry) => {
              const full = join(entry.parentPath, entry.name);
              return { path: relative(join(root, name), full), read: () => readFile(full) };
            });
        },
      }));
    },

    async reportResult() {
      // Nothing to report to: the result is in the database and the API.
    },
  };
}

function jobEvent(job: JobResult, ref: { repoFullName: string; runId: string; runAttempt: number; headSha: string; branch: string }): WorkflowJobEvent {
  return {
    kind: 'workflow_job',
    repoFullName: ref.repoFullName,
    runId: ref.runId,
    runAttempt: ref.runAttempt,
    jobId: job.id,
    headSha: ref.headSha,
    headBranch: ref.branch,
    name: job.name,
    status: 'completed',
    conclusion: job.conclusion,
    startedAt: job.startedAt,
    completedAt: job.completedAt,
    runnerName: job.conclusion === 'skipped' ? null : 'ci-replay-local',
    labels: ['ubuntu-latest'],
    steps: job.steps,
    htmlUrl: null,
  };
}
