/** Job-level rules, applied once every step-level removal of the job is known. */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { actionName, anyPublishWord, classifyStep, publishWordInName, runsValidation } from '../../classify/index.js';
import { analyzeGuard, describeRemoved, isUpstreamClause } from '../../guards.js';
import { secretNames, splitTopLevel, stripOuterParens } from '../../expressions.js';
import { keyOf, mapAt, nodeText, pairsOf, stringAt, stringList } from '../../nodes.js';
import type { RemovalRule } from '../../types.js';
import { article } from '../job-facts.js';
import { specialHardware } from '../runners.js';
import { secretUses } from './secret-flow.js';
import { checksOutPushedCommit, dropOrphanSteps, filterSteps } from './steps.js';
import { ruleOfGuardDrop, type Drop, type JobsContext, type JobState } from './state.js';

/** Actions whose work is a check (tests, lint, builds) even though they are third-party. */
const VALIDATION_ACTIONS = /^(?:pre-commit\/action|j178\/prek-action|jakebailey\/pyright-action|golangci\/golangci-lint-action|pypa\/cibuildwheel|hynek\/build-and-inspect-python-package|pyo3\/maturin-action|uraimo\/run-on-arch-action|re-actors\/alls-green|astral-sh\/ruff-action|chartboost\/ruff-action|py-actions\/flake8|psf\/black|super-linter\/super-linter|github\/super-linter|reviewdog\/[\w-]+|tox-dev\/[\w-]+|codespell-project\/actions-codespell|crate-ci\/typos|lycheeverse\/lychee-action|test-summary\/action|actions\/dependency-review-action)$/;

/** Repository writes that make a job a bot: it exists to open pull requests or push commits. */
const BOT_WRITE = /create-pull-request|git-auto-commit|add-and-commit|github-push-action|git\s+push|gh\s+pr\s+create|make-pr|repository-dispatch|gh\s+repo\s+fork|tx\s+pull/;

function stepsOf(job: YAMLMap): YAMLMap[] {
  const steps = job.get('steps', true);
  return isSeq(steps) ? steps.items.filter((step): step is YAMLMap => isMap(step)) : [];
}

function runsAValidation(step: YAMLMap): boolean {
  const uses = stringAt(step, 'uses');
  if (uses !== undefined) {
    const name = actionName(uses);
    if (name === './' || name === '.') return true;
    if (name.startsWith('./')) return /(?:^|[/_-])(?:tests?|lint|checks?|build|verify|validate|typecheck|format|docs?|scan|audit)(?:[/_-]|$)/i.test(name);
    return VALIDATION_ACTIONS.test(name);
  }
  return runsValidation(stringAt(step, 'run') ?? '');
}

/** Removals that say what the job was for (not the upload of an artifact, a step orphaned by another removal, or a path filter). */
function purposeRemovals(state: JobState): JobState['removals'] {
  return state.removals.filter((removal) => removal.rule !== 'orphaned' && removal.rule !== 'artifact-upload' && removal.incidental !== true);
}

function ruleOfWord(word: string): RemovalRule {
  if (/^(?:deploy|deployment|pages)$/.test(word)) return 'deployment';
  if (/^(?:release|releases|tag|tagging|bump|changelog)$/.test(word)) return 'release';
  if (/^(?:notify|notification|notifications|slack)$/.test(word)) return 'notification';
  if (/^(?:publish|pypi|upload|push)$/.test(word)) return 'publishing';
  return 'repo-write';
}

function summarize(state: JobState): { rule: RemovalRule; kinds: string; evidence: string } {
  const significant = state.removals.find((removal) => removal.rule !== 'orphaned') ?? state.removals[0];
  return {
    rule: significant?.rule ?? 'no-validation-left',
    kinds: [...new Set(state.removals.map((removal) => removal.detail))].join('; '),
    evidence: [...new Set(state.removals.map((removal) => removal.evidence))].join('; '),
  };
}

function assessGuard(state: JobState, ctx: JobsContext): boolean {
  const raw: unknown = state.node.get('if');
  if (raw === false || (typeof raw === 'string' && /^\s*(?:\$\{\{\s*)?false\s*(?:\}\})?\s*$/.test(raw))) {
    state.drop = { strength: 'hard', rule: 'event-only', reason: 'never runs on a push: its condition is false once inputs take their defaults', evidence: 'if: false' };
    return false;
  }
  const condition = stringAt(state.node, 'if');
  if (condition === undefined) return true;
  const decision = analyzeGuard(condition, ctx.guards);
  if (decision.kind === 'drop') {
    state.drop = { strength: 'hard', rule: ruleOfGuardDrop(decision.reason), reason: decision.reason, evidence: `if: ${condition.trim()}` };
    return false;
  }
  if (decision.kind === 'rewrite') {
    state.upstreamGuard = decision.removed
      .flatMap((entry) => splitTopLevel(entry.clause, '||').flatMap((part) => splitTopLevel(stripOuterParens(part), '&&')))
      .map(stripOuterParens)
      .find(isUpstreamClause);
    state.pullRequestOnly = decision.removed.every((entry) => /pull_request|merge_group/.test(entry.clause));
    if (decision.condition === undefined) state.node.delete('if');
    else state.node.set('if', decision.condition);
    state.pending.push({ action: 'rewrote-guard', target: `jobs.${state.id}.if`, reason: `removed ${describeRemoved(decision.removed)}` });
  }
  return true;
}

function literalInputs(job: YAMLMap): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const pair of pairsOf(mapAt(job, 'with'))) {
    if (isScalar(pair.value) && !(typeof pair.value.value === 'string' && pair.value.value.includes('${{'))) inputs[keyOf(pair)] = pair.value.value;
  }
  return inputs;
}

function assessCall(state: JobState, reusable: string, ctx: JobsContext): void {
  const job = state.node;
  if (reusable.startsWith('./')) {
    const verdict = ctx.judgeCallee?.(reusable.split('@')[0] ?? reusable, literalInputs(job)) ?? { kind: 'unknown' };
    if (verdict.kind === 'nothing-to-validate') {
      state.drop = { strength: 'hard', rule: 'callee-nothing-to-validate', reason: `calls ${reusable}, which has nothing to validate once standardized: ${verdict.reason}`, evidence: reusable };
    }
    return;
  }
  const passed = secretNames(nodeText(job.get('secrets', true))).filter((name) => /PUSH|PUBLISH|DEPLOY|RELEASE|UPLOAD|PYPI|DOCKER|NPM/i.test(name));
  if (passed.length > 0) {
    state.drop = { strength: 'soft', rule: 'publishing', reason: `calls ${reusable} with ${passed.map((name) => `secrets.${name}`).join(', ')}, a publishing credential`, evidence: `secrets: ${passed.join(', ')}` };
    return;
  }
  const file = reusable.split('@')[0]?.split('/').at(-1);
  const word = publishWordInName(state.id, stringAt(job, 'name'), file);
  if (word !== undefined) state.drop = { strength: 'soft', rule: ruleOfWord(word), reason: `calls ${article(word)} ${word} workflow (${reusable})`, evidence: reusable };
}

const CLOUD_USE = /\b(?:gcloud|gsutil|bq|aws|az|terraform|kubectl|pulumi|eksctl|boto3?)\b|s3:\/\/|gs:\/\//;

/**
 * Steps that obtain cloud or app credentials: when they only served deploy or publish steps that were removed they go
 * too; when the remaining work still uses the cloud, or nothing was removed, the job cannot run without them.
 */
function settleCredentials(state: JobState): Drop | undefined {
  if (state.credentialSteps.length === 0) return undefined;
  const steps = state.node.get('steps', true);
  const items = isSeq(steps) ? steps.items : [];
  const credentialNodes = new Set<unknown>(state.credentialSteps.map((entry) => entry.step));
  const others = items.filter((step) => !credentialNodes.has(step));
  // A registry login is not what cloud credentials serve: pulling images from a private registry still needs them.
  const served = state.removals.find((removal) => removal.rule === 'deployment' || (removal.rule === 'publishing' && !removal.detail.includes('logs in to a container registry')));
  const stillUsed = others.some((step) => isMap(step) && CLOUD_USE.test(`${stringAt(step, 'run') ?? ''} ${nodeText(step.get('env', true))}`));
  const first = state.credentialSteps[0];
  if (served === undefined || stillUsed || first === undefined) {
    return { strength: 'hard', rule: 'secret-bound', reason: `cannot run without real credentials: ${first?.label ?? 'a step'} ${first?.detail ?? ''}`, evidence: first?.evidence ?? '' };
  }
  if (isSeq(steps)) steps.items = others;
  for (const entry of state.credentialSteps) {
    const reason = `${entry.label} ${entry.detail}; it served only the removed deploy steps (${served.detail})`;
    state.pending.push({ action: 'removed-step', target: entry.target, reason, rule: served.rule, evidence: entry.evidence });
    state.removals.push({ rule: served.rule, detail: reason, evidence: entry.evidence, unconditional: false });
  }
  return undefined;
}

/** Drops the job when what is left of it validates nothing, needs what a copy lacks, or tests another revision. */
function decide(state: JobState, ctx: JobsContext, serviceSecrets: ReadonlySet<string>): Drop | undefined {
  const job = state.node;
  if (!job.has('steps')) return undefined;
  const credentials = settleCredentials(state);
  if (credentials !== undefined) return credentials;
  const steps = stepsOf(job);
  const { rule, kinds, evidence } = summarize(state);
  if (steps.length === 0) {
    return { strength: 'soft', rule, reason: state.removals.length > 0 ? `no steps left after removing: ${kinds}` : 'has no steps', evidence: evidence || 'steps: []' };
  }
  const work = steps.filter((step) => classifyStep({ uses: stringAt(step, 'uses'), run: stringAt(step, 'run') }).purpose !== 'setup');
  if (work.length === 0 && state.removals.length > 0) return { strength: 'soft', rule, reason: `only setup steps left after removing: ${kinds}`, evidence };
  const bot = state.removals.find((removal) => removal.rule === 'repo-write' && removal.unconditional && BOT_WRITE.test(removal.evidence));
  if (bot !== undefined) return { strength: 'hard', rule: 'repo-write', reason: `exists to write to the repository: ${bot.detail}`, evidence: bot.evidence };
  const validates = steps.some(runsAValidation);
  const jobName = stringAt(job, 'name');
  if (state.pullRequestOnly && /github\.event\.pull_request\.(?:base|head)\.(?:sha|ref)|github\.base_ref|GITHUB_BASE_REF/.test(nodeText(job.get('steps', true)))) {
    return { strength: 'soft', rule: 'pull-request-only', reason: 'runs only for pull requests and works on the pull request (its base or head), which a push does not have', evidence: 'reads github.event.pull_request' };
  }
  if (state.upstreamGuard !== undefined) {
    const needed = steps.flatMap((step) => secretUses(step, mapAt(job, 'env'), serviceSecrets).filter((use) => !use.tolerated));
    if (needed.length > 0) {
      const names = [...new Set(needed.map((use) => `secrets.${use.name}`))].join(', ');
      return { strength: 'hard', rule: 'upstream-only', reason: `runs only upstream (\`${state.upstreamGuard}\`) and needs ${names}`, evidence: `if: ${state.upstreamGuard}; ${names}` };
    }
  }
  if (!validates) {
    const purposes = purposeRemovals(state);
    if (purposes.length > 0) {
      const kinds = [...new Set(purposes.map((removal) => removal.detail))].join('; ');
      return { strength: 'soft', rule: purposes[0]?.rule ?? rule, reason: `runs no test, lint or build once these are removed: ${kinds}`, evidence: purposes.map((removal) => removal.evidence).join('; ') };
    }
    if (ctx.maintenanceOnly && state.upstreamGuard !== undefined) {
      return { strength: 'hard', rule: 'upstream-only', reason: `is upstream maintenance (\`${state.upstreamGuard}\`, in a workflow that runs only on schedule, dispatch or repository events) and runs no test, lint or build`, evidence: `if: ${state.upstreamGuard}` };
    }
    const word = anyPublishWord(state.id, jobName);
    if (word !== undefined) {
      return { strength: 'soft', rule: ruleOfWord(word), reason: `is ${article(word)} ${word} job and runs no test, lint or build`, evidence: `job ${state.id}${jobName === undefined ? '' : ` ("${jobName}")`}` };
    }
    if (ctx.maintenanceOnly) {
      return { strength: 'soft', rule: 'no-validation-left', reason: 'belongs to a workflow that runs only on schedule, dispatch or repository events, and runs no test, lint or build', evidence: 'on: schedule / workflow_dispatch / repository events' };
    }
  }
  const checkouts = steps.filter((step) => actionName(stringAt(step, 'uses') ?? '') === 'actions/checkout');
  if (checkouts.length > 0 && !checkouts.some((step) => checksOutPushedCommit(step, ctx.upstreamRepository))) {
    const shown = checkouts.map((step) => nodeText(step.get('with', true))).join('; ');
    return { strength: 'hard', rule: 'other-revision', reason: 'checks out another repository or branch, not the pushed commit', evidence: shown };
  }
  return undefined;
}

function runnerDrop(job: YAMLMap): Drop | undefined {
  const hardware = specialHardware(job);
  if (hardware === undefined) return undefined;
  return { strength: 'hard', rule: 'special-hardware', reason: `runs on ${hardware} that a copy does not have`, evidence: `runs-on: ${stringList(job.get('runs-on', true)).join(', ')}` };
}

/** Assesses one job: its guard, runner, reusable call, steps and what is left of them. */
export function assessJob(state: JobState, ctx: JobsContext, serviceSecrets: ReadonlySet<string>, originalStepIds: ReadonlySet<string>): void {
  if (!assessGuard(state, ctx)) return;
  const runner = runnerDrop(state.node);
  if (runner !== undefined) {
    state.drop = runner;
    return;
  }
  const reusable = stringAt(state.node, 'uses');
  if (reusable !== undefined) {
    assessCall(state, reusable, ctx);
    return;
  }
  filterSteps(state, ctx, serviceSecrets);
  dropOrphanSteps(state, originalStepIds, ctx);
  if (state.drop !== undefined) return;
  state.drop = decide(state, ctx, serviceSecrets);
}
