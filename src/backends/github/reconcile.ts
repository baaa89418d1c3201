import type { Logger } from 'pino';
import type { Repositories } from '../../db/index.js';
import type { GithubApp } from '../../github/index.js';
import type { PipelineDeps } from '../../pipeline/context.js';
import { eventFromWebhook } from '../../pipeline/github-payloads.js';
import { handleCiEvent } from '../../pipeline/handle-event.js';
import { reconcileSubmission } from '../../pipeline/reconcile.js';

/** Failed deliveries can be redelivered for 3 days. */
const REDELIVERY_WINDOW_MS = 3 * 24 * 3_600_000;

interface DeliveryItem {
  id: number;
  guid: string;
  delivered_at: string;
  status_code: number;
  redelivery: boolean;
}

/**
 * Asks GitHub to redeliver webhook deliveries that failed (non-2xx, timeouts) and that this service never
 * recorded, newest first, going back to `since` (default: the 3-day redelivery window). One request per GUID.
 * Returns the number of redeliveries requested.
 */
export async function redeliverFailedDeliveries(deps: { github: GithubApp; repos: Pick<Repositories, 'deliveries'>; logger: Logger }, options: { since?: Date; maxPages?: number } = {}): Promise<number> {
  const since = Math.max(options.since?.getTime() ?? 0, Date.now() - REDELIVERY_WINDOW_MS);
  const seen = new Set<string>();
  const failed = new Map<string, number>();
  let cursor: string | undefined;
  for (let page = 0; page < (options.maxPages ?? 10); page += 1) {
    const response = await deps.github.app.request<DeliveryItem[]>('GET /app/hook/deliveries', { per_page: 100, ...(cursor !== undefined ? { cursor } : {}) });
    let older = false;
    for (const item of response.data) {
      if (new Date(item.delivered_at).getTime() < since) {
        older = true;
        continue;
      }
      const ok = item.status_code >= 200 && item.status_code < 300;
      if (ok) seen.add(item.guid);
      else if (!failed.has(item.guid)) failed.set(item.guid, item.id);
    }
    const next = /<([^>]+)>;\s*rel="next"/.exec(String(response.headers.link ?? ''))?.[1];
    cursor = next === undefined ? undefined : (new URL(next).searchParams.get('cursor') ?? undefined);
    if (older || cursor === undefined) break;
  }
  let requested = 0;
  for (const [guid, id] of failed) {
    if (seen.has(guid) || (await deps.repos.deliveries.exists(guid))) continue;
    await deps.github.app.request('POST /app/hook/deliveries/{delivery_id}/attempts', { delivery_id: id });
    requested += 1;
  }
  if (requested > 0) deps.logger.info({ requested }, 'failed webhook deliveries redelivered');
  return requested;
}

/**
 * For a submission still `published` or `running`: fetch its runs by head SHA from the API and apply them as
 * events through the same handler as webhooks (a completed run queues finalize), then apply the generic
 * reconciliation (no_run after the grace period, finalize missed runs, timeouts).
 */
export async function reconcileGithubSubmission(deps: PipelineDeps & { github: GithubApp; benchOwner: string }, submissionId: string, logger: Logger): Promise<void> {
  const submission = await deps.repos.submissions.getSummary(submissionId);
  if (submission === null || (submission.state !== 'published' && submission.state !== 'running') || submission.headSha === null || submission.benchRepoId === null) return;
  const repo = (await deps.repos.ci.runsOf(submissionId))[0]?.repoFullName ?? (await benchRepoFullName(deps, submission.instanceId));
  if (repo !== null) {
    const [owner = '', name = ''] = repo.split('/');
    // The installation of the account the benchmark repository lives on (a pool account, or BENCH_OWNER).
    const client = await deps.github.installationFor(owner === '' ? deps.benchOwner : owner);
    const runs = await client.paginate<Record<string, unknown>>('GET /repos/{owner}/{repo}/actions/runs', { owner, repo: name, head_sha: submission.headSha });
    for (const run of runs) {
      const event = eventFromWebhook('workflow_run', { repository: { full_name: repo }, workflow_run: run });
      if (event !== null) await handleCiEvent(deps, event, logger.child({ submissionId, source: 'reconcile' }));
    }
    if (await neverStarted(deps, submissionId, runs)) {
      for (const run of runs) {
        await client.request('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', { owner, repo: name, run_id: run.id }).catch(() => undefined);
      }
      logger.warn({ submissionId, runs: runs.length }, 'the workflow run never started within the grace period');
    }
  }
  if ((await deps.repos.submissions.getSummary(submissionId))?.state === submission.state) await reconcileSubmission(deps, submissionId, logger);
  const after = await deps.repos.submissions.getSummary(submissionId);
  if (repo !== null && after !== null && (after.state === 'no_run' || after.state === 'timed_out')) {
    // Without a finalize the check run would stay queued (stale after 14 days): close it as neutral.
    await deps.backend.reportResult({
      submissionId,
      repoFullName: repo,
      headSha: submission.headSha,
      checkRunId: after.checkRunId,
      verdict: 'invalid',
      summary: `## ci-replay: ${after.state === 'no_run' ? 'no run' : 'timed out'}\n\n${after.errorMessage ?? ''}\n\nSubmission [\`${submissionId}\`](${deps.config.publicUrl}/v1/submissions/${submissionId}).`,
      annotations: [],
    });
  }
}

const NOT_STARTED = new Set(['requested', 'queued', 'waiting', 'pending']);

/**
 * A submission still `published` past the grace period whose runs all sit queued (no runner ever picked them
 * up) ends as `no_run`, like one that got no run at all; the queued runs are cancelled (best effort).
 */
async function neverStarted(deps: PipelineDeps, submissionId: string, runs: Record<string, unknown>[]): Promise<boolean> {
  if (runs.length === 0 || !runs.every((run) => NOT_STARTED.has(String(run.status)))) return false;
  const submission = await deps.repos.submissions.getSummary(submissionId);
  if (submission?.state !== 'published') return false;
  const grace = deps.config.pipeline.noRunGraceSeconds;
  if (Date.now() - (submission.publishedAt?.getTime() ?? 0) < grace * 1000) return false;
  return deps.repos.submissions.transition(submissionId, ['published'], 'no_run', {
    verdict: 'invalid',
    reason: 'no_run',
    errorMessage: `the workflow run was queued but never started within ${grace} s of publishing`,
    completedAt: new Date(),
  });
}

/** The benchmark repository a submission was published to (through its instance's upstream). */
async function benchRepoFullName(deps: Pick<PipelineDeps, 'repos'>, instanceId: string): Promise<string | null> {
  const instance = await deps.repos.instances.get(instanceId);
  if (instance === null) return null;
  const repo = await deps.repos.benchRepos.find('github', instance.repoOwner, instance.repoName);
  return repo === null ? null : `${repo.owner}/${repo.name}`;
}
