/** Analysis of `if:` guards that would skip a job or step when the workflow runs on a push to a fork. */
import { splitTopLevel, stripOuterParens, unwrapCondition } from './expressions.js';

export type GuardDecision =
  | { kind: 'keep' }
  | { kind: 'drop'; reason: string }
  | { kind: 'rewrite'; condition: string | undefined; removed: RemovedClause[] };

export interface RemovedClause {
  clause: string;
  why: string;
}

export interface GuardContext {
  /** Jobs whose outputs are path filters (dorny/paths-filter and the like). */
  pathFilterJobs: ReadonlySet<string>;
  /** Step ids (in the job being analyzed) whose outputs are path filters. */
  pathFilterSteps?: ReadonlySet<string>;
}

type ClauseVerdict = { kind: 'keep' } | { kind: 'drop'; reason: string } | { kind: 'remove'; reason: string };

const QUOTED = String.raw`'([^']*)'`;

function eventComparison(clause: string): { op: '==' | '!='; value: string } | undefined {
  const left = new RegExp(String.raw`^github\.event_name\s*(==|!=)\s*${QUOTED}$`).exec(clause);
  const right = new RegExp(String.raw`^${QUOTED}\s*(==|!=)\s*github\.event_name$`).exec(clause);
  if (left) return { op: left[1] === '==' ? '==' : '!=', value: left[2] ?? '' };
  if (right) return { op: right[2] === '==' ? '==' : '!=', value: right[1] ?? '' };
  return undefined;
}

const UPSTREAM_CLAUSE = /^github\.repository(?:_owner)?\s*==\s*'[^']*'$|^'[^']*'\s*==\s*github\.repository(?:_owner)?$|^github\.event\.repository\.fork\s*==\s*false$|^!\s*github\.event\.repository\.fork$|^github\.event\.pull_request\.head\.repo\.full_name\s*==\s*github\.repository$/;

/** Whether a clause restricts work to the upstream repository (false in a copy of it). */
export function isUpstreamClause(clause: string): boolean {
  return UPSTREAM_CLAUSE.test(stripOuterParens(clause));
}

const PULL_REQUEST_WHY = 'false on push: there is no pull request';

function classifyAtom(clause: string, context: GuardContext): ClauseVerdict {
  const event = eventComparison(clause);
  if (event !== undefined) {
    if (event.op === '==' && event.value === 'push') return { kind: 'keep' };
    if (event.op === '!=' && event.value !== 'push') return { kind: 'keep' };
    if (event.op === '==' && event.value === 'schedule') return { kind: 'drop', reason: 'runs only on schedule' };
    if (event.op === '==' && event.value === 'release') return { kind: 'drop', reason: 'runs only on releases' };
    if (event.op === '==' && /^pull_request(?:_target)?$|^merge_group$/.test(event.value)) return { kind: 'remove', reason: 'false on push' };
    return { kind: 'remove', reason: 'false on push' };
  }
  if (/^(?:startsWith\(\s*github\.(?:event\.)?ref\s*,\s*'refs\/tags[^']*'\s*\)|contains\(\s*github\.(?:event\.)?ref\s*,\s*'refs\/tags[^']*'\s*\)|github\.ref_type\s*==\s*'tag')$/.test(clause)) {
    return { kind: 'drop', reason: 'runs only on tags (release)' };
  }
  if (/^github\.event\.pull_request\.head\.repo\.full_name\s*==\s*github\.repository$/.test(clause)) {
    return { kind: 'remove', reason: 'false on push and on a fork' };
  }
  if (isUpstreamClause(clause)) return { kind: 'remove', reason: 'false on a fork' };
  const variable = /^(?:vars\.([\w-]+)|vars\.([\w-]+)\s*==\s*'(?:true|1|yes)')$/.exec(clause);
  if (variable !== null) return { kind: 'drop', reason: `runs only when the repository variable vars.${variable[1] ?? variable[2] ?? ''} is set (upstream configuration a copy does not have)` };
  const prFlag = /^github\.event\.pull_request\.([\w.-]+)\s*==\s*true$/.exec(clause);
  if (prFlag?.[1] !== undefined) return { kind: 'drop', reason: `runs only for pull requests whose ${prFlag[1]} is true` };
  if (/^(?:github\.ref\s*==\s*'refs\/heads\/[^']*'|github\.ref_name\s*==\s*'[^']*')$/.test(clause)) {
    return { kind: 'remove', reason: 'false on a ci-replay branch' };
  }
  if (/^contains\(\s*github\.event\.pull_request\.[\w.*-]+\s*,\s*'[^']*'\s*\)$|^github\.(?:event\.pull_request\.[\w.-]+|head_ref)\s*==\s*'[^']*'$/.test(clause)) {
    return { kind: 'remove', reason: PULL_REQUEST_WHY };
  }
  const payload = /^(?:contains\(\s*)?github\.event\.(label|comment|issue|review|discussion)\b[\w.*-]*(?:\s*,\s*'[^']*'\s*\)|\s*==\s*'[^']+')$/.exec(clause);
  if (payload?.[1] !== undefined) return { kind: 'drop', reason: `runs only on ${payload[1]} events` };
  if (/^github\.event\.action\s*==\s*'[^']+'$/.test(clause)) return { kind: 'drop', reason: 'runs only on a webhook action' };
  const filter = /^needs\.([\w-]+)\.outputs\.[\w-]+(?:\s*==\s*'true'|\s*!=\s*'false')?$/.exec(clause);
  if (filter?.[1] !== undefined && context.pathFilterJobs.has(filter[1])) {
    return { kind: 'remove', reason: 'a path filter that could skip the checks' };
  }
  const stepFilter = /^steps\.([\w-]+)\.outputs\.[\w-]+(?:\s*==\s*'true'|\s*!=\s*'false')?$/.exec(clause);
  if (stepFilter?.[1] !== undefined && context.pathFilterSteps?.has(stepFilter[1]) === true) {
    return { kind: 'remove', reason: 'a path filter that could skip the checks' };
  }
  return { kind: 'keep' };
}

function classifyClause(raw: string, context: GuardContext): ClauseVerdict {
  const clause = stripOuterParens(raw);
  const alternatives = splitTopLevel(clause, '||');
  if (alternatives.length > 1) {
    const decision = analyzeDisjunction(alternatives, context);
    if (decision.kind === 'rewrite') return { kind: 'remove', reason: decision.removed.map((entry) => entry.why).join('; ') };
    return decision;
  }
  const conjuncts = splitTopLevel(clause, '&&');
  if (conjuncts.length > 1) {
    const verdicts = conjuncts.map((part) => classifyClause(part, context));
    const drop = verdicts.find((verdict) => verdict.kind === 'drop');
    if (drop !== undefined) return drop;
    const removed = verdicts.flatMap((verdict) => (verdict.kind === 'remove' ? [verdict.reason] : []));
    return removed.length > 0 ? { kind: 'remove', reason: [...new Set(removed)].join('; ') } : { kind: 'keep' };
  }
  return classifyAtom(clause, context);
}

/** Decides what to do with an `if:` condition for a replay triggered by a push to a benchmark branch. */
export function analyzeGuard(condition: string, context: GuardContext): GuardDecision {
  const expression = unwrapCondition(condition);
  const disjuncts = splitTopLevel(expression, '||');
  if (disjuncts.length > 1) return analyzeDisjunction(disjuncts, context);
  const clauses = splitTopLevel(expression, '&&');
  const verdicts = clauses.map((clause) => classifyClause(clause, context));
  const drop = verdicts.find((verdict) => verdict.kind === 'drop');
  if (drop?.kind === 'drop') return drop;
  const removed = clauses.flatMap((clause, index) => {
    const verdict = verdicts[index];
    return verdict?.kind === 'remove' ? [{ clause: stripOuterParens(clause), why: verdict.reason }] : [];
  });
  if (removed.length === 0) return { kind: 'keep' };
  const kept = clauses.filter((_, index) => verdicts[index]?.kind !== 'remove');
  return { kind: 'rewrite', condition: kept.length === 0 ? undefined : kept.join(' && '), removed };
}

function analyzeDisjunction(disjuncts: readonly string[], context: GuardContext): GuardDecision {
  const verdicts = disjuncts.map((part) => classifyClause(part, context));
  if (verdicts.some((verdict) => verdict.kind === 'keep')) return { kind: 'keep' };
  const all: RemovedClause[] = [{ clause: disjuncts.join(' || '), why: 'every alternative is false on push' }];
  // An alternative that runs the job for pull requests or when its files changed makes it validation, whatever else
  // (tags, schedule) also runs it.
  const validationAlternative = verdicts.some((verdict, index) => verdict.kind === 'remove'
    && (/\bfalse on push\b/.test(verdict.reason) && !verdict.reason.includes('fork') && /pull_request/.test(disjuncts[index] ?? '')
      || verdict.reason.includes('path filter')));
  if (validationAlternative) return { kind: 'rewrite', condition: undefined, removed: all };
  if (verdicts.some((verdict) => verdict.kind === 'drop' && verdict.reason === 'runs only on schedule')) {
    return { kind: 'drop', reason: 'runs only on schedule or manual dispatch' };
  }
  const drops = verdicts.flatMap((verdict) => (verdict.kind === 'drop' ? [verdict.reason] : []));
  if (drops.length > 0) {
    const others = disjuncts.filter((_, index) => verdicts[index]?.kind !== 'drop').map((part) => `\`${stripOuterParens(part)}\``);
    return { kind: 'drop', reason: [[...new Set(drops)].join(' or '), ...(others.length > 0 ? [`otherwise needs ${others.join(' or ')}`] : [])].join('; ') };
  }
  return { kind: 'rewrite', condition: undefined, removed: all };
}

/** `a` (why), `b` (why) */
export function describeRemoved(removed: readonly RemovedClause[]): string {
  return removed.map((entry) => `\`${entry.clause}\` (${entry.why})`).join(', ');
}
