/** Facts about jobs and steps the job filter decides with: labels for the report, path filters, aggregators. */
import { isMap, isSeq, type YAMLMap } from 'yaml';
import { keyOf, nodeText, pairsOf, stringAt } from '../nodes.js';
import { actionName, publishWordInName } from '../classify/index.js';

export function jobLabel(job: YAMLMap, id: string): string {
  const name = stringAt(job, 'name');
  return name === undefined ? id : `${id} ("${name}")`;
}

export function stepLabel(step: YAMLMap): string {
  const name = stringAt(step, 'name');
  const uses = stringAt(step, 'uses');
  if (name !== undefined) return `"${name}"`;
  if (uses !== undefined) return uses;
  const run = (stringAt(step, 'run') ?? '').trim().split('\n')[0] ?? '';
  return `\`${run.length > 60 ? `${run.slice(0, 57)}...` : run}\``;
}

export function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

export const KEEP_UPLOAD = /junit|test-results|test-reports|pytest|\.xml\b/i;

const PATH_FILTER_ACTIONS = /^(?:dorny\/paths-filter|tj-actions\/changed-files|step-security\/changed-files|ana06\/get-changed-files|jitterbit\/get-changed-files)$/;

/**
 * A step whose outputs say which paths changed: a path-filter action, or a script that greps the changed files
 * (`git diff --name-only … | grep -q …`) and writes a flag to GITHUB_OUTPUT. Guards on its outputs are path filters.
 */
export function isPathFilterStep(step: YAMLMap): boolean {
  if (PATH_FILTER_ACTIONS.test(actionName(stringAt(step, 'uses') ?? ''))) return true;
  const run = stringAt(step, 'run');
  return run !== undefined && /\bgit\s+diff\b[^\n|]*--name-(?:only|status)\b[^\n]*\|\s*grep\s+(?:-\w*q|--quiet)/.test(run) && /\bGITHUB_OUTPUT\b|::set-output\b/.test(run);
}

export function pathFilterJobs(jobs: YAMLMap): Set<string> {
  const found = new Set<string>();
  for (const pair of pairsOf(jobs)) {
    const steps = isMap(pair.value) ? pair.value.get('steps', true) : undefined;
    if (isSeq(steps) && steps.items.some((step) => isMap(step) && isPathFilterStep(step))) found.add(keyOf(pair));
  }
  return found;
}

export function consumesArtifacts(jobs: YAMLMap): boolean {
  return pairsOf(jobs).some((pair) => {
    const job = isMap(pair.value) ? pair.value : undefined;
    return job !== undefined && publishWordInName(keyOf(pair), stringAt(job, 'name')) === undefined && /actions\/download-artifact/i.test(nodeText(job));
  });
}

export function isAggregator(job: YAMLMap): boolean {
  return /re-actors\/alls-green|needs\.\*\.result|toJSON\(\s*needs\s*\)|join\(\s*needs\.\*/i.test(nodeText(job));
}
