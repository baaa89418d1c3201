/**
 * Whether a step can run on a Linux runner for a matrix configuration, from its `if:` alone. Only clauses that
 * can be decided without running anything count (`runner.os` comparisons, matrix comparisons, `false`); anything
 * else is taken to hold, so a step is left out only when it certainly does not run on Linux.
 */
import { splitTopLevel, stripOuterParens, unwrapCondition } from '../expressions.js';
import type { Combination } from '../matrix/expand.js';
import { gateSatisfied } from '../matrix/select.js';

const RUNNER_OS = 'Linux';

function runnerClause(clause: string): boolean | undefined {
  const compare = /^runner\.os\s*(==|!=)\s*'([^']*)'$|^'([^']*)'\s*(==|!=)\s*runner\.os$/i.exec(clause);
  if (compare) {
    const op = compare[1] ?? compare[4];
    const equal = (compare[2] ?? compare[3] ?? '').toLowerCase() === RUNNER_OS.toLowerCase();
    return op === '==' ? equal : !equal;
  }
  const call = /^(!?)\s*(startsWith|contains|endsWith)\(\s*runner\.os\s*,\s*'([^']*)'\s*\)$/i.exec(clause);
  if (call) {
    const actual = RUNNER_OS.toLowerCase();
    const needle = (call[3] ?? '').toLowerCase();
    const fn = (call[2] ?? '').toLowerCase();
    const result = fn === 'startswith' ? actual.startsWith(needle) : fn === 'endswith' ? actual.endsWith(needle) : actual.includes(needle);
    return call[1] === '!' ? !result : result;
  }
  return undefined;
}

/** False only when the condition is certainly false on Linux for this configuration. */
export function mayRun(condition: unknown, combo: Combination): boolean {
  if (condition === false || condition === 0) return false;
  if (typeof condition !== 'string') return true;
  const clauses = splitTopLevel(unwrapCondition(condition), '&&').map(stripOuterParens);
  for (const clause of clauses) {
    if (/^false$/i.test(clause)) return false;
    const decided = runnerClause(clause) ?? gateSatisfied(clause, combo);
    if (decided === false) return false;
  }
  return true;
}

/** The configurations in which a step (or job) with this condition may run. */
export function reachable(condition: unknown, combos: readonly Combination[]): Combination[] {
  return combos.filter((combo) => mayRun(condition, combo));
}

/** Replaces `${{ matrix.key }}` by the configuration's value; null when another expression remains. */
export function resolveMatrix(text: string, combo: Combination): string | null {
  const resolved = text.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (whole, key: string) => {
    const value = combo[key];
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : whole;
  });
  return resolved.includes('${{') ? null : resolved;
}
