/** Job outputs that point at removed steps go, and what reads them (`needs.<job>.outputs.<name>`) reads '' instead. */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { keyOf, mapAt, pairsOf, stringAt, walkStrings } from '../nodes.js';
import { rewriteExpressions } from '../expressions.js';

function presentStepIds(job: YAMLMap): Set<string> {
  const steps = job.get('steps', true);
  return new Set(isSeq(steps) ? steps.items.flatMap((step) => {
    const id = isMap(step) ? stringAt(step, 'id') : undefined;
    return id === undefined ? [] : [id];
  }) : []);
}

function escape(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

/** Removes outputs whose value reads a step that is gone, and replaces their readers' references by ''. */
export function cleanOutputs(jobs: YAMLMap): ReportEntry[] {
  const report: ReportEntry[] = [];
  const removed: Array<{ job: string; output: string }> = [];
  for (const pair of pairsOf(jobs)) {
    const job = isMap(pair.value) ? pair.value : undefined;
    const outputs = job === undefined ? undefined : mapAt(job, 'outputs');
    if (job === undefined || outputs === undefined || job.has('uses')) continue;
    const present = presentStepIds(job);
    const jobId = keyOf(pair);
    for (const output of pairsOf(outputs)) {
      const value = isScalar(output.value) ? String(output.value.value ?? '') : '';
      const missing = [...value.matchAll(/\bsteps\s*\.\s*([\w-]+)\s*\./g)].map((match) => match[1] ?? '').find((id) => !present.has(id));
      if (missing === undefined) continue;
      removed.push({ job: jobId, output: keyOf(output) });
      report.push({ action: 'removed-setting', target: `jobs.${jobId}.outputs.${keyOf(output)}`, reason: `pointed at the removed step \`${missing}\`; readers get ''` });
    }
    outputs.items = outputs.items.filter((item) => !removed.some((entry) => entry.job === jobId && entry.output === keyOf(item as never)));
    if (outputs.items.length === 0) job.delete('outputs');
  }
  if (removed.length === 0) return report;
  const references = removed.map((entry) => new RegExp(String.raw`\bneeds\s*\.\s*${escape(entry.job)}\s*\.\s*outputs\s*\.\s*${escape(entry.output)}\b`, 'g'));
  for (const pair of pairsOf(jobs)) {
    const jobId = keyOf(pair);
    walkStrings(pair.value, `jobs.${jobId}`, ({ scalar, key, path }) => {
      const text = String(scalar.value);
      const condition = key === 'if' && !text.includes('${{');
      const source = condition ? `\${{ ${text} }}` : text;
      const rewritten = rewriteExpressions(source, (inner) => {
        if (references.some((pattern) => new RegExp(String.raw`^\s*${pattern.source}\s*$`).test(inner))) return { literal: '' };
        return references.reduce((current, pattern) => current.replace(pattern, "''"), inner);
      });
      if (rewritten === source) return;
      const value = condition ? rewritten.replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1') : rewritten;
      // A condition left reading only '' never holds.
      scalar.value = key === 'if' && /^\s*(?:''|\$\{\{\s*''\s*\}\})?\s*$/.test(value) ? false : value;
      report.push({ action: 'rewrote-step', target: path, reason: 'reads an output that pointed at a removed step; reads \'\' instead' });
    });
  }
  return report;
}
