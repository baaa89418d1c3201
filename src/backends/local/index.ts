import { randomInt } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Logger } from 'pino';
import type { BenchRepoRepository } from '../../db/index.js';
import type { CiEvent, WorkflowJobEvent } from '../../domain/ci-events.js';
import { runWorkflow, type JobResult, type SandboxSettings } from '../../executor/index.js';
import { pushCommit, runGit, upstreamUrl } from '../../git/index.js';
import { preflightWorkflow, type BackendCapabilities } from '../../workflows/index.js';
import type { Artifact, CiBackend, JobRef, PublishInput, PublishResult, RunRef } from '../ci-backend.js';
import { LOCAL_EXECUTOR_CAPABILITIES } from './capabilities.js';

export { LOCAL_EXECUTOR_CAPABILITIES } from './capabilities.js';

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
  /** What the executor can run (default: LOCAL_EXECUTOR_CAPABILITIES); the preflight checks workflows against it. */
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
  const bareRepo = (owner: string, name: string): string => join(options.dataDir, 'bench', `${owner}--${name}.git`);

  /**
   * The benchmark repository starts as a full copy of the upstream (as a fork would), so pushes from the
   * partial-clone mirror send only the new objects and checkouts find every blob; the instance's base commit is
   * fetched into it when the upstream's branches do not reach it.
   */
  async function ensureBare(path: string, upstream: string, baseSha: string): Promise<void> {
    try {
      await stat(join(path, 'HEAD'));
    } catch {
      await mkdir(join(path, '..'), { recursive: true });
      const temporary = `${path}.tmp-${process.pid}-${Date.now()}`;
      const cloned = await runGit(['clone', '--bare', '--quiet', '--no-tags', upstreamUrl(upstream), temporary], { allowFailure: true });
      if (cloned.exitCode !== 0) await runGit(['init', '--bare', '--quiet', temporary]);
      await rename(temporary, path).catch(async () => rm(temporary, { recursive: true, force: true }));
    }
    const present = await runGit(['cat-file', '-e', `${baseSha}^{commit}`], { gitDir: path, allowFailure: true });
    if (present.exitCode === 0) return;
    const url = upstreamUrl(upstream);
    const localServer = url.startsWith('file:') ? ['--upload-pack=git -c uploadpack.allowAnySHA1InWant=true upload-pack'] : [];
    await runGit(['fetch', '--quiet', '--no-tags', ...localServer, url, `${baseSha}:refs/ci-replay/base/${baseSha}`], { gitDir: path, allowFailure: true });
  }

  return {
    name: 'local',

    async preflight(input) {
      return preflightWorkflow({ workflow: input.workflow, callees: input.callees, capabilities: options.capabilities ?? LOCAL_EXECUTOR_CAPABILITIES });
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
      const runId = bigId();
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
        runAttempt: 1,
        workRoot: join(options.dataDir, 'work'),
        logsDir: join(dir, 'logs'),
        artifactsDir: join(dir, 'artifacts'),
        maxParallelJobs: options.maxParallelJobs,
        outputCapBytes: options.outputCapBytes,
        ...(options.stepEnv !== undefined ? { env: options.stepEnv } : {}),
        ...(options.hostEnv !== undefined ? { hostEnv: options.hostEnv } : {}),
        ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
        ...(options.secretValues !== undefined ? { secretValues: options.secretValues } : {}),
        signal: context.signal,
        nextJobId: bigId,
        onEvent: emit,
        logger: options.logger.child({ runId }),
      });
      const jobs = result.jobs.map((job) => jobEvent(job, { repoFullName: input.repoFullName, runId, headSha: input.headSha, branch: input.branch }));
      await writeFile(join(dir, 'jobs.json'), JSON.stringify(jobs));
    },

    async listRunJobs(ref: RunRef): Promise<WorkflowJobEvent[]> {
      try {
        return JSON.parse(await readFile(join(runDir(ref.runId), 'jobs.json'), 'utf8')) as WorkflowJobEvent[];
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

    async listArtifacts(ref: RunRef): Promise<Artifact[]> {
      const root = join(runDir(ref.runId), 'artifacts');
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

function jobEvent(job: JobResult, ref: { repoFullName: string; runId: string; headSha: string; branch: string }): WorkflowJobEvent {
  return {
    kind: 'workflow_job',
    repoFullName: ref.repoFullName,
    runId: ref.runId,
    runAttempt: 1,
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
