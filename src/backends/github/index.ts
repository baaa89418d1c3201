import { Readable } from 'node:stream';
import { unzipSync } from 'fflate';
import type { Logger } from 'pino';
import type { BenchRepoRepository } from '../../db/index.js';
import type { WorkflowJobEvent } from '../../domain/ci-events.js';
import { isAppError, transient } from '../../errors.js';
import { pushCommit } from '../../git/index.js';
import type { GithubApp, InstallationClient } from '../../github/index.js';
import { jobEventFromApi } from '../../pipeline/github-payloads.js';
import type { Artifact, CancelRef, CiBackend, JobRef, PublishInput, PublishResult, ResultReport, RunRef } from '../ci-backend.js';
import { ensureBenchRepo, type BenchRepoContext } from './bench-repo.js';
import { completeCheckRun, ensureCheckRun, findCheckRun, findCheckRuns } from './check-run.js';
import { githubPreflight } from './preflight.js';

export { benchRepoName, ensureBenchRepo, type BenchRepoContext, type Upstream } from './bench-repo.js';
export { CHECK_NAME, RERUN_ACTION } from './check-run.js';

export interface GithubBackendOptions {
  github: GithubApp;
  benchRepos: BenchRepoRepository;
  logger: Logger;
  benchOwner: string;
  mode: 'fork' | 'mirror';
  /** Git over HTTPS base (config.github.gitUrl): `<gitUrl>/<owner>/<repo>.git`. */
  gitUrl: string;
  /** The service's public URL (check run details_url → `<publicUrl>/v1/submissions/<id>`). */
  publicUrl: string;
  forkWaitMs?: number;
  syncTtlMs?: number;
}

const split = (fullName: string): { owner: string; repo: string } => {
  const [owner = '', repo = ''] = fullName.split('/');
  return { owner, repo };
};

const isNotFound = (error: unknown): boolean => isAppError(error) && (error.code === 'github_not_found' || error.status === 410);

function toBuffer(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return Buffer.from(JSON.stringify(data ?? ''), 'utf8');
}

/**
 * The GitHub CI backend: publishing pushes the prepared commit to `ci-replay/...` in the benchmark repository
 * (installation token through the git credential helper, never in the URL) and creates the queued `ci-replay`
 * check run; outcomes arrive by webhook (and the reconciler). REST calls on the happy path: GET + POST check run,
 * list the run's jobs, PATCH the check run (+1 log download per failed job).
 */
export function createGithubBackend(options: GithubBackendOptions): CiBackend {
  const repoContext: BenchRepoContext = {
    github: options.github,
    benchRepos: options.benchRepos,
    benchOwner: options.benchOwner,
    mode: options.mode,
    logger: options.logger,
    ...(options.forkWaitMs !== undefined ? { forkWaitMs: options.forkWaitMs } : {}),
    ...(options.syncTtlMs !== undefined ? { syncTtlMs: options.syncTtlMs } : {}),
  };
  // The installation of the account a benchmark repository lives on (a pool account, or BENCH_OWNER).
  const client = (owner: string = options.benchOwner): Promise<InstallationClient> => options.github.installationFor(owner);

  return {
    name: 'github',

    async preflight(input) {
      return githubPreflight(repoContext, input);
    },

    async publish(input: PublishInput): Promise<PublishResult> {
      const context = input.account === undefined ? repoContext : { ...repoContext, benchOwner: input.account };
      const repo = await ensureBenchRepo(context, { owner: input.instance.repoOwner, name: input.instance.repoName });
      const installation = await client(repo.owner);
      // Creates the branch only if absent; a no-op when it is already at this commit.
      await pushCommit({
        gitDir: input.gitDir,
        remoteUrl: `${options.gitUrl}/${repo.owner}/${repo.name}.git`,
        commitSha: input.commitSha,
        branch: input.branch,
        credentials: { username: 'x-access-token', password: await installation.token() },
      });
      const checkRunId = await ensureCheckRun(installation, {
        owner: repo.owner,
        repo: repo.name,
        headSha: input.commitSha,
        externalId: input.submissionId,
        detailsUrl: `${options.publicUrl}/v1/submissions/${input.submissionId}`,
        // Always looked up first: a publish repeated by a takeover may follow one that got as far as its check run
        // even though this push created the branch (one GET more per publish).
        lookupFirst: true,
      });
      return { benchRepoId: repo.id, repoFullName: `${repo.owner}/${repo.name}`, headSha: input.commitSha, checkRunId: BigInt(checkRunId) };
    },

    async afterPublish() {
      // Events arrive by webhook; the reconciler covers lost ones.
    },

    async cancelSubmission(ref: CancelRef) {
      const repo = await options.benchRepos.find('github', ref.upstream.owner, ref.upstream.name);
      if (repo === null) return;
      const installation = await client(repo.owner);
      const target = { owner: repo.owner, repo: repo.name };
      // Every run of the commit: a submission's commit is its own (the branch and the commit carry its id).
      const runs = await installation.paginate<{ id: number; status: string }>('GET /repos/{owner}/{repo}/actions/runs', { ...target, head_sha: ref.headSha });
      for (const run of runs.filter((found) => found.status !== 'completed')) {
        await installation.request('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', { ...target, run_id: run.id }).catch((error: unknown) => {
          // 409: the run finished meanwhile; nothing left to stop.
          if (!isAppError(error) || error.status !== 409) throw error;
        });
      }
      // The recorded check run, and any other one of this submission still open on the commit (a publish repeated
      // by a worker that lost its lease mid-push may have created a second one).
      const open = (await findCheckRuns(installation, { ...target, headSha: ref.headSha, externalId: ref.submissionId })).filter((check) => check.status !== 'completed').map((check) => check.id);
      const ids = new Set(ref.checkRunId === null ? open : [Number(ref.checkRunId), ...open]);
      for (const checkRunId of ids) {
        await completeCheckRun(installation, checkRunId, {
          submissionId: ref.submissionId,
          repoFullName: `${repo.owner}/${repo.name}`,
          headSha: ref.headSha,
          checkRunId: BigInt(checkRunId),
          verdict: 'invalid',
          conclusion: 'cancelled',
          summary: `## ci-replay: cancelled\n\nSubmission [\`${ref.submissionId}\`](${options.publicUrl}/v1/submissions/${ref.submissionId}) was cancelled; its workflow runs were cancelled.`,
          annotations: [],
        });
      }
    },

    async listRunJobs(ref: RunRef): Promise<WorkflowJobEvent[]> {
      const { owner, repo } = split(ref.repoFullName);
      const jobs = await (await client(owner)).paginate<Record<string, unknown>>('GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs', {
        owner,
        repo,
        run_id: ref.runId,
        attempt_number: ref.runAttempt,
      });
      return jobs.map((job) => jobEventFromApi(ref.repoFullName, job));
    },

    async openJobLog(ref: JobRef) {
      const { owner, repo } = split(ref.repoFullName);
      try {
        const response = await (await client(owner)).request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { owner, repo, job_id: ref.jobId });
        const body = toBuffer(response.data);
        // Right after a job completes its log can still be empty: retry later rather than archive nothing.
        if (body.length === 0) throw transient('log_not_ready', `the log of job ${ref.jobId} is not available yet`);
        return Readable.from([body]);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async listArtifacts(ref: RunRef): Promise<Artifact[]> {
      const { owner, repo } = split(ref.repoFullName);
      const installation = await client(owner);
      const artifacts = await installation.paginate<{ id: number; name: string; expired?: boolean }>('GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', { owner, repo, run_id: ref.runId });
      return artifacts
        .filter((artifact) => artifact.expired !== true)
        .map((artifact) => {
          let zip: Promise<Buffer> | undefined;
          const download = (): Promise<Buffer> => {
            zip ??= installation
              .request('GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', { owner, repo, artifact_id: artifact.id, archive_format: 'zip' })
              .then((response) => toBuffer(response.data));
            return zip;
          };
          return {
            name: artifact.name,
            open: async () => Readable.from([await download()]),
            files: async () => {
              const entries = unzipSync(new Uint8Array(await download()));
              return Object.entries(entries)
                .filter(([path]) => !path.endsWith('/'))
                .map(([path, bytes]) => ({ path, read: async () => Buffer.from(bytes) }));
            },
          };
        });
    },

    async reportResult(report: ResultReport) {
      const { owner, repo } = split(report.repoFullName);
      const installation = await client(owner);
      let checkRunId = report.checkRunId === null ? null : Number(report.checkRunId);
      checkRunId ??= await findCheckRun(installation, { owner, repo, headSha: report.headSha, externalId: report.submissionId });
      checkRunId ??= await ensureCheckRun(installation, {
        owner,
        repo,
        headSha: report.headSha,
        externalId: report.submissionId,
        detailsUrl: `${options.publicUrl}/v1/submissions/${report.submissionId}`,
        lookupFirst: false,
      });
      await completeCheckRun(installation, checkRunId, report);
    },
  };
}
