/** Decides which jobs and steps stay: validation stays; publishing, deployment and the like go. */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { keyOf, mapAt, nodeText, pairsOf, stringAt, stringList } from '../nodes.js';
import {
  actionName, classifyStep, isLiveServiceJobName, isModelOrCloudSecret, isNonValidating, publishWordInName, stripPublishingCommands,
  unavailableRunner,
} from '../classify.js';
import { analyzeGuard, describeRemoved, type GuardContext } from '../guards.js';
import { secretNames } from '../expressions.js';
import { article, consumesArtifacts, isAggregator, jobLabel, KEEP_UPLOAD, pathFilterJobs, stepLabel } from './job-facts.js';

type Drop = { strength: 'hard' | 'soft'; reason: string };

interface JobState {
  id: string;
  node: YAMLMap;
  drop: Drop | undefined;
  /** Step-level entries, reported only if the job stays. */
  pending: ReportEntry[];
  needs: string[];
  aggregator: boolean;
}

/** Filters steps of one job in place; returns the reason to drop the whole job, if any. */
function filterSteps(state: JobState, guards: GuardContext, keepUploads: boolean): Drop | undefined {
  const steps = state.node.get('steps', true);
  if (!isSeq(steps)) return undefined;
  const kept: unknown[] = [];
  const removedKinds: string[] = [];
  steps.items.forEach((item, index) => {
    const target = `jobs.${state.id}.steps[${index}]`;
    if (!isMap(item)) {
      kept.push(item);
      return;
    }
    const step: YAMLMap = item;
    const guardEntries: ReportEntry[] = [];
    const condition = stringAt(step, 'if');
    if (condition !== undefined) {
      const decision = analyzeGuard(condition, guards);
      if (decision.kind === 'drop') {
        state.pending.push({ action: 'removed-step', target, reason: `${stepLabel(step)} ${decision.reason}` });
        removedKinds.push(decision.reason);
        return;
      }
      if (decision.kind === 'rewrite') {
        if (decision.condition === undefined) step.delete('if');
        else step.set('if', decision.condition);
        guardEntries.push({
          action: 'rewrote-guard',
          target: `${target}.if`,
          reason: `${stepLabel(step)}: removed ${describeRemoved(decision.removed)}`,
        });
      }
    }
    const uses = stringAt(step, 'uses');
    const facts = { uses, run: stringAt(step, 'run'), name: stringAt(step, 'name') };
    const kind = classifyStep(facts);
    if (uses !== undefined && actionName(uses) === 'docker/build-push-action') {
      const withMap = mapAt(step, 'with');
      const push = withMap?.get('push');
      if (withMap !== undefined && push !== undefined && push !== false && push !== 'false') {
        withMap.set('push', false);
        guardEntries.push({ action: 'rewrote-step', target: `${target}.with.push`, reason: `${stepLabel(step)} builds the image without pushing it (push: false)` });
      }
      const outputs = withMap?.get('outputs');
      if (withMap !== undefined && typeof outputs === 'string' && /\bpush=true\b/.test(outputs)) {
        withMap.set('outputs', outputs.replaceAll(/\bpush=true\b/g, 'push=false'));
        guardEntries.push({ action: 'rewrote-step', target: `${target}.with.outputs`, reason: `${stepLabel(step)} builds the image without pushing it (push=false)` });
      }
    }
    if (kind.purpose === 'cloud-credentials') {
      state.drop = { strength: 'hard', reason: `cannot run without real credentials: ${stepLabel(step)} ${kind.detail}` };
    }
    const run = stringAt(step, 'run');
    const stripped = isNonValidating(kind.purpose) && run !== undefined ? stripPublishingCommands(run) : undefined;
    if (stripped !== undefined) {
      step.set('run', stripped.run);
      state.pending.push(...guardEntries);
      state.pending.push({
        action: 'rewrote-step',
        target: `${target}.run`,
        reason: `${stepLabel(step)} mixes build and publish: removed ${stripped.removed} command${stripped.removed === 1 ? '' : 's'} (${kind.detail}), kept the rest`,
      });
      kept.push(step);
      return;
    }
    const uploadKept = kind.purpose === 'artifact-upload' && (keepUploads || KEEP_UPLOAD.test(nodeText(step.get('with', true))));
    if (isNonValidating(kind.purpose) || (kind.purpose === 'artifact-upload' && !uploadKept)) {
      const detail = kind.purpose === 'artifact-upload' ? `${kind.detail} that no kept job downloads` : kind.detail;
      state.pending.push({ action: 'removed-step', target, reason: `${stepLabel(step)} ${detail}` });
      removedKinds.push(detail);
      return;
    }
    state.pending.push(...guardEntries);
    kept.push(step);
  });
  steps.items = kept;
  if (kept.length === 0) {
    return { strength: 'soft', reason: removedKinds.length > 0 ? `no steps left after removing: ${removedKinds.join('; ')}` : 'has no steps' };
  }
  const hasWork = kept.some((item) => isMap(item) && classifyStep({ uses: stringAt(item, 'uses'), run: stringAt(item, 'run') }).purpose !== 'setup');
  if (!hasWork && removedKinds.length > 0) {
    return { strength: 'soft', reason: `only setup steps left after removing: ${removedKinds.join('; ')}` };
  }
  return undefined;
}

function assessJob(state: JobState, guards: GuardContext, keepUploads: boolean): void {
  const job = state.node;
  const condition = stringAt(job, 'if');
  if (condition !== undefined) {
    const decision = analyzeGuard(condition, guards);
    if (decision.kind === 'drop') {
      state.drop = { strength: 'hard', reason: decision.reason };
      return;
    }
    if (decision.kind === 'rewrite') {
      if (decision.condition === undefined) job.delete('if');
      else job.set('if', decision.condition);
      state.pending.push({ action: 'rewrote-guard', target: `jobs.${state.id}.if`, reason: `removed ${describeRemoved(decision.removed)}` });
    }
  }
  const runsOn = job.get('runs-on', true);
  const runner = unavailableRunner(stringList(runsOn));
  if (runner !== undefined || (isMap(runsOn) && runsOn.has('group'))) {
    state.drop = { strength: 'hard', reason: `runs on a self-hosted or GPU runner (${stringList(runsOn).join(', ')}) that a benchmark copy does not have` };
    return;
  }
  const liveSecrets = secretNames(nodeText(job)).filter(isModelOrCloudSecret);
  if (liveSecrets.length > 0 && isLiveServiceJobName(state.id, stringAt(job, 'name'))) {
    state.drop = { strength: 'hard', reason: `cannot run without real credentials (${liveSecrets.map((name) => `secrets.${name}`).join(', ')})` };
    return;
  }
  const reusable = stringAt(job, 'uses');
  if (reusable !== undefined) {
    const word = reusable.startsWith('./') ? undefined : publishWordInName(state.id, stringAt(job, 'name'), reusable.split('@')[0]);
    if (word !== undefined) state.drop = { strength: 'soft', reason: `calls ${article(word)} ${word} workflow (${reusable})` };
    return;
  }
  const word = publishWordInName(state.id, stringAt(job, 'name'));
  const stepDrop = filterSteps(state, guards, keepUploads);
  if (state.drop !== undefined) return;
  if (word !== undefined) {
    state.drop = { strength: 'soft', reason: `is ${article(word)} ${word} job, not a validation job` };
    return;
  }
  if (stepDrop !== undefined) state.drop = stepDrop;
}

/** Removes non-validating jobs and steps in place; returns the report entries and the kept job ids. */
export function filterJobs(jobs: YAMLMap): { report: ReportEntry[]; kept: string[] } {
  const report: ReportEntry[] = [];
  const guards: GuardContext = { pathFilterJobs: pathFilterJobs(jobs) };
  const keepUploads = consumesArtifacts(jobs);
  const states: JobState[] = pairsOf(jobs).flatMap((pair) => {
    if (!isMap(pair.value)) return [];
    const node: YAMLMap = pair.value;
    return [{ id: keyOf(pair), node, drop: undefined, pending: [], needs: stringList(node.get('needs', true)), aggregator: isAggregator(node) }];
  });
  for (const state of states) assessJob(state, guards, keepUploads);
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
          state.drop = { strength: 'hard', reason: `needs ${need}, which was removed` };
        }
        changed = true;
        break;
      }
    }
  }
  for (const state of states) {
    if (state.drop === undefined) continue;
    report.push({ action: 'removed-job', target: `jobs.${state.id}`, reason: `${jobLabel(state.node, state.id)} ${state.drop.reason}` });
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
      report.push({ action: 'removed-job', target: `jobs.${state.id}`, reason: `${jobLabel(state.node, state.id)} aggregates only jobs that were removed` });
    }
  }
  return { report, kept: states.filter((state) => !dropped.has(state.id)).map((state) => state.id) };
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
