import { api } from '../api.js';
import { badge, h, table, when } from '../dom.js';

interface Submission {
  id: string;
  instanceId: string;
  runId: string | null;
  kind: string;
  state: string;
  verdict: string | null;
  outcome: string | null;
  reason: string | null;
  error: string | null;
  branch: string | null;
  headSha: string | null;
  checkRunId: string | null;
  revertedFiles: string[] | null;
  observedLabels: string[];
  standardization: unknown;
  timestamps: Record<string, string | null>;
}
interface Jobs {
  runs: {
    runId: string;
    attempt: number;
    status: string;
    conclusion: string | null;
    outcome: string | null;
    htmlUrl: string | null;
    jobs: {
      jobId: string;
      name: string;
      conclusion: string | null;
      outcome: string | null;
      outcomeReason: string | null;
      failedStep: string | null;
      steps: { number: number; name: string; conclusion: string | null }[];
      labels: { type: string; tool: string | null; stepName: string | null; evidence: unknown }[];
    }[];
  }[];
}
interface Segments {
  segments: { jobName: string; stepName?: string; startLine: number; endLine: number; text: string }[];
  truncated: boolean;
}

/** Evidence as stored: line ranges with the lines' text; shown as `lines a–b: text`. */
function evidenceText(evidence: unknown): string {
  if (!Array.isArray(evidence)) return '';
  return evidence
    .map((item: { startLine?: number; endLine?: number; line?: number; text?: string; excerpt?: string }) => {
      const start = item.startLine ?? item.line;
      const range = start === undefined ? '' : item.endLine !== undefined && item.endLine !== start ? `lines ${start}–${item.endLine}: ` : `line ${start}: `;
      return `${range}${item.text ?? item.excerpt ?? ''}`.trim();
    })
    .filter((line) => line !== '')
    .join('\n');
}

/** The check run on GitHub: the workflow run's repository page + /runs/<check run id>. */
function checkRunUrl(htmlUrl: string | null, checkRunId: string | null): string | null {
  if (htmlUrl === null || checkRunId === null) return null;
  const match = /^(https?:\/\/[^/]+\/[^/]+\/[^/]+)\/actions\/runs\//.exec(htmlUrl);
  return match === null ? null : `${match[1]}/runs/${checkRunId}`;
}

/** One submission: outcome and reason, jobs and steps, error types with evidence, log segments, standardization, links. */
export async function submissionPage(id: string): Promise<HTMLElement> {
  const submission = await api<Submission>(`/v1/submissions/${encodeURIComponent(id)}`);
  const [jobs, segments] = await Promise.all([
    api<Jobs>(`/v1/submissions/${encodeURIComponent(id)}/jobs`).catch(() => ({ runs: [] }) as Jobs),
    api<Segments>(`/v1/submissions/${encodeURIComponent(id)}/logs/segments?budget=3000`).catch(() => ({ segments: [], truncated: false }) as Segments),
  ]);
  const latest = jobs.runs[jobs.runs.length - 1];
  const checkRun = checkRunUrl(latest?.htmlUrl ?? null, submission.checkRunId);
  const standardization = submission.standardization === null || submission.standardization === undefined ? null : JSON.stringify(submission.standardization, null, 2);
  return h(
    'section',
    { 'aria-labelledby': 'submission-title' },
    h('h1', { id: 'submission-title' }, `Submission ${submission.id.slice(0, 8)} · instance ${submission.instanceId}`),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Outcome'),
      h('dd', {}, badge(submission.outcome ?? submission.state), submission.reason === null ? '' : ` ${submission.reason}`),
      h('dt', {}, 'State'),
      h('dd', {}, submission.state),
      h('dt', {}, 'Kind'),
      h('dd', {}, submission.kind),
      submission.runId === null ? null : [h('dt', {}, 'Run'), h('dd', {}, h('a', { href: `#/runs/${submission.runId}` }, submission.runId))],
      h('dt', {}, 'Branch'),
      h('dd', {}, h('code', {}, submission.branch ?? '–')),
      h('dt', {}, 'Head commit'),
      h('dd', {}, h('code', {}, submission.headSha ?? '–')),
      h('dt', {}, 'Observed error types'),
      h('dd', {}, submission.observedLabels.length === 0 ? 'none' : submission.observedLabels.join(', ')),
      h('dt', {}, 'Reverted files'),
      h('dd', {}, (submission.revertedFiles ?? []).length === 0 ? 'none' : (submission.revertedFiles ?? []).join(', ')),
      h('dt', {}, 'Created / completed'),
      h('dd', {}, `${when(submission.timestamps.created)} / ${when(submission.timestamps.completed)}`),
      submission.error === null ? null : [h('dt', {}, 'Error'), h('dd', {}, submission.error)],
      h('dt', {}, 'Links'),
      h(
        'dd',
        { class: 'links' },
        latest?.htmlUrl ? h('a', { href: latest.htmlUrl, rel: 'noreferrer' }, `Workflow run ${latest.runId} (attempt ${latest.attempt})`) : 'no workflow run yet',
        checkRun === null ? (submission.checkRunId === null ? null : ` · check run ${submission.checkRunId}`) : [' · ', h('a', { href: checkRun, rel: 'noreferrer' }, `Check run ${submission.checkRunId}`)],
        ' · ',
        h('a', { href: `/v1/submissions/${submission.id}` }, 'JSON'),
      ),
    ),
    h('h2', {}, 'Jobs'),
    jobs.runs.length === 0
      ? h('p', {}, 'No workflow run recorded yet.')
      : jobs.runs.map((run) =>
          h(
            'section',
            { class: 'attempt', 'aria-label': `Workflow run ${run.runId} attempt ${run.attempt}` },
            h('h3', {}, `Workflow run ${run.runId}, attempt ${run.attempt}: `, badge(run.outcome ?? run.conclusion ?? run.status)),
            run.jobs.map((job) =>
              h(
                'details',
                { class: 'job', open: job.conclusion === 'failure' },
                h('summary', {}, `${job.name} `, badge(job.outcome ?? job.conclusion ?? 'pending'), job.failedStep === null ? '' : ` failed step: ${job.failedStep}`),
                table(`Steps of ${job.name}`, ['#', 'Step', 'Conclusion'], job.steps.map((step) => [String(step.number), step.name, step.conclusion ?? '–'])),
                job.labels.length === 0
                  ? null
                  : table(
                      `Error types of ${job.name}`,
                      ['Type', 'Tool', 'Step', 'Evidence'],
                      job.labels.map((label) => [label.type, label.tool ?? '–', label.stepName ?? '–', h('pre', {}, evidenceText(label.evidence))]),
                    ),
              ),
            ),
          ),
        ),
    h('h2', {}, 'Log segments'),
    segments.segments.length === 0
      ? h('p', {}, 'No failing job logs.')
      : segments.segments.map((segment) =>
          h('figure', { class: 'segment' }, h('figcaption', {}, `${segment.jobName}${segment.stepName ? ` · ${segment.stepName}` : ''} · lines ${segment.startLine}–${segment.endLine}`), h('pre', { tabindex: 0 }, segment.text)),
        ),
    segments.truncated ? h('p', { class: 'muted' }, 'Segments were cut to a 3000-token budget.') : null,
    h('h2', {}, 'Standardization report'),
    standardization === null ? h('p', {}, 'Not standardized yet.') : h('pre', { class: 'json', tabindex: 0 }, standardization),
  );
}
