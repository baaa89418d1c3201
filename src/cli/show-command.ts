import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { isLearnedLabel, labelTypeText, segmentLogs, type SegmentLogInput, type SegmentLogsResult } from '../classify/index.js';
import type { Deps } from '../deps.js';
import { invalidInput, notFound } from '../errors.js';
import { latestRun } from '../pipeline/finalize.js';
import { upstreamOf } from '../pipeline/prepare.js';
import { withDeps, type Io } from './context.js';
import { outcomeColour, terminalOf, type Style } from './style.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const budgetOf = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 1_000_000) throw new InvalidArgumentError('must be an integer from 0 (no segments) to 1000000');
  return parsed;
};

/** Everything known about one submission, as `show --json` prints it. */
export interface SubmissionDetail {
  submission: {
    id: string;
    instanceId: string;
    runId: string | null;
    kind: string;
    state: string;
    verdict: string | null;
    outcome: string | null;
    reason: string | null;
    reasonDetails: unknown;
    errorMessage: string | null;
    observedLabels: string[];
    revertedFiles: string[];
    headSha: string | null;
    branch: string | null;
    createdAt: string;
    completedAt: string | null;
  };
  links: { api: string; dashboard: string; checkRun: string | null; githubRuns: string[] };
  runs: {
    runId: string;
    attempt: number;
    status: string;
    conclusion: string | null;
    outcome: string | null;
    outcomeReason: string | null;
    htmlUrl: string | null;
    jobs: {
      name: string;
      status: string;
      conclusion: string | null;
      outcome: string | null;
      outcomeReason: string | null;
      failedStep: string | null;
      failingSteps: string[];
      errorTypes: { type: string; tool: string | null; stepName: string | null; evidence: unknown }[];
    }[];
  }[];
  standardization: { markdown: string | null; record: unknown };
  logSegments: SegmentLogsResult | null;
}

/** Loads a submission's outcome, jobs, error types with evidence, standardization report, links and log segments. */
export async function loadSubmissionDetail(deps: Deps, id: string, budget: number): Promise<SubmissionDetail> {
  if (!UUID.test(id)) throw invalidInput('invalid_submission_id', `${id} is not a submission id (UUID)`);
  const submission = await deps.repos.submissions.getSummary(id);
  if (submission === null) throw notFound('submission', id);
  const ciRuns = await deps.repos.ci.runsOf(id);
  const runs = await Promise.all(
    ciRuns.map(async (run) => ({
      row: run,
      jobs: await deps.repos.ci.jobsOfRun(run.id),
    })),
  );
  let logSegments: SegmentLogsResult | null = null;
  const latest = latestRun(ciRuns);
  if (budget > 0 && latest !== undefined) {
    const logs: SegmentLogInput[] = [];
    const failing = (runs.find((run) => run.row.id === latest.id)?.jobs ?? []).filter((job) => job.conclusion === 'failure' && job.log !== null);
    failing.sort((a, b) => (b.completedAt?.getTime() ?? 0) - (a.completedAt?.getTime() ?? 0));
    for (const job of failing) {
      const stream = await deps.logStore.open(job.log!.storageKey);
      if (stream !== null) logs.push({ jobName: job.name, stream });
    }
    if (logs.length > 0) logSegments = await segmentLogs({ logs, budgetTokens: budget });
  }
  const repoUrl = await benchRepoUrl(deps, submission.instanceId, runs.map((run) => run.row.htmlUrl));
  const standardization = (submission.standardization ?? null) as { markdown?: unknown } | null;
  return {
    submission: {
      id: submission.id,
      instanceId: submission.instanceId,
      runId: submission.runId,
      kind: submission.kind,
      state: submission.state,
      verdict: submission.verdict,
      outcome: submission.outcome,
      reason: submission.reason,
      reasonDetails: submission.reasonDetails ?? null,
      errorMessage: submission.errorMessage,
      observedLabels: submission.observedLabels,
      revertedFiles: submission.revertedFiles,
      headSha: submission.headSha,
      branch: submission.branch,
      createdAt: submission.createdAt.toISOString(),
      completedAt: submission.completedAt?.toISOString() ?? null,
    },
    links: {
      api: `${deps.config.publicUrl}/v1/submissions/${id}`,
      dashboard: `${deps.config.publicUrl}/ui/#/submissions/${id}`,
      checkRun: submission.checkRunId === null || repoUrl === null ? null : `${repoUrl}/runs/${submission.checkRunId.toString()}`,
      githubRuns: runs.map((run) => run.row.htmlUrl).filter((url): url is string => url !== null && /^https?:\/\//.test(url)),
    },
    runs: runs.map(({ row, jobs }) => ({
      runId: row.githubRunId.toString(),
      attempt: row.runAttempt,
      status: row.status,
      conclusion: row.conclusion,
      outcome: row.outcome,
      outcomeReason: row.outcomeReason,
      htmlUrl: row.htmlUrl,
      jobs: jobs.map((job) => ({
        name: job.name,
        status: job.status,
        conclusion: job.conclusion,
        outcome: job.outcome,
        outcomeReason: job.outcomeReason,
        failedStep: job.failedStep,
        failingSteps: job.steps.filter((step) => step.conclusion === 'failure').map((step) => step.name),
        errorTypes: job.failureLabels.map((label) => ({ type: label.type, learned: isLearnedLabel(label), tool: label.tool, stepName: label.stepName, evidence: label.evidence })),
      })),
    })),
    standardization: { markdown: typeof standardization?.markdown === 'string' ? standardization.markdown : null, record: standardization },
    logSegments,
  };
}

/** The benchmark repository's web URL (GitHub backend): from a run's URL, else from the bench_repos row. */
async function benchRepoUrl(deps: Deps, instanceId: string, runUrls: (string | null)[]): Promise<string | null> {
  for (const url of runUrls) {
    const match = url === null ? null : /^(https?:\/\/.+?\/[^/]+\/[^/]+)\/actions\/runs\//.exec(url);
    if (match?.[1] !== undefined) return match[1];
  }
  if (deps.config.github === undefined) return null;
  const instance = await deps.repos.instances.get(instanceId);
  if (instance === null) return null;
  const upstream = upstreamOf(instance);
  const repo = await deps.repos.benchRepos.find('github', upstream.owner, upstream.name);
  return repo === null ? null : `${deps.config.github.gitUrl}/${repo.owner}/${repo.name}`;
}

const evidenceLines = (evidence: unknown): string[] =>
  (Array.isArray(evidence) ? evidence : evidence === null || evidence === undefined ? [] : [evidence]).slice(0, 5).map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));

export function renderSubmissionDetail(detail: SubmissionDetail, style: Style): string[] {
  const { submission: s, links } = detail;
  const outcome = s.outcome ?? s.state;
  const lines = [
    `${style.bold(`submission ${s.id}`)} (${s.kind}) instance ${s.instanceId}${s.runId === null ? '' : ` run ${s.runId}`}`,
    `state ${s.state}; outcome ${outcomeColour(style, s.outcome)(outcome)}${s.verdict === null ? '' : ` (verdict ${s.verdict})`}${s.reason === null ? '' : `; reason ${s.reason}`}`,
  ];
  if (s.errorMessage !== null) lines.push(`error: ${s.errorMessage}`);
  if (s.observedLabels.length > 0) lines.push(`error types: ${s.observedLabels.join(', ')}`);
  if (s.revertedFiles.length > 0) lines.push(`reverted (protected paths): ${s.revertedFiles.join(', ')}`);
  lines.push('', 'Links:', `  API        ${links.api}`, `  dashboard  ${links.dashboard}`);
  if (links.checkRun !== null) lines.push(`  check run  ${links.checkRun}`);
  for (const url of links.githubRuns) lines.push(`  CI run     ${url}`);
  for (const run of detail.runs) {
    lines.push('', `CI run ${run.runId} attempt ${run.attempt}: ${run.status}${run.outcome === null ? '' : ` → ${outcomeColour(style, run.outcome)(run.outcome)}`}${run.outcomeReason === null ? '' : ` (${run.outcomeReason})`}`);
    for (const job of run.jobs) {
      lines.push(`  job ${job.name}: ${outcomeColour(style, job.outcome)(job.outcome ?? job.conclusion ?? job.status)}${job.outcomeReason === null ? '' : ` (${job.outcomeReason})`}`);
      if (job.failingSteps.length > 0) lines.push(`    failing steps: ${job.failingSteps.join(', ')}`);
      for (const label of job.errorTypes) {
        lines.push(`    ${style.red(labelTypeText(label))}${label.tool === null ? '' : ` (${label.tool})`}${label.stepName === null ? '' : ` in step ${label.stepName}`}`);
        for (const line of evidenceLines(label.evidence)) lines.push(`      ${style.dim(line)}`);
      }
    }
  }
  if (detail.runs.length === 0) lines.push('', 'No CI run recorded yet.');
  if (detail.standardization.markdown !== null) lines.push('', 'Standardization report:', detail.standardization.markdown.trimEnd());
  if (detail.logSegments !== null && detail.logSegments.segments.length > 0) {
    lines.push('', `Log segments (${detail.logSegments.totalTokens} tokens${detail.logSegments.truncated ? ', truncated to the budget' : ''}):`);
    for (const segment of detail.logSegments.segments) {
      lines.push(style.bold(`--- ${segment.jobName}${segment.stepName === undefined ? '' : ` / ${segment.stepName}`} lines ${segment.startLine}-${segment.endLine}`), segment.text.trimEnd());
    }
  }
  return lines;
}

/** `ci-replay show <submission>`. */
export function registerShowCommand(program: Command, io: Io): void {
  program
    .command('show')
    .description('one submission: outcome and reason, CI runs and jobs, failing steps, error types with evidence, standardization report, links, log segments')
    .argument('<submission>', 'submission id')
    .option('--budget <tokens>', 'token budget of the log segments (0: none)', budgetOf, 2000)
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExamples:\n  ci-replay show 3f1c…-uuid\n  ci-replay show 3f1c…-uuid --budget 0 --json | jq .submission.outcome\n\nExit codes: 0 shown, 2 not a submission id or no such submission.')
    .action(async (id: string, options: { budget: number; json?: boolean }) => {
      await withDeps(async (deps) => {
        const detail = await loadSubmissionDetail(deps, id, options.budget);
        if (options.json === true) {
          io.out(JSON.stringify(detail, null, 2));
          return;
        }
        io.out(renderSubmissionDetail(detail, terminalOf(deps.config.noColor).style).join('\n'));
      });
    });
}
