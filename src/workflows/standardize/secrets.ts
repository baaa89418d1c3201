/** Replaces uses of secrets: references become '' or fixed dummy credentials (steps that need them went with the job filter). */
import { isMap, isSeq, Scalar, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { keyOf, mapAt, nodeText, pairsOf, walkStrings } from '../nodes.js';
import { replaceSecrets, secretNames } from '../expressions.js';

/** The position a step had in the original workflow. */
export type StepIndex = (step: unknown, fallback: number) => number;

/** The value given to secrets that feed service containers, and to the same secrets wherever the job uses them. */
export const DUMMY_CREDENTIAL = 'ci_replay';

function replaceIn(node: unknown, path: string, value: (name: string) => string, report: ReportEntry[]): void {
  walkStrings(node, path, ({ scalar, path: where, key }) => {
    const text = String(scalar.value);
    const condition = key === 'if' && !text.includes('${{');
    const source = condition ? `\${{ ${text} }}` : text;
    const names = secretNames(source);
    if (names.length === 0) return;
    const replaced = replaceSecrets(source, value);
    scalar.value = condition ? replaced.replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1') : replaced;
    if (scalar.value === '' && scalar.type === Scalar.PLAIN) scalar.type = Scalar.QUOTE_SINGLE;
    for (const name of names) {
      const shown = value(name) === '' ? "''" : `the fixed dummy value '${value(name)}'`;
      report.push({ action: 'replaced-secret', target: where, reason: `secrets.${name} replaced by ${shown}` });
    }
  });
}

function serviceSecrets(job: YAMLMap, jobId: string, report: ReportEntry[]): Set<string> {
  const names = new Set<string>();
  const containers: Array<[string, unknown]> = pairsOf(mapAt(job, 'services')).map((pair) => [`services.${keyOf(pair)}`, pair.value]);
  containers.push(['container', job.get('container', true)]);
  for (const [where, node] of containers) {
    const service = isMap(node) ? node : undefined;
    if (service === undefined) continue;
    if (service.has('credentials') && secretNames(nodeText(service.get('credentials', true))).length > 0) {
      service.delete('credentials');
      report.push({
        action: 'replaced-secret',
        target: `jobs.${jobId}.${where}.credentials`,
        reason: 'registry credentials from secrets removed; the image is pulled anonymously',
      });
    }
    if (!where.startsWith('services.')) continue;
    for (const name of secretNames(nodeText(service))) names.add(name);
  }
  return names;
}

/** Handles secrets in the kept jobs and the workflow env; returns the report entries. */
export function removeSecrets(root: YAMLMap, jobs: YAMLMap, stepIndex: StepIndex): ReportEntry[] {
  const report: ReportEntry[] = [];
  const dummies = new Set<string>();
  const perJob = new Map<string, Set<string>>();
  for (const pair of pairsOf(jobs)) {
    if (!isMap(pair.value)) continue;
    const names = serviceSecrets(pair.value, keyOf(pair), report);
    perJob.set(keyOf(pair), names);
    for (const name of names) dummies.add(name);
  }
  const workflowValue = (name: string): string => (dummies.has(name) ? DUMMY_CREDENTIAL : '');
  for (const key of ['env', 'defaults']) replaceIn(root.get(key, true), key, workflowValue, report);
  for (const pair of pairsOf(jobs)) {
    if (!isMap(pair.value)) continue;
    const job: YAMLMap = pair.value;
    const jobId = keyOf(pair);
    const local = perJob.get(jobId) ?? new Set<string>();
    const value = (name: string): string => (local.has(name) ? DUMMY_CREDENTIAL : '');
    for (const entry of pairsOf(job)) {
      const key = keyOf(entry);
      if (key === 'steps' && isSeq(entry.value)) {
        entry.value.items.forEach((step, index) => replaceIn(step, `jobs.${jobId}.steps[${stepIndex(step, index)}]`, value, report));
      } else {
        replaceIn(entry.value, `jobs.${jobId}.${key}`, value, report);
      }
    }
  }
  return report;
}
