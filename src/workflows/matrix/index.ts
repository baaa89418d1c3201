/** Reduces a job's matrix to one configuration, or keeps it whole and says why. */
import { Document, isMap, isScalar, isSeq, type YAMLMap, type YAMLSeq } from 'yaml';
import type { MatrixStrategy, ReportEntry } from '../types.js';
import { keyOf, mapAt, nodeText, pairsOf, stringAt } from '../nodes.js';
import { displayValue, expandMatrix, sameValue, type Combination, type MatrixModel } from './expand.js';
import { selectCombination } from './select.js';

export { expandMatrix, type MatrixModel, type Combination } from './expand.js';
export { selectCombination, renderJobName, gateSatisfied } from './select.js';

export interface MatrixOptions {
  strategy: MatrixStrategy;
  failedJobNames: readonly string[];
  pinDate?: Date | undefined;
}

const SHARD_KEY = /^(?:group|groups|shard|shards|split|splits|chunk|chunks|part|parts|slice|slices|partition|test-group|test_group|pytest-group|ci-node-index|node-index|path|paths|test-path|test-paths|test-dir|test-dirs|module|modules|test-files)$/i;
const TASK_KEY = /^(?:task|tasks|session|sessions|nox-session|toxenv|tox-env|tox_env|tox|env|envs|check|checks|command|commands|cmd|job|target|targets|suite|suites|test-suite|test-type|test_type|step|tool|linter)$/i;
const TASK_VALUE = /^(?:lint|linting|linters|typecheck|type-check|typing|types|mypy|pyright|test|tests|unit|unit-tests|integration|docs|doc|format|formatting|style|flake8|ruff|pylint|pre-commit|precommit|security|bandit|isort|black|check-manifest|doctest|doctests)$/i;
const PYTHON_LIKE = /^(?:py|python|cp|pypy)?-?\d+(?:\.\d+)*(?:-\w+)?$|^py\d+/i;

function toModel(matrix: YAMLMap): { model: MatrixModel; dynamic: string | undefined } {
  const model: MatrixModel = { keys: [], values: new Map(), include: [], exclude: [] };
  let dynamic: string | undefined;
  for (const pair of pairsOf(matrix)) {
    const key = keyOf(pair);
    const value = pair.value;
    if (isScalar(value) && typeof value.value === 'string' && value.value.includes('${{')) {
      dynamic = `\`${key}\` is computed at run time (${value.value.trim()})`;
      continue;
    }
    const plain: unknown = isSeq(value) || isMap(value) || isScalar(value) ? value.toJSON() : value;
    if (key === 'include' || key === 'exclude') {
      const entries = Array.isArray(plain) ? plain.filter((entry): entry is Combination => typeof entry === 'object' && entry !== null) : [];
      if (key === 'include') model.include = entries;
      else model.exclude = entries;
      continue;
    }
    model.keys.push(key);
    model.values.set(key, Array.isArray(plain) ? plain : [plain]);
  }
  return { model, dynamic };
}

interface WholeKey {
  key: string;
  reason: string;
}

/** Keys whose entries are different tasks or test shards: reducing them would lose checks. */
function wholeKeys(combos: ReadonlyArray<{ values: Combination }>): WholeKey[] {
  const keys = [...new Set(combos.flatMap((combo) => Object.keys(combo.values)))];
  return keys.flatMap((key) => {
    const values = [...new Set(combos.map((combo) => displayValue(combo.values[key])))];
    if (values.length < 2) return [];
    if (SHARD_KEY.test(key)) return [{ key, reason: `its \`${key}\` entries are test shards (${values.join(', ')}); one configuration would skip tests` }];
    const tasks = (TASK_KEY.test(key) && !values.every((value) => PYTHON_LIKE.test(value))) || values.some((value) => TASK_VALUE.test(value));
    return tasks ? [{ key, reason: `its \`${key}\` entries are different tasks (${values.join(', ')})` }] : [];
  });
}

function describe(values: Combination): string {
  return Object.entries(values).map(([key, value]) => `${key}=${displayValue(value)}`).join(', ');
}

/** Standardizes `jobs.<jobId>.strategy.matrix` in place; returns the report entries. */
export function standardizeMatrix(job: YAMLMap, jobId: string, options: MatrixOptions): ReportEntry[] {
  const strategy = mapAt(job, 'strategy');
  const matrixNode = strategy?.get('matrix', true);
  const target = `jobs.${jobId}.strategy.matrix`;
  if (strategy === undefined || matrixNode === undefined) return [];
  if (isScalar(matrixNode)) {
    return [{ action: 'kept-matrix', target, reason: `built at run time (${String(matrixNode.value).trim()}); left as is` }];
  }
  if (!isMap(matrixNode)) return [];
  const { model, dynamic } = toModel(matrixNode);
  if (dynamic !== undefined) return [{ action: 'kept-matrix', target, reason: `${dynamic}; left as is` }];
  const combos = expandMatrix(model);
  if (combos.length <= 1) return [];
  const whole = wholeKeys(combos);
  const failFast = strategy.get('fail-fast') === false ? '' : '; fail-fast is on, so a failing entry cancels the others';
  const partial = whole.length > 0 && model.include.length === 0 && model.exclude.length === 0
    && whole.every((entry) => model.keys.includes(entry.key))
    && model.keys.some((key) => !whole.some((entry) => entry.key === key) && (model.values.get(key) ?? []).length > 1);
  const steps = job.get('steps', true);
  const gatedConditions = isSeq(steps)
    ? steps.items.flatMap((step) => {
      const condition = isMap(step) ? stringAt(step, 'if') : undefined;
      return condition !== undefined && condition.includes('matrix.') ? [condition] : [];
    })
    : [];
  const select = (candidates: readonly (typeof combos)[number][]) => selectCombination({
    combos: candidates,
    strategy: options.strategy,
    jobId,
    jobName: stringAt(job, 'name'),
    failedJobNames: options.failedJobNames,
    gatedConditions,
    pinDate: options.pinDate,
  });
  if (whole.length > 0 && !partial) {
    const grouped = whole.some((entry) => SHARD_KEY.test(entry.key)) ? undefined : reduceByTask(matrixNode, combos, whole.map((entry) => entry.key), select);
    if (grouped !== undefined) {
      const usedKeys = definedKeysUsed(job, combos, grouped.kept.map((combo) => combo.values));
      defineKeys(matrixNode, usedKeys);
      return [{
        action: 'reduced-matrix',
        target,
        reason: grouped.tasks.length === 0
          ? `kept ${describe(grouped.plain?.values ?? {})} (${combos.length} → 1 configurations), chosen as ${grouped.why}: its ${whole.map((entry) => `\`${entry.key}\``).join(', ')} entries name Python versions, not tasks; the matrix is written as its kept include entry${failFast}`
          : `kept ${grouped.kept.length} of ${combos.length} configurations: one per distinct task of ${whole.map((entry) => `\`${entry.key}\``).join(', ')} (${grouped.tasks.join('; ')})${grouped.plain === undefined ? '' : `, and ${describe(grouped.plain.values)} for the others, chosen as ${grouped.why}`}; the matrix is written as its kept include entries${failFast}`,
      }];
    }
    return [{ action: 'kept-matrix', target, reason: `kept all ${combos.length} configurations: ${whole.map((entry) => entry.reason).join('; ')}${failFast}` }];
  }

  const selection = select(combos);
  const chosen = combos[selection.index];
  if (chosen === undefined) return [];
  if (partial) {
    const reduced = model.keys.filter((key) => !whole.some((entry) => entry.key === key));
    reduceKeys(matrixNode, reduced, chosen.values);
    const kept = combos.length / reduced.reduce((count, key) => count * (model.values.get(key) ?? []).length, 1);
    const shown = reduced.map((key) => `${key}=${displayValue(chosen.values[key])}`).join(', ');
    return [{
      action: 'kept-matrix',
      target,
      reason: `kept every entry of ${whole.map((entry) => `\`${entry.key}\``).join(', ')}: ${whole.map((entry) => entry.reason).join('; ')}; reduced the rest to ${shown} (${combos.length} → ${kept} configurations), chosen as ${selection.why}${failFast}`,
    }];
  }
  const notes = writeBack(matrixNode, model, chosen);
  const lost = [...new Set(combos.flatMap((combo) => Object.keys(combo.values)))].filter((key) => !(key in chosen.values));
  const used = lost.filter((key) => new RegExp(String.raw`\bmatrix\.${key.replaceAll(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\b`).test(nodeText(job)));
  defineKeys(matrixNode, used);
  const lostNote = used.length === 0 ? '' : `; ${used.map((key) => `matrix.${key}`).join(', ')} (set only by dropped entries) ${used.length === 1 ? 'is' : 'are'} defined as '', the value ${used.length === 1 ? 'it' : 'they'} had in this configuration`;
  const reason = `kept ${describe(chosen.values)} (${combos.length} → 1 configurations), chosen as ${selection.why}${notes}${lostNote}`;
  return [{ action: 'reduced-matrix', target, reason }];
}

function taskSignature(values: Combination, keys: readonly string[]): string {
  return keys.map((key) => {
    const value = displayValue(values[key]);
    return value === '' || PYTHON_LIKE.test(value) ? '' : `${key}=${value}`;
  }).filter((part) => part !== '').join(', ');
}

/**
 * A matrix whose task keys come from some entries only (an include that adds a tox environment to a Python × OS
 * product): the plain configurations are reduced to one, and one configuration per distinct task is kept. Undefined
 * when every configuration is a distinct task (nothing to reduce).
 */
function reduceByTask(
  matrix: YAMLMap,
  combos: ReturnType<typeof expandMatrix>,
  taskKeys: readonly string[],
  select: (candidates: ReturnType<typeof expandMatrix>) => { index: number; why: string },
): { kept: ReturnType<typeof expandMatrix>; tasks: string[]; plain: ReturnType<typeof expandMatrix>[number] | undefined; why: string } | undefined {
  const groups = new Map<string, ReturnType<typeof expandMatrix>>();
  for (const combo of combos) {
    const signature = taskSignature(combo.values, taskKeys);
    groups.set(signature, [...(groups.get(signature) ?? []), combo]);
  }
  if (groups.size >= combos.length) return undefined;
  let why = 'the first configuration';
  let plain: ReturnType<typeof expandMatrix>[number] | undefined;
  const kept = [...groups.entries()].flatMap(([signature, members]) => {
    const selection = select(members);
    const chosen = members[selection.index];
    if (signature === '') {
      plain = chosen;
      why = selection.why;
    }
    return chosen === undefined ? [] : [chosen];
  });
  for (const pair of [...matrix.items]) matrix.delete(pair.key);
  matrix.set('include', new Document().createNode(kept.map((combo) => combo.values), { aliasDuplicateObjects: false }));
  return { kept, tasks: [...groups.keys()].filter((signature) => signature !== ''), plain, why };
}

function definedKeysUsed(job: YAMLMap, combos: ReturnType<typeof expandMatrix>, kept: readonly Combination[]): string[] {
  const all = [...new Set(combos.flatMap((combo) => Object.keys(combo.values)))];
  const missing = all.filter((key) => kept.some((values) => !(key in values)));
  return missing.filter((key) => new RegExp(String.raw`\bmatrix\.${key.replaceAll(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\b`).test(nodeText(job)));
}

/**
 * Defines matrix keys the chosen configuration lacks but the job reads, as '' (what an unset key evaluates to), so
 * that the reduced matrix still declares every key its expressions use.
 */
function defineKeys(matrix: YAMLMap, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const include = matrix.get('include', true);
  const productKeys = pairsOf(matrix).filter((pair) => !['include', 'exclude'].includes(keyOf(pair)));
  if (productKeys.length === 0 && isSeq(include)) {
    for (const entry of include.items) if (isMap(entry)) for (const key of keys) if (!entry.has(key)) entry.set(key, '');
    return;
  }
  for (const key of keys) if (!matrix.has(key)) matrix.set(key, ['']);
}

function plural(count: number): string {
  return count === 1 ? 'entry that extends' : 'entries that extend';
}

/** Keeps only the chosen value of each of `keys`. */
function reduceKeys(matrix: YAMLMap, keys: readonly string[], values: Combination): void {
  for (const key of keys) {
    const node = matrix.get(key, true);
    if (!isSeq(node)) continue;
    const seq: YAMLSeq = node;
    const keep = seq.items.find((item) => sameValue(isScalar(item) || isMap(item) || isSeq(item) ? item.toJSON() : item, values[key]));
    seq.items = keep === undefined ? [] : [keep];
  }
}

function writeBack(matrix: YAMLMap, model: MatrixModel, chosen: ReturnType<typeof expandMatrix>[number]): string {
  const includeNode = matrix.get('include', true);
  const includeItems = isSeq(includeNode) ? [...includeNode.items] : [];
  const droppedIncludes = model.include.length - chosen.includes.length;
  const notes: string[] = [];
  if (model.exclude.length > 0) {
    matrix.delete('exclude');
    notes.push(`dropped ${model.exclude.length} exclude entr${model.exclude.length === 1 ? 'y' : 'ies'}`);
  }
  if (chosen.fromProduct) reduceKeys(matrix, model.keys, chosen.values);
  else for (const key of model.keys) matrix.delete(key);
  if (isSeq(includeNode)) {
    includeNode.items = includeItems.filter((_, index) => chosen.includes.includes(index));
    if (includeNode.items.length === 0) matrix.delete('include');
  }
  if (droppedIncludes > 0) notes.push(`dropped ${droppedIncludes} include ${droppedIncludes === 1 ? 'entry that no longer applies' : 'entries that no longer apply'}`);
  if (chosen.includes.length > 0) notes.push(`kept ${chosen.includes.length} include ${plural(chosen.includes.length)} it`);
  return notes.length === 0 ? '' : `; ${notes.join('; ')}`;
}
