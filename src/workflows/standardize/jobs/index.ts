/** Decides which jobs and steps stay: validation stays; publishing, deployment, upstream-only and secret-bound work goes. */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../../types.js';
import { keyOf, mapAt, nodeText, pairsOf, stringAt, stringList } from '../../nodes.js';
import { secretNames } from '../../expressions.js';
import { consumesArtifacts, isAggregator, jobLabel, KEEP_UPLOAD, pathFilterJobs, stepLabel } from '../job-facts.js';
import { actionName } from '../../classify/index.js';
import { assessJob } from './decide.js';
import type { JobsContext, JobState } from './state.js';

export type { CalleeVerdict, JobsContext } from './state.js';

/** Secrets that feed a job's service containers: they get a fixed dummy value, so they are not missing secrets. */
export function serviceSecretNames(job: YAMLMap): Set<string> {
  const names = new Set<string>();
  for (const pair of pairsOf(mapAt(job, 'services'))) {
    const service = isMap(pair.value) ? pair.value : undefined;
    if (service === undefined) continue;
    const copy = service.clone() as YAMLMap;
    copy.delete('credentials');
    for (const name of secretNames(nodeText(copy))) names.add(name);
  }
  return names;
}

function stepIdsOf(job: YAMLMap): Set<string> {
  const steps = job.get('steps', true);
  return new Set(isSeq(steps) ? steps.items.flatMap((step) => {
    const id = isMap(step) ? stringAt(step, 'id') : undefined;
    return id === undefined ? [] : [id];
  }) : []);
}

export interface FilterOptions extends Omit<JobsContext, 'guards' | 'keepUploads'> {
  jobs: YAMLMap;
}

/** Removes non-validating jobs and steps in place; returns the report entries and the kept job ids. */
export function filterJobs(options: FilterOptions): { report: ReportEntry[]; kept: string[] } {
  const { jobs } = options;
  const ctx: JobsContext = { ...options, guards: { pathFilterJobs: pathFilterJobs(jobs) }, keepUploads: consumesArtifacts(jobs) };
  const report: ReportEntry[] = [];
  const states: JobState[] = pairsOf(jobs).flatMap((pair) => {
    if (!isMap(pair.value)) return [];
    const node: YAMLMap = pair.value;
    return [{
      id: keyOf(pair), node, drop: undefined, pending: [], needs: stringList(node.get('needs', true)), aggregator: isAggregator(node),
      removals: [], upstreamGuard: undefined, pullRequestOnly: false, credentialSteps: [],
    }];
  });
  for (const state of states) assessJob(state, ctx, serviceSecretNames(state.node), stepIdsOf(state.node));
  const byId = new Map(states.map((state) => [state.id, state]));
  const restored = new Map<string, string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const state of states) {
      if (state.drop !== undefined || state.aggregator) continue;
      for (const need of state.needs) {
        const needed = byId.get(need);
        if (needed?.drop === undefined) continue;
        if (needed.drop.strength === 'soft') {
          restored.set(needed.id, `${needed.drop.reason}, but kept because ${state.id} needs it`);
          needed.drop = undefined;
        } else {
          state.drop = { strength: 'hard', rule: 'needs-removed-job', reason: `needs ${need}, which was removed`, evidence: `needs: ${need}` };
        }
        changed = true;
        break;
      }
    }
  }
  for (const state of states) {
    if (state.drop === undefined) continue;
    report.push({
      action: 'removed-job',
      target: `jobs.${state.id}`,
      reason: `${jobLabel(state.node, state.id)} ${state.drop.reason}`,
      rule: state.drop.rule,
      evidence: state.drop.evidence,
    });
    jobs.delete(state.id);
  }
  const dropped = new Set(states.filter((state) => state.drop !== undefined).map((state) => state.id));
  for (const state of states) {
    if (state.drop !== undefined) continue;
    const note = restored.get(state.id);
    if (note !== undefined) report.push({ action: 'kept-job', target: `jobs.${state.id}`, reason: note });
    report.push(...state.pending);
    const trimmed = state.needs.filter((need) => dropped.has(need));
    if (trimmed.length === 0) continue;
    trimNeeds(state, dropped);
    report.push({ action: 'trimmed-needs', target: `jobs.${state.id}.needs`, reason: `removed ${trimmed.join(', ')} (jobs that were removed) from the jobs it aggregates` });
  }
  for (const state of states) {
    if (state.drop !== undefined || !state.aggregator || state.needs.length === 0) continue;
    if (state.needs.every((need) => dropped.has(need))) {
      jobs.delete(state.id);
      dropped.add(state.id);
      report.push({
        action: 'removed-job',
        target: `jobs.${state.id}`,
        reason: `${jobLabel(state.node, state.id)} aggregates only jobs that were removed`,
        rule: 'aggregates-nothing',
        evidence: `needs: ${state.needs.join(', ')}`,
      });
    }
  }
  if (ctx.keepUploads && !consumesArtifacts(jobs)) report.push(...dropUnreadUploads(states.filter((state) => !dropped.has(state.id)), ctx));
  return { report, kept: states.filter((state) => !dropped.has(state.id)).map((state) => state.id) };
}

/** Artifact uploads were kept for a job that downloads them; that job is gone, so nothing reads them. */
function dropUnreadUploads(states: readonly JobState[], ctx: JobsContext): ReportEntry[] {
  const report: ReportEntry[] = [];
  for (const state of states) {
    const steps = state.node.get('steps', true);
    if (!isSeq(steps)) continue;
    steps.items = steps.items.filter((step, index) => {
      if (!isMap(step) || actionName(stringAt(step, 'uses') ?? '') !== 'actions/upload-artifact' || KEEP_UPLOAD.test(nodeText(step.get('with', true)))) return true;
      report.push({
        action: 'removed-step',
        target: `jobs.${state.id}.steps[${ctx.stepIndex(step, index)}]`,
        reason: `${stepLabel(step)} publishes an artifact that no kept job downloads`,
        rule: 'artifact-upload',
        evidence: 'actions/upload-artifact',
      });
      return false;
    });
  }
  return report;
}

function trimNeeds(state: JobState, dropped: ReadonlySet<string>): void {
  const needs = state.node.get('needs', true);
  if (isSeq(needs)) {
    needs.items = needs.items.filter((item) => !(isScalar(item) && dropped.has(String(item.value))));
  } else if (isScalar(needs) && dropped.has(String(needs.value))) {
    state.node.delete('needs');
  }
  const steps = state.node.get('steps', true);
  if (!isSeq(steps)) return;
  for (const step of steps.items) {
    const withMap = isMap(step) ? mapAt(step, 'with') : undefined;
    for (const key of ['allowed-skips', 'allowed-failures']) {
      const value = withMap?.get(key, true);
      if (!isScalar(value) || typeof value.value !== 'string' || value.value.includes('${{')) continue;
      const names = value.value.split(/[\s,]+/).filter((name) => name !== '');
      const remaining = names.filter((name) => !dropped.has(name));
      if (remaining.length === names.length) continue;
      if (remaining.length === 0) withMap?.delete(key);
      else value.value = remaining.join(', ');
    }
  }
}
