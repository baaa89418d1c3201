/** Steps that read the outputs of a removed step cannot work: they go too. */
import { isMap, isSeq, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { keyOf, nodeText, pairsOf, stringAt } from '../nodes.js';

/** The step ids of every job, before anything is removed. */
export function stepIds(jobs: YAMLMap): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const pair of pairsOf(jobs)) {
    const steps = isMap(pair.value) ? pair.value.get('steps', true) : undefined;
    const found = new Set<string>();
    if (isSeq(steps)) {
      for (const step of steps.items) {
        const id = isMap(step) ? stringAt(step, 'id') : undefined;
        if (id !== undefined) found.add(id);
      }
    }
    ids.set(keyOf(pair), found);
  }
  return ids;
}

function referencesStep(text: string, id: string): boolean {
  const escaped = id.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(String.raw`\bsteps\s*\.\s*${escaped}\s*\.|\bsteps\s*\[\s*'${escaped}'\s*\]`).test(text);
}

export function dropOrphanedSteps(
  jobs: YAMLMap,
  originalIds: ReadonlyMap<string, ReadonlySet<string>>,
  stepIndex: (step: unknown, fallback: number) => number,
): ReportEntry[] {
  const report: ReportEntry[] = [];
  for (const pair of pairsOf(jobs)) {
    const steps = isMap(pair.value) ? pair.value.get('steps', true) : undefined;
    if (!isSeq(steps)) continue;
    const jobId = keyOf(pair);
    const present = new Set(steps.items.flatMap((step) => {
      const id = isMap(step) ? stringAt(step, 'id') : undefined;
      return id === undefined ? [] : [id];
    }));
    const missing = new Set([...(originalIds.get(jobId) ?? [])].filter((id) => !present.has(id)));
    if (missing.size === 0) continue;
    steps.items = steps.items.filter((step, index) => {
      const text = nodeText(step);
      const orphanOf = [...missing].find((id) => referencesStep(text, id));
      if (orphanOf === undefined) return true;
      const ownId = isMap(step) ? stringAt(step, 'id') : undefined;
      if (ownId !== undefined) missing.add(ownId);
      const name = isMap(step) ? stringAt(step, 'name') : undefined;
      const label = name === undefined ? (isMap(step) ? stringAt(step, 'uses') : undefined) ?? 'step' : `"${name}"`;
      report.push({ action: 'removed-step', target: `jobs.${jobId}.steps[${stepIndex(step, index)}]`, reason: `${label} reads the outputs of the removed step \`${orphanOf}\`` });
      return false;
    });
  }
  return report;
}
