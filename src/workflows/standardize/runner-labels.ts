/**
 * Runner labels of a pool account (issue 19): an account backed by self-hosted runners (an actions-runner-controller
 * scale set, a labelled fleet) has the hosted Linux images of the standardized workflow mapped to its labels, so its
 * jobs land on its own runners. Applied after standardization, to the entry workflow and its reusable callees alike.
 */
import { isMap, isScalar, isSeq, Scalar, YAMLSeq, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { keyOf, mapAt, pairsOf } from '../nodes.js';
import { parseWorkflow, stringifyWorkflow } from '../parse.js';

/** GitHub's hosted Linux x64 images: what a self-hosted Linux pool stands in for (arm, Windows and macOS stay). */
const HOSTED_LINUX = /^ubuntu-(?:latest|\d{2}\.\d{2})$/;

const labelsNode = (labels: readonly string[]): Scalar | YAMLSeq => {
  if (labels.length === 1) return new Scalar(labels[0]);
  const seq = new YAMLSeq();
  for (const label of labels) seq.add(new Scalar(label));
  return seq;
};

/** Matrix keys `runs-on` reads (`${{ matrix.os }}` → os). */
const matrixKeysOf = (runsOn: unknown): string[] =>
  isScalar(runsOn) && typeof runsOn.value === 'string' ? [...runsOn.value.matchAll(/\bmatrix\.([\w-]+)/g)].map((match) => match[1] ?? '') : [];

/** Replaces hosted Linux labels in `runs-on` (and in the matrix values it reads) by `labels`. */
export function applyRunnerLabelsToJobs(jobs: YAMLMap, labels: readonly string[]): ReportEntry[] {
  const report: ReportEntry[] = [];
  if (labels.length === 0) return report;
  const shown = labels.join(', ');
  for (const pair of pairsOf(jobs)) {
    if (!isMap(pair.value)) continue;
    const job: YAMLMap = pair.value;
    const jobId = keyOf(pair);
    const runsOn = job.get('runs-on', true);
    if (isScalar(runsOn) && typeof runsOn.value === 'string' && HOSTED_LINUX.test(runsOn.value)) {
      report.push({ action: 'rewrote-runner', target: `jobs.${jobId}.runs-on`, reason: `${runsOn.value} runs on the account's self-hosted runners (${shown})` });
      job.set('runs-on', labelsNode(labels));
      continue;
    }
    if (isSeq(runsOn)) {
      const values = runsOn.items.map((item) => (isScalar(item) ? String(item.value) : ''));
      if (values.length > 0 && values.every((value) => HOSTED_LINUX.test(value))) {
        report.push({ action: 'rewrote-runner', target: `jobs.${jobId}.runs-on`, reason: `${values.join(', ')} runs on the account's self-hosted runners (${shown})` });
        job.set('runs-on', labelsNode(labels));
      }
      continue;
    }
    const matrix = mapAt(mapAt(job, 'strategy'), 'matrix');
    if (matrix === undefined) continue;
    for (const key of matrixKeysOf(runsOn)) {
      const replaceIn = (map: YAMLMap, where: string): void => {
        const value = map.get(key, true);
        const items = isSeq(value) ? value.items.map((item, index) => [item, `${where}[${index}]`] as const) : [[value, where] as const];
        items.forEach(([item, path], index) => {
          if (!isScalar(item) || typeof item.value !== 'string' || !HOSTED_LINUX.test(item.value)) return;
          report.push({ action: 'rewrote-runner', target: path, reason: `${item.value} runs on the account's self-hosted runners (${shown})` });
          if (isSeq(value)) value.items[index] = labelsNode(labels);
          else map.set(key, labelsNode(labels));
        });
      };
      replaceIn(matrix, `jobs.${jobId}.strategy.matrix.${key}`);
      const include = matrix.get('include', true);
      if (isSeq(include)) include.items.forEach((entry, index) => { if (isMap(entry)) replaceIn(entry, `jobs.${jobId}.strategy.matrix.include[${index}].${key}`); });
    }
  }
  return report;
}

/** A standardized workflow's text with the account's runner labels applied (unchanged when there are none). */
export function applyRunnerLabels(text: string, path: string, labels: readonly string[]): { text: string; report: ReportEntry[] } {
  if (labels.length === 0) return { text, report: [] };
  const { doc, jobs } = parseWorkflow(text, path);
  const report = applyRunnerLabelsToJobs(jobs, labels);
  return report.length === 0 ? { text, report } : { text: stringifyWorkflow(doc), report };
}
