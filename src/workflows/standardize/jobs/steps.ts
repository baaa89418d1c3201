/** Step-level rules: guards, what each step does, where its secrets flow, what it reads from a pull request. */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import {
  actionName, BUILD_PUSH_ACTIONS, classifyStep, isModelOrCloudSecret, isNonValidating, isPublishingSecret, REMOVED_COMMAND,
  stripPublishingCommands, WRAPPER_ACTIONS, type StepClass,
} from '../../classify/index.js';
import { analyzeGuard, describeRemoved, isUpstreamClause } from '../../guards.js';
import { splitTopLevel, stripOuterParens, unwrapCondition } from '../../expressions.js';
import { mapAt, nodeText, stringAt } from '../../nodes.js';
import type { RemovalRule, ReportEntry } from '../../types.js';
import { isPathFilterStep, KEEP_UPLOAD, stepLabel } from '../job-facts.js';
import { credentialInUrl, secretEnv, secretUses, type SecretUse } from './secret-flow.js';
import { ruleOfGuardDrop, ruleOfPurpose, type JobsContext, type JobState } from './state.js';

const PUBLISHING_STEP = /upload|publish|deploy|push|notify|release|comment|slack|discord/i;
/** Pull request data a push does not have (`github.event.pull_request.base.sha`, `GITHUB_BASE_REF`...). */
const PULL_REQUEST_DATA = /(github\.event\.pull_request\.(?:base|head)\.(?:sha|ref)|github\.base_ref|\bGITHUB_BASE_REF\b|github\.event\.(?:pull_request\.)?number)(?!\s*\|\|)/;
/** Guards that run a step only where secrets are available (a same-repository pull request, not a fork). */
const SECRETS_AVAILABLE = /^!\s*github\.event\.pull_request\.head\.repo\.fork$|^github\.event\.pull_request\.head\.repo\.full_name\s*==\s*github\.repository$/;

function stepIds(steps: readonly unknown[], test: (step: YAMLMap) => boolean): Set<string> {
  return new Set(steps.flatMap((step) => {
    const id = isMap(step) ? stringAt(step, 'id') : undefined;
    return id !== undefined && isMap(step) && test(step) ? [id] : [];
  }));
}

function conjuncts(condition: string): string[] {
  return splitTopLevel(unwrapCondition(condition), '&&').map(stripOuterParens);
}

function isCheckoutOfThisRepository(step: YAMLMap, upstream?: string): boolean {
  const repository = stringAt(mapAt(step, 'with'), 'repository')?.trim();
  if (repository === undefined || repository === '' || /\bgithub\.repository\b/.test(repository)) return true;
  return upstream !== undefined && repository.toLowerCase() === upstream.toLowerCase();
}

/** Whether a checkout checks out the pushed commit (this repository, no ref or a ref taken from the event). */
export function checksOutPushedCommit(step: YAMLMap, upstream?: string): boolean {
  if (!isCheckoutOfThisRepository(step, upstream)) return false;
  const ref = stringAt(mapAt(step, 'with'), 'ref')?.trim();
  return ref === undefined || ref === '' || /\$\{\{[^}]*\b(?:github\.(?:sha|ref|head_ref|event|ref_name)|inputs\.|env\.)/.test(ref);
}

interface StepOutcome {
  /** Remove the step, and why. */
  remove?: { rule: RemovalRule; reason: string; evidence: string; unconditional: boolean };
  /** Drop the whole job. */
  dropJob?: { rule: RemovalRule; reason: string; evidence: string };
  entries: ReportEntry[];
}

function rewriteBuildPush(step: YAMLMap, name: string, target: string, label: string): StepOutcome | undefined {
  const entries: ReportEntry[] = [];
  const withMap = mapAt(step, 'with');
  if (WRAPPER_ACTIONS.has(name)) {
    const wrapped = stringAt(withMap, 'action') ?? '';
    const inner = withMap?.get('with', true);
    if (!BUILD_PUSH_ACTIONS.has(actionName(wrapped)) || !isScalar(inner) || typeof inner.value !== 'string') return undefined;
    if (/^\s*push:\s*true\s*$/m.test(inner.value)) {
      return { remove: { rule: 'publishing', reason: `${label} pushes an image (${wrapped} with push: true, through ${name})`, evidence: `${name} → ${wrapped}`, unconditional: true }, entries };
    }
    if (/^\s*push:\s*\S/m.test(inner.value)) {
      inner.value = inner.value.replaceAll(/^(\s*push:\s*)\S.*$/gm, '$1false');
      entries.push({ action: 'rewrote-step', target: `${target}.with.with`, reason: `${label} builds the image without pushing it (push: false, through ${name})` });
    }
    return { entries };
  }
  if (!BUILD_PUSH_ACTIONS.has(name) || withMap === undefined) return undefined;
  const push = withMap.get('push');
  const outputs = withMap.get('outputs');
  if (push === true || push === 'true' || (typeof outputs === 'string' && /\bpush=true\b/.test(outputs) && push === undefined)) {
    return { remove: { rule: 'publishing', reason: `${label} pushes an image (push: true)`, evidence: `${name} push: true`, unconditional: true }, entries };
  }
  if (push !== undefined && push !== false && push !== 'false') {
    withMap.set('push', false);
    entries.push({ action: 'rewrote-step', target: `${target}.with.push`, reason: `${label} builds the image without pushing it (push: false)` });
  }
  if (typeof outputs === 'string' && /\bpush=true\b/.test(outputs)) {
    withMap.set('outputs', outputs.replaceAll(/\bpush=true\b/g, 'push=false'));
    entries.push({ action: 'rewrote-step', target: `${target}.with.outputs`, reason: `${label} builds the image without pushing it (push=false)` });
  }
  return { entries };
}

/** A checkout of the upstream repository by name checks out the commit under test: in a copy that is the copy. */
function retargetCheckout(step: YAMLMap, target: string, label: string, upstream: string | undefined): ReportEntry[] {
  const withMap = mapAt(step, 'with');
  const repository = stringAt(withMap, 'repository')?.trim();
  if (withMap === undefined || upstream === undefined || repository?.toLowerCase() !== upstream.toLowerCase()) return [];
  withMap.set('repository', '${{ github.repository }}');
  return [{ action: 'rewrote-step', target: `${target}.with.repository`, reason: `${label} checked out ${repository}, the upstream of the commit under test; checks out the copy instead` }];
}

function checkoutCredentials(step: YAMLMap, uses: SecretUse[], target: string, label: string, upstream: string | undefined): StepOutcome | undefined {
  const withMap = mapAt(step, 'with');
  const credential = uses.find((use) => use.via === 'with' && (use.key === 'token' || use.key === 'ssh-key') && !use.tolerated);
  if (withMap === undefined || credential?.key === undefined) return undefined;
  if (!isCheckoutOfThisRepository(step, upstream)) {
    const repository = stringAt(withMap, 'repository') ?? '';
    return { dropJob: { rule: 'secret-bound', reason: `checks out ${repository} with secrets.${credential.name}, which a copy does not have`, evidence: `${label} repository: ${repository}, ${credential.key}: secrets.${credential.name}` }, entries: [] };
  }
  withMap.delete(credential.key);
  return {
    entries: [{
      action: 'rewrote-step',
      target: `${target}.with.${credential.key}`,
      reason: `${label}: removed ${credential.key} secrets.${credential.name}; the default GITHUB_TOKEN reads the copy (a push with it would need the secret)`,
    }],
  };
}

function secretOutcome(step: YAMLMap, kind: StepClass, uses: SecretUse[], upstream: string | undefined, label: string): StepOutcome | undefined {
  const needed = uses.filter((use) => !use.tolerated);
  const own = needed.filter((use) => use.via !== 'job-env');
  const purpose = `${stringAt(step, 'name') ?? ''} ${stringAt(step, 'uses') ?? ''}`;
  const publishing = own.find((use) => isPublishingSecret(use.name) || use.key !== undefined && isPublishingSecret(use.key));
  if (own.length > 0 && !(stringAt(step, 'run') ?? '').includes(REMOVED_COMMAND) && (publishing !== undefined || PUBLISHING_STEP.test(purpose))) {
    const names = [...new Set(own.map((use) => `secrets.${use.name}`))].join(', ');
    const what = `${purpose} ${names}`;
    const rule: RemovalRule = /slack|discord|telegram|notify|webhook|mattermost|zulip|mail/i.test(what) ? 'notification' : /deploy|pages|vercel|netlify|cloudflare/i.test(what) ? 'deployment' : 'publishing';
    return { remove: { rule, reason: `${label} needs ${names} to publish or notify`, evidence: names, unconditional: true }, entries: [] };
  }
  if (upstream !== undefined && needed.length > 0) {
    const names = [...new Set(needed.map((use) => `secrets.${use.name}`))].join(', ');
    return { remove: { rule: 'upstream-only', reason: `${label} runs only upstream (\`${upstream}\`) and needs ${names}`, evidence: `${upstream}; ${names}`, unconditional: false }, entries: [] };
  }
  // A key the step itself receives (its env, inputs or script) is for what it calls; one in the job's env is ambient.
  const live = own.find((use) => isModelOrCloudSecret(use.name));
  if (live !== undefined && kind.purpose === 'work') {
    return { dropJob: { rule: 'secret-bound', reason: `cannot run without real credentials: ${label} receives secrets.${live.name}${live.key === undefined ? '' : ` as ${live.key}`} to call a live service`, evidence: `secrets.${live.name} → ${label}` }, entries: [] };
  }
  const run = stringAt(step, 'run');
  const variables = [...secretEnv(mapAt(step, 'env')).keys()];
  const url = run === undefined ? undefined : credentialInUrl(run, variables);
  if (url !== undefined) {
    return { dropJob: { rule: 'secret-bound', reason: `cannot run without real credentials: ${label} authenticates with a secret in a URL`, evidence: url.replaceAll(/\$\{\{[^}]*\}\}/g, '${{ … }}') }, entries: [] };
  }
  return undefined;
}

/** Filters the steps of one job in place (pending entries and removals on the state; a hard drop when a step cannot run). */
export function filterSteps(state: JobState, ctx: JobsContext, serviceSecrets: ReadonlySet<string>): void {
  const steps = state.node.get('steps', true);
  if (!isSeq(steps)) return;
  const jobEnv = mapAt(state.node, 'env');
  const pathFilterSteps = stepIds(steps.items, isPathFilterStep);
  const guards = { ...ctx.guards, pathFilterSteps };
  const kept: unknown[] = [];
  steps.items.forEach((item, index) => {
    if (!isMap(item)) {
      kept.push(item);
      return;
    }
    const step: YAMLMap = item;
    const target = `jobs.${state.id}.steps[${ctx.stepIndex(step, index)}]`;
    const label = stepLabel(step);
    const incidental = pathFilterSteps.has(stringAt(step, 'id') ?? '');
    const remove = (rule: RemovalRule, reason: string, evidence: string, always: boolean): void => {
      state.pending.push({ action: 'removed-step', target, reason, rule, evidence });
      state.removals.push({ rule, detail: reason, evidence, unconditional: always, ...(incidental ? { incidental } : {}) });
    };
    const entries: ReportEntry[] = [];
    let condition = stringAt(step, 'if');
    let upstream: string | undefined;
    let unconditional = condition === undefined || /^\s*(?:\$\{\{\s*)?(?:always|success)\(\)\s*(?:\}\})?\s*$/.test(condition);
    if (condition !== undefined) {
      const gate = conjuncts(condition).find((clause) => SECRETS_AVAILABLE.test(clause));
      if (gate !== undefined && secretUses(step, jobEnv, serviceSecrets).some((use) => !use.tolerated)) {
        remove('upstream-only', `${label} runs only where the repository's secrets are available (\`${gate}\`) and needs them; a copy has none`, `if: ${gate}`, false);
        return;
      }
      if (splitTopLevel(unwrapCondition(condition), '||').map(stripOuterParens).some((clause) => /^github\.event\.pull_request\.head\.repo\.fork$/.test(clause))) {
        step.delete('if');
        entries.push({ action: 'rewrote-guard', target: `${target}.if`, reason: `${label}: \`${condition.trim()}\` runs it where secrets are missing (a fork); a copy has none, so it always runs` });
        condition = undefined;
      }
    }
    if (condition !== undefined) {
      const decision = analyzeGuard(condition, guards);
      if (decision.kind === 'drop') {
        remove(ruleOfGuardDrop(decision.reason), `${label} ${decision.reason}`, `if: ${condition.trim()}`, false);
        return;
      }
      if (decision.kind === 'rewrite') {
        upstream = decision.removed.map((entry) => entry.clause).find(isUpstreamClause);
        if (upstream !== undefined || decision.removed.some((entry) => /refs\/heads\/|ref_name/.test(entry.clause))) unconditional = true;
        const pullRequestOnly = decision.removed.some((entry) => /pull_request|merge_group/.test(entry.clause));
        const read = PULL_REQUEST_DATA.exec(nodeText(step));
        if (pullRequestOnly && read?.[1] !== undefined && actionName(stringAt(step, 'uses') ?? '') !== 'actions/checkout') {
          remove('pull-request-only', `${label} runs only for pull requests and reads ${read[1]}, which a push does not have`, `if: ${condition.trim()}; reads ${read[1]}`, false);
          return;
        }
        if (decision.condition === undefined) step.delete('if');
        else step.set('if', decision.condition);
        entries.push({ action: 'rewrote-guard', target: `${target}.if`, reason: `${label}: removed ${describeRemoved(decision.removed)}` });
      }
    }
    const uses = stringAt(step, 'uses');
    const name = actionName(uses ?? '');
    const withValue: unknown = step.get('with', true);
    const kind = classifyStep({ uses, run: stringAt(step, 'run'), name: stringAt(step, 'name'), with: isMap(withValue) ? (withValue.toJSON() as Record<string, unknown>) : undefined });
    const secretUse = secretUses(step, jobEnv, serviceSecrets);
    if (name === 'actions/checkout') entries.push(...retargetCheckout(step, target, label, ctx.upstreamRepository));
    const outcomes = [
      uses === undefined ? undefined : rewriteBuildPush(step, name, target, label),
      name === 'actions/checkout' ? checkoutCredentials(step, secretUse, target, label, ctx.upstreamRepository) : undefined,
    ];
    for (const outcome of outcomes) {
      if (outcome === undefined) continue;
      entries.push(...outcome.entries);
      if (outcome.dropJob !== undefined) state.drop ??= { strength: 'hard', ...outcome.dropJob };
      if (outcome.remove !== undefined) {
        remove(outcome.remove.rule, outcome.remove.reason, outcome.remove.evidence, unconditional);
        return;
      }
    }
    if (kind.purpose === 'cloud-credentials' || kind.purpose === 'credentials') {
      if (upstream !== undefined) {
        remove('upstream-only', `${label} ${kind.detail}, only upstream (\`${upstream}\`)`, `${kind.evidence ?? name}; if: ${upstream}`, false);
        return;
      }
      // Decided once the job's other steps are known: credentials that served only removed deploy steps go with them.
      state.credentialSteps.push({ step, target, label, detail: kind.detail, evidence: kind.evidence ?? name });
    }
    const run = stringAt(step, 'run');
    // An image build that exists to be pushed is publishing as a whole (a package build that is then uploaded is not).
    const stripped = isNonValidating(kind.purpose) && run !== undefined && kind.detail !== 'pushes a container image' ? stripPublishingCommands(run) : undefined;
    if (stripped !== undefined) {
      step.set('run', stripped.run);
      state.pending.push(...entries, {
        action: 'rewrote-step',
        target: `${target}.run`,
        reason: `${label} mixes build and publish: removed ${stripped.removed} command${stripped.removed === 1 ? '' : 's'} (${kind.detail}), kept the rest`,
        rule: ruleOfPurpose(kind.purpose),
        evidence: stripped.commands.join('; '),
      });
      kept.push(step);
      return;
    }
    const uploadKept = kind.purpose === 'artifact-upload' && (ctx.keepUploads || KEEP_UPLOAD.test(nodeText(step.get('with', true))));
    if (isNonValidating(kind.purpose) || (kind.purpose === 'artifact-upload' && !uploadKept)) {
      const detail = kind.purpose === 'artifact-upload' ? `${kind.detail} that no kept job downloads` : kind.detail;
      remove(ruleOfPurpose(kind.purpose), `${label} ${detail}`, kind.evidence ?? name, unconditional);
      return;
    }
    const read = PULL_REQUEST_DATA.exec(nodeText(step.get('run', true)) + nodeText(step.get('env', true)));
    if (read?.[1] !== undefined) {
      remove('pull-request-only', `${label} reads ${read[1]}, which a push does not have`, `reads ${read[1]}`, false);
      return;
    }
    const secret = secretOutcome(step, kind, secretUses(step, jobEnv, serviceSecrets), upstream, label);
    if (secret?.dropJob !== undefined) state.drop ??= { strength: 'hard', ...secret.dropJob };
    if (secret?.remove !== undefined) {
      remove(secret.remove.rule, secret.remove.reason, secret.remove.evidence, secret.remove.unconditional && unconditional);
      return;
    }
    state.pending.push(...entries);
    kept.push(step);
  });
  steps.items = kept;
}

/** Removes steps that read the outputs of removed steps (and their own dependents), until none is left. */
export function dropOrphanSteps(state: JobState, originalIds: ReadonlySet<string>, ctx: JobsContext): void {
  const steps = state.node.get('steps', true);
  if (!isSeq(steps)) return;
  const present = () => new Set(steps.items.flatMap((step) => {
    const id = isMap(step) ? stringAt(step, 'id') : undefined;
    return id === undefined ? [] : [id];
  }));
  const missing = new Set([...originalIds].filter((id) => !present().has(id)));
  if (missing.size === 0) return;
  steps.items = steps.items.filter((step, index) => {
    const text = nodeText(step);
    const orphanOf = [...missing].find((id) => new RegExp(String.raw`\bsteps\s*\.\s*${id.replaceAll(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\s*\.|\bsteps\s*\[\s*'${id}'\s*\]`).test(text));
    if (orphanOf === undefined) return true;
    const ownId = isMap(step) ? stringAt(step, 'id') : undefined;
    if (ownId !== undefined) missing.add(ownId);
    const label = isMap(step) ? stepLabel(step) : 'step';
    const target = `jobs.${state.id}.steps[${ctx.stepIndex(step, index)}]`;
    const reason = `${label} reads the outputs of the removed step \`${orphanOf}\``;
    state.pending.push({ action: 'removed-step', target, reason, rule: 'orphaned', evidence: `steps.${orphanOf}` });
    state.removals.push({ rule: 'orphaned', detail: reason, evidence: `steps.${orphanOf}`, unconditional: false });
    return false;
  });
}
