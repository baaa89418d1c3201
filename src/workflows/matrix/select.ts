/** Choosing the one matrix configuration a replay runs. */
import type { MatrixStrategy } from '../types.js';
import { splitTopLevel, stripOuterParens, unwrapCondition } from '../expressions.js';
import { displayValue, type ExpandedCombination } from './expand.js';
import { unreleasedAt } from './python-releases.js';

export interface SelectionInput {
  combos: readonly ExpandedCombination[];
  strategy: MatrixStrategy;
  jobId: string;
  /** The job's `name:` (may use `${{ matrix.x }}`). */
  jobName: string | undefined;
  failedJobNames: readonly string[];
  /** `if:` conditions of the job's steps that mention the matrix. */
  gatedConditions: readonly string[];
  /** The instance's commit date: Python versions not yet released then count as pre-releases. */
  pinDate?: Date | undefined;
}

export interface Selection {
  index: number;
  why: string;
}

const OS_KEY = /^(?:os|platform|runs-on|runner|operating-system|os-version)$/i;

function isOsKey(key: string, value: unknown): boolean {
  return OS_KEY.test(key) || (typeof value === 'string' && /^(?:ubuntu|windows|macos)-/.test(value));
}

function isPythonKey(key: string): boolean {
  return /python|^py$|^pyver/i.test(key);
}

/** Whether a step gated by `condition` runs for the combination; undefined when it cannot tell. */
export function gateSatisfied(condition: string, values: Record<string, unknown>): boolean | undefined {
  const clauses = splitTopLevel(unwrapCondition(condition), '&&').map(stripOuterParens);
  let decided: boolean | undefined;
  for (const clause of clauses) {
    const result = evaluateMatrixClause(clause, values);
    if (result === false) return false;
    if (result === true) decided = true;
  }
  return decided;
}

function evaluateMatrixClause(clause: string, values: Record<string, unknown>): boolean | undefined {
  const compare = /^matrix\.([\w-]+)\s*(==|!=)\s*'([^']*)'$|^'([^']*)'\s*(==|!=)\s*matrix\.([\w-]+)$/.exec(clause);
  if (compare) {
    const key = compare[1] ?? compare[6] ?? '';
    const op = compare[2] ?? compare[5];
    const expected = compare[3] ?? compare[4] ?? '';
    if (!(key in values)) return undefined;
    const equal = displayValue(values[key]).toLowerCase() === expected.toLowerCase();
    return op === '==' ? equal : !equal;
  }
  const call = /^(!?)\s*(startsWith|contains|endsWith)\(\s*matrix\.([\w-]+)\s*,\s*'([^']*)'\s*\)$/.exec(clause);
  if (call) {
    const key = call[3] ?? '';
    if (!(key in values)) return undefined;
    const actual = displayValue(values[key]).toLowerCase();
    const needle = (call[4] ?? '').toLowerCase();
    const result = call[2] === 'startsWith' ? actual.startsWith(needle) : call[2] === 'endsWith' ? actual.endsWith(needle) : actual.includes(needle);
    return call[1] === '!' ? !result : result;
  }
  return undefined;
}

/** The job name GitHub shows for a combination. */
export function renderJobName(jobId: string, jobName: string | undefined, values: Record<string, unknown>): string {
  const base = jobName ?? jobId;
  if (/\$\{\{[^}]*\bmatrix\./.test(base)) {
    return base.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (_, key: string) => displayValue(values[key]));
  }
  const shown = Object.values(values).map(displayValue);
  return shown.length === 0 ? base : `${base} (${shown.join(', ')})`;
}

function parenthetical(name: string): string[] | undefined {
  const match = /\(([^()]*)\)\s*$/.exec(name);
  return match?.[1]?.split(',').map((part) => part.trim());
}

function matchesFailedName(combo: ExpandedCombination, input: SelectionInput, failed: string): boolean {
  const rendered = renderJobName(input.jobId, input.jobName, combo.values);
  const name = failed.trim();
  if (name === rendered || name.endsWith(` / ${rendered}`)) return true;
  const parts = parenthetical(name);
  if (parts === undefined || (input.jobName !== undefined && /\$\{\{/.test(input.jobName))) return false;
  const shown = Object.values(combo.values).map(displayValue);
  return parts.length === shown.length && parts.every((part, index) => part === shown[index]);
}

interface PythonRank {
  cpython: number;
  stable: number;
  /** 0 for free-threaded (`3.13t`) or debug builds: final CPython, but not the standard build. */
  standard: number;
  numbers: number[];
}

/**
 * How a Python version ranks for `newest-python`: the newest final standard CPython first, then free-threaded builds,
 * then pre-releases (dev, alpha, beta, rc, or a version whose final release came after the pin date, or after today
 * without one), PyPy and GraalPy last.
 */
function pythonRank(value: unknown, pinDate: Date | undefined): PythonRank {
  const text = displayValue(value).toLowerCase();
  const numbers = (text.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  return {
    cpython: text.includes('pypy') || text.includes('graalpy') ? 0 : 1,
    stable: /dev|alpha|beta|rc|-a|-b|\d[ab]\d/.test(text) || unreleasedAt(numbers, pinDate ?? new Date()) ? 0 : 1,
    standard: /\dt\b|\dt$|-?nogil|free-?thread|-dbg|debug/.test(text) ? 0 : 1,
    numbers: text.endsWith('.x') ? [...numbers, 999] : numbers,
  };
}

function comparePython(a: unknown, b: unknown, pinDate: Date | undefined): number {
  const left = pythonRank(a, pinDate);
  const right = pythonRank(b, pinDate);
  if (left.cpython !== right.cpython) return left.cpython - right.cpython;
  if (left.stable !== right.stable) return left.stable - right.stable;
  if (left.standard !== right.standard) return left.standard - right.standard;
  for (let i = 0; i < Math.max(left.numbers.length, right.numbers.length); i += 1) {
    const diff = (left.numbers[i] ?? -1) - (right.numbers[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
}

function ubuntuScore(values: Record<string, unknown>): number {
  const os = Object.entries(values).filter(([key, value]) => isOsKey(key, value));
  if (os.length === 0) return 1;
  return os.every(([, value]) => displayValue(value).toLowerCase().startsWith('ubuntu')) ? 1 : 0;
}

function pythonValue(values: Record<string, unknown>): unknown {
  const entry = Object.entries(values).find(([key]) => isPythonKey(key));
  return entry?.[1];
}

/** Picks the configuration to keep. */
export function selectCombination(input: SelectionInput): Selection {
  const indexes = input.combos.map((_, index) => index);
  // The failed job names of the instance show the configuration that failed: for `newest-python` too, that one wins.
  if (input.strategy === 'from-logs' || input.strategy === 'newest-python') {
    for (const failed of input.failedJobNames) {
      const found = indexes.find((index) => {
        const combo = input.combos[index];
        return combo !== undefined && matchesFailedName(combo, input, failed);
      });
      if (found !== undefined && failed.trim() !== '') return { index: found, why: `the failed job "${failed.trim()}" in the instance logs` };
    }
  }
  const gateScore = (index: number): number => {
    const combo = input.combos[index];
    if (combo === undefined) return 0;
    return input.gatedConditions.filter((condition) => gateSatisfied(condition, combo.values) !== false).length;
  };
  const bestGate = Math.max(...indexes.map(gateScore));
  const gated = indexes.filter((index) => gateScore(index) === bestGate);
  const gateNote = input.gatedConditions.length > 0 ? ' among those that run the most matrix-gated steps' : '';
  const values = (index: number): Record<string, unknown> => input.combos[index]?.values ?? {};
  const fallbackNote = input.strategy === 'from-logs' ? 'no failed job name matched the matrix; fell back to ' : '';
  const hasOs = input.combos.some((combo) => Object.entries(combo.values).some(([key, value]) => isOsKey(key, value)));
  const osNote = hasOs ? ', preferring ubuntu' : '';
  const hasPython = gated.some((index) => pythonValue(values(index)) !== undefined);
  if (input.strategy === 'newest-python' && hasPython) {
    const best = gated.reduce((chosen, index) => {
      const order = comparePython(pythonValue(values(index)), pythonValue(values(chosen)), input.pinDate);
      if (order > 0) return index;
      if (order === 0 && ubuntuScore(values(index)) > ubuntuScore(values(chosen))) return index;
      return chosen;
    });
    return { index: best, why: `${fallbackNote}the newest Python version${gateNote}${osNote}` };
  }
  const ubuntu = gated.find((index) => ubuntuScore(values(index)) === 1);
  return { index: ubuntu ?? gated[0] ?? 0, why: `${fallbackNote}the first configuration${gateNote}${osNote}` };
}
