/** Workflow-wide settings: read-only permissions, a concurrency group, job timeouts, dependency pinning. */
import { isMap, type Document, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { insertPair, insertPairAfter, keyOf, mapAt, nodeText, pairsOf } from '../nodes.js';

const BEFORE_BODY = ['env', 'defaults', 'jobs'];

export interface SettingsOptions {
  timeoutMinutes: number;
  /** Whether to set the workflow's concurrency group (never in a reusable workflow: it would share the caller's group). */
  concurrency: boolean;
}

export function applySettings(doc: Document, root: YAMLMap, jobs: YAMLMap, options: SettingsOptions): ReportEntry[] {
  const { timeoutMinutes } = options;
  const report: ReportEntry[] = [];
  const permissions = { contents: 'read' };
  const previous = root.get('permissions', true);
  if (nodeText(previous) !== JSON.stringify(permissions)) {
    const was = previous === undefined ? 'unset' : nodeText(previous);
    if (previous === undefined) insertPair(root, 'permissions', permissions, BEFORE_BODY, doc);
    else root.set('permissions', doc.createNode(permissions));
    report.push({ action: 'added-setting', target: 'permissions', reason: `contents: read (was ${was})` });
  }
  const concurrency = { group: 'ci-replay-${{ github.ref }}', 'cancel-in-progress': false };
  const previousConcurrency = root.get('concurrency', true);
  if (options.concurrency && nodeText(previousConcurrency) !== JSON.stringify(concurrency)) {
    const was = previousConcurrency === undefined ? 'unset' : nodeText(previousConcurrency);
    if (previousConcurrency === undefined) insertPair(root, 'concurrency', concurrency, BEFORE_BODY, doc);
    else root.set('concurrency', doc.createNode(concurrency));
    report.push({ action: 'added-setting', target: 'concurrency', reason: `one replay per ref, never cancelled (was ${was})` });
  }
  if (!options.concurrency && previousConcurrency !== undefined) {
    root.delete('concurrency');
    report.push({ action: 'removed-setting', target: 'concurrency', reason: `${nodeText(previousConcurrency)} removed: in a reusable workflow it shares the caller's group` });
  }
  for (const pair of pairsOf(jobs)) {
    if (!isMap(pair.value)) continue;
    const job: YAMLMap = pair.value;
    const jobId = keyOf(pair);
    if (job.has('permissions')) {
      const was = nodeText(job.get('permissions', true));
      job.delete('permissions');
      report.push({ action: 'removed-setting', target: `jobs.${jobId}.permissions`, reason: `job-level permissions ${was} removed; the workflow's contents: read applies` });
    }
    if (job.has('environment')) {
      const was = nodeText(job.get('environment', true));
      job.delete('environment');
      report.push({
        action: 'removed-setting',
        target: `jobs.${jobId}.environment`,
        reason: `deployment environment ${was} removed: it would create a deployment and may wait for approval`,
      });
    }
    if (job.has('uses') || job.has('timeout-minutes')) continue;
    insertPairAfter(job, 'timeout-minutes', timeoutMinutes, ['runs-on'], doc);
    report.push({ action: 'added-setting', target: `jobs.${jobId}.timeout-minutes`, reason: `${timeoutMinutes} (the job had no timeout)` });
  }
  return report;
}

export interface PinOptions {
  pinDate?: Date | undefined;
  indexUrl?: string | undefined;
}

/** The timestamp format both pip (`--uploaded-prior-to`) and uv (`--exclude-newer`) accept. */
export function pinTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function pinDependencies(doc: Document, root: YAMLMap, options: PinOptions): ReportEntry[] {
  const values: Array<[string, string]> = [];
  if (options.pinDate !== undefined) {
    const stamp = pinTimestamp(options.pinDate);
    values.push(['UV_EXCLUDE_NEWER', stamp], ['PIP_UPLOADED_PRIOR_TO', stamp]);
  }
  if (options.indexUrl !== undefined) values.push(['PIP_INDEX_URL', options.indexUrl], ['UV_INDEX_URL', options.indexUrl]);
  if (values.length === 0) return [];
  let env = mapAt(root, 'env');
  const current = root.get('env', true);
  if (env === undefined && current !== undefined && nodeText(current) !== 'null') {
    // A workflow `env` that is not a map (an expression, or a stray scalar): a second `env` key would make the
    // file invalid YAML, and replacing it would drop what it sets.
    return [{ action: 'pinned-dependencies', target: 'env', reason: `not pinned: the workflow's env is ${nodeText(current)}, not a map of variables` }];
  }
  if (env === undefined) {
    if (current === undefined) insertPair(root, 'env', {}, ['defaults', 'jobs'], doc);
    else root.set('env', doc.createNode({}));
    env = mapAt(root, 'env');
  }
  const report: ReportEntry[] = [];
  for (const [key, value] of values) {
    const overridden = env?.has(key) === true ? ` (replaced ${nodeText(env?.get(key, true))})` : '';
    env?.set(key, value);
    report.push({ action: 'pinned-dependencies', target: `env.${key}`, reason: `${value}${overridden}` });
  }
  return report;
}
