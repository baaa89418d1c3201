import { isAppError } from '../../errors.js';
import type { InstallationClient } from '../../github/index.js';
import type { ResultReport } from '../ci-backend.js';

export const CHECK_NAME = 'ci-replay';
export const RERUN_ACTION = { label: 'Re-run', description: 'Run this submission again', identifier: 'rerun' } as const;
const ANNOTATION_BATCH = 50;

interface CheckRunRef {
  owner: string;
  repo: string;
  headSha: string;
  externalId: string;
}

/** Finds the check run this service created for a submission (by external_id on the commit). */
export async function findCheckRun(client: InstallationClient, ref: CheckRunRef): Promise<number | null> {
  return (await findCheckRuns(client, ref))[0]?.id ?? null;
}

/** Every check run this service created for a submission on the commit (by external_id), oldest first. */
export async function findCheckRuns(client: InstallationClient, ref: CheckRunRef): Promise<{ id: number; status: string }[]> {
  const runs = await client.paginate<{ id: number; status: string; external_id: string | null }>('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {
    owner: ref.owner,
    repo: ref.repo,
    ref: ref.headSha,
    check_name: CHECK_NAME,
    filter: 'all',
  });
  return runs.filter((run) => run.external_id === ref.externalId).sort((a, b) => a.id - b.id);
}

/**
 * Creates the `ci-replay` check run (queued) once per submission. The POST is never retried blindly: when it
 * fails ambiguously (5xx, network), or when this is a repeated publish, the check run is looked up by
 * external_id first and created only if absent.
 */
export async function ensureCheckRun(client: InstallationClient, ref: CheckRunRef & { detailsUrl: string; lookupFirst: boolean }): Promise<number> {
  if (ref.lookupFirst) {
    const found = await findCheckRun(client, ref);
    if (found !== null) return found;
  }
  const create = async (): Promise<number> =>
    (
      await client.request<{ id: number }>('POST /repos/{owner}/{repo}/check-runs', {
        owner: ref.owner,
        repo: ref.repo,
        name: CHECK_NAME,
        head_sha: ref.headSha,
        status: 'queued',
        external_id: ref.externalId,
        details_url: ref.detailsUrl,
        output: { title: 'ci-replay: queued', summary: `Submission \`${ref.externalId}\` is waiting for its workflow run.` },
      })
    ).data.id;
  try {
    return await create();
  } catch (error) {
    if (!isAppError(error) || error.kind !== 'transient') throw error;
    const found = await findCheckRun(client, ref);
    if (found !== null) return found;
    return create();
  }
}

const CONCLUSION = { passed: 'success', failed: 'failure', invalid: 'neutral' } as const;

/** Completes the check run: verdict, summary, a Re-run button, and annotations in batches of 50. */
export async function completeCheckRun(client: InstallationClient, checkRunId: number, report: ResultReport): Promise<void> {
  const [owner = '', repo = ''] = report.repoFullName.split('/');
  const title = `ci-replay: ${report.conclusion ?? report.verdict}`;
  const annotations = report.annotations
    .filter((annotation) => annotation.path !== '' && annotation.line > 0)
    .map((annotation) => ({
      path: annotation.path,
      start_line: annotation.line,
      end_line: annotation.line,
      annotation_level: annotation.level,
      message: annotation.message.slice(0, 64_000),
      ...(annotation.title !== undefined ? { title: annotation.title.slice(0, 255) } : {}),
    }));
  const batches: (typeof annotations)[] = [];
  for (let index = 0; index < annotations.length; index += ANNOTATION_BATCH) batches.push(annotations.slice(index, index + ANNOTATION_BATCH));
  const complete = (first: typeof annotations | undefined) =>
    client.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
      owner,
      repo,
      check_run_id: checkRunId,
      status: 'completed',
      conclusion: report.conclusion ?? CONCLUSION[report.verdict],
      completed_at: new Date().toISOString(),
      output: { title, summary: report.summary, ...(first !== undefined ? { annotations: first } : {}) },
      actions: [RERUN_ACTION],
    });
  try {
    await complete(batches[0]);
  } catch (error) {
    // Annotations GitHub refuses (422: a path or line it does not accept) must not leave the check run open.
    if (batches.length === 0 || !isAppError(error) || error.kind !== 'invalid_input') throw error;
    await complete(undefined);
    return;
  }
  for (const batch of batches.slice(1)) {
    await client.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { owner, repo, check_run_id: checkRunId, output: { title, summary: report.summary, annotations: batch } }).catch((error: unknown) => {
      if (!isAppError(error) || error.kind !== 'invalid_input') throw error;
    });
  }
}
