/**
 * Instance checks: can an instance be replayed at all? Both commits reachable (and from which source), the ground
 * truth applying at sha_fail (3-way, with the dataset's protection, exactly as the prepare step builds the reference
 * commit), the workflow standardizing, and what the chosen backend's preflight would block. Nothing is pushed or run.
 */
import { LOCAL_EXECUTOR_CAPABILITIES } from '../backends/local/capabilities.js';
import type { InstanceRow } from '../db/index.js';
import { isAppError } from '../errors.js';
import type { CommitLocation, CommitSource, LocatedCommits } from '../git/index.js';
import type { PipelineDeps } from '../pipeline/context.js';
import { buildBenchmarkCommit, upstreamOf, type PreparedCommit } from '../pipeline/benchmark-commit.js';
import { preflightInput } from '../pipeline/preflight.js';
import { GITHUB_ACTIONS_CAPABILITIES, preflightWorkflow, type Blocker } from '../workflows/index.js';

export type { CommitSource } from '../git/index.js';

export const CHECK_BACKENDS = ['local', 'github'] as const;
export type CheckBackend = (typeof CHECK_BACKENDS)[number];

/** A commit of the instance: found or not, and where. */
export interface CommitCheck {
  sha: string;
  found: boolean;
  source: CommitSource | null;
  /** The ref that holds it (a pull request's, a fork's branch), when known. */
  ref: string | null;
  /** The URL it was found at (the upstream's or the fork's), or null. */
  url: string | null;
  /** Why it is missing (what was tried), or null. */
  message: string | null;
}

export type StepStatus = 'ok' | 'failed' | 'skipped';
export interface StepCheck {
  status: StepStatus;
  message: string | null;
}

/**
 * `ok` everything passed; `broken` it cannot be prepared (a commit is gone, the ground truth does not apply at
 * sha_fail, the workflow does not standardize); `unreplayable` the backend's preflight blocks it; `unreachable`
 * the upstream could not be reached (a passing fault: says nothing about the instance).
 */
export const CHECK_PROBLEMS = ['ok', 'broken', 'unreplayable', 'unreachable'] as const;
export type CheckProblem = (typeof CHECK_PROBLEMS)[number];

export interface InstanceCheckResult {
  instanceId: string;
  backend: CheckBackend;
  ok: boolean;
  problem: CheckProblem;
  commits: { shaFail: CommitCheck; shaSuccess: CommitCheck | null };
  groundTruth: StepCheck;
  workflow: StepCheck;
  preflight: StepCheck & { blockers: Blocker[] };
  /** One line per failed check; the first is the main reason. */
  reasons: string[];
  checkedAt: string;
}

export type InstanceCheckDeps = Pick<PipelineDeps, 'mirrors' | 'config' | 'linter' | 'repos' | 'backend' | 'logger'>;

export interface CheckOptions {
  /** Whose preflight to apply (default: the configured backend's). */
  backend?: CheckBackend;
}

const FULL_SHA = /^[0-9a-f]{40}$/;
const skipped = (message: string): StepCheck => ({ status: 'skipped', message });

/** Checks one instance. Problems of the instance are in the result; only database or programming errors throw. */
export async function checkInstance(deps: InstanceCheckDeps, instance: InstanceRow, opts: CheckOptions = {}): Promise<InstanceCheckResult> {
  const backend = opts.backend ?? deps.backend.name;
  const result: InstanceCheckResult = {
    instanceId: instance.id,
    backend,
    ok: false,
    problem: 'ok',
    commits: { shaFail: commitCheck(instance.shaFail), shaSuccess: instance.shaSuccess === null ? null : commitCheck(instance.shaSuccess) },
    groundTruth: skipped('sha_fail is not available'),
    workflow: skipped('sha_fail is not available'),
    preflight: { ...skipped('sha_fail is not available'), blockers: [] },
    reasons: [],
    checkedAt: new Date().toISOString(),
  };
  const wanted = [instance.shaFail, instance.shaSuccess].filter((sha): sha is string => sha !== null && FULL_SHA.test(sha));
  let located: LocatedCommits;
  try {
    located = await deps.mirrors.locateCommits(upstreamOf(instance), wanted);
  } catch (error) {
    if (!isAppError(error)) throw error;
    const transient = error.kind === 'transient' || error.kind === 'rate_limited';
    return finish(result, transient ? 'unreachable' : 'broken', [`the upstream ${upstreamOf(instance).url} could not be read: ${error.message}`]);
  }
  const apply = (check: CommitCheck): CommitCheck => {
    if (!FULL_SHA.test(check.sha)) return { ...check, message: `${check.sha} is not a full 40-hex SHA: it cannot be fetched` };
    const hit: CommitLocation | undefined = located.found.find((found) => found.sha === check.sha);
    if (hit !== undefined) return { ...check, found: true, source: hit.source, ref: hit.ref, url: hit.url };
    const miss = located.missing.find((missing) => missing.sha === check.sha);
    return { ...check, message: `not found; tried ${miss?.tried.join(', ') ?? 'the upstream'}` };
  };
  result.commits.shaFail = apply(result.commits.shaFail);
  if (result.commits.shaSuccess !== null) result.commits.shaSuccess = apply(result.commits.shaSuccess);
  const reasons: string[] = [];
  if (!result.commits.shaFail.found) reasons.push(`sha_fail ${instance.shaFail} ${result.commits.shaFail.message ?? 'not found'}`);
  if (result.commits.shaSuccess !== null && !result.commits.shaSuccess.found) reasons.push(`sha_success ${result.commits.shaSuccess.sha} ${result.commits.shaSuccess.message ?? 'not found'}`);
  if (!result.commits.shaFail.found) return finish(result, 'broken', reasons);

  // The workflow alone (the unpatched commit, as a baseline replay builds it), then the reference commit.
  const baseline = await prepare(deps, instance, '');
  if (baseline.kind === 'unreachable') return finish(result, 'unreachable', [...reasons, baseline.message]);
  if (baseline.kind !== 'ok') {
    result.workflow = { status: 'failed', message: baseline.message };
    result.groundTruth = skipped('the workflow does not standardize');
    result.preflight = { ...skipped('the workflow does not standardize'), blockers: [] };
    return finish(result, 'broken', [...reasons, `the workflow does not standardize: ${baseline.message}`]);
  }
  const syntax = baseline.prepared.standardization.lint.filter((finding) => finding.kind === 'syntax-check');
  result.workflow = syntax.length === 0
    ? { status: 'ok', message: null }
    : { status: 'failed', message: syntax.map((finding) => `line ${finding.line}: ${finding.message}`).join('; ') };
  if (syntax.length > 0) reasons.push(`the standardized workflow is invalid: ${result.workflow.message ?? ''}`);

  let reference = baseline.prepared;
  if (instance.diff.trim() === '') {
    result.groundTruth = skipped('the instance has no ground-truth patch');
  } else {
    const applied = await prepare(deps, instance, instance.diff);
    if (applied.kind === 'unreachable') return finish(result, 'unreachable', [...reasons, applied.message]);
    if (applied.kind === 'ok') {
      result.groundTruth = { status: 'ok', message: null };
      reference = applied.prepared;
    } else {
      result.groundTruth = { status: 'failed', message: applied.message };
      reasons.push(`the ground truth does not apply at sha_fail: ${firstLines(applied.message)}`);
    }
  }
  const blockers = await preflight(deps, backend, instance, reference);
  result.preflight = { status: blockers.length === 0 ? 'ok' : 'failed', message: blockers.length === 0 ? null : blockers.map((blocker) => blocker.message).join('; '), blockers };
  const broken = reasons.length > 0;
  if (blockers.length > 0) reasons.push(`the ${backend} backend's preflight blocks it: ${blockers.map((blocker) => blocker.message).join('; ')}`);
  return finish(result, broken ? 'broken' : blockers.length > 0 ? 'unreplayable' : 'ok', reasons);
}

function commitCheck(sha: string): CommitCheck {
  return { sha, found: false, source: null, ref: null, url: null, message: null };
}

function finish(result: InstanceCheckResult, problem: CheckProblem, reasons: string[]): InstanceCheckResult {
  return { ...result, problem, ok: problem === 'ok', reasons };
}

const firstLines = (text: string): string => text.split('\n').filter((line) => line.trim() !== '').slice(0, 3).join(' | ');

type Prepared = { kind: 'ok'; prepared: PreparedCommit } | { kind: 'failed' | 'unreachable'; message: string };

async function prepare(deps: InstanceCheckDeps, instance: InstanceRow, patch: string): Promise<Prepared> {
  try {
    const built = await buildBenchmarkCommit(deps, instance, { id: `check-${instance.id}`, patch, kind: patch === '' ? 'baseline' : 'reference', createdAt: new Date(0) });
    return built.ok ? { kind: 'ok', prepared: built } : { kind: 'failed', message: built.message };
  } catch (error) {
    if (isAppError(error) && (error.kind === 'transient' || error.kind === 'rate_limited')) return { kind: 'unreachable', message: error.message };
    if (isAppError(error)) return { kind: 'failed', message: `${error.code}: ${error.message}` };
    throw error;
  }
}

/**
 * The preflight of the chosen backend. The configured backend's own when it is the one asked for and local (pure);
 * otherwise the capability check alone: GitHub's Actions-enabled check needs the App and is left to `repos sync`
 * and the real preflight, so a check never changes a repository's settings.
 */
async function preflight(deps: InstanceCheckDeps, backend: CheckBackend, instance: InstanceRow, prepared: PreparedCommit): Promise<Blocker[]> {
  const input = preflightInput(`check-${instance.id}`, { id: instance.id, repoOwner: instance.repoOwner, repoName: instance.repoName, upstreamUrl: upstreamOf(instance).url, shaFail: instance.shaFail }, prepared);
  if (backend === 'local' && deps.backend.name === 'local') return deps.backend.preflight(input);
  const capabilities = backend === 'local' ? LOCAL_EXECUTOR_CAPABILITIES : GITHUB_ACTIONS_CAPABILITIES;
  return preflightWorkflow({ workflow: input.workflow, callees: input.callees, capabilities });
}

export { checkInstances, renderCheckTable, selectInstances, summarizeChecks, type CheckSelection, type CheckSummary } from './check-many.js';
