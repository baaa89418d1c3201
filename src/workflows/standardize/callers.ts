/** What the callers of a reusable workflow pass to its inputs, evaluated the way the replay would run them. */
import { isMap, isNode, isScalar, parseDocument, type YAMLMap } from 'yaml';
import type { MatrixStrategy, SiblingWorkflow } from '../types.js';
import { keyOf, mapAt, pairsOf, stringAt } from '../nodes.js';
import { expandMatrix, selectCombination, type Combination, type MatrixModel } from '../matrix/index.js';
import type { CallerInputs } from './triggers.js';

export function normalizeWorkflowPath(path: string): string {
  return path.trim().replace(/^\.\//, '').replace(/^\/+/, '').split('@')[0] ?? path;
}

function modelOf(matrix: YAMLMap): MatrixModel | undefined {
  const model: MatrixModel = { keys: [], values: new Map(), include: [], exclude: [] };
  for (const pair of pairsOf(matrix)) {
    const key = keyOf(pair);
    const plain: unknown = isNode(pair.value) ? pair.value.toJSON() : pair.value;
    if (typeof plain === 'string' && plain.includes('${{')) return undefined;
    if (key === 'include' || key === 'exclude') {
      const entries = Array.isArray(plain) ? plain.filter((entry): entry is Combination => typeof entry === 'object' && entry !== null) : [];
      if (key === 'include') model.include = entries;
      else model.exclude = entries;
      continue;
    }
    model.keys.push(key);
    model.values.set(key, Array.isArray(plain) ? plain : [plain]);
  }
  return model;
}

/** The configuration the replay keeps for a caller job's matrix. */
function chosenConfiguration(job: YAMLMap, jobId: string, strategy: MatrixStrategy, pinDate: Date | undefined): Combination | undefined {
  const matrix = mapAt(mapAt(job, 'strategy'), 'matrix');
  const model = matrix === undefined ? undefined : modelOf(matrix);
  if (model === undefined) return undefined;
  const combos = expandMatrix(model);
  if (combos.length === 0) return undefined;
  const selection = selectCombination({ combos, strategy, jobId, jobName: stringAt(job, 'name'), failedJobNames: [], gatedConditions: [], pinDate });
  return combos[selection.index]?.values;
}

function lookup(values: Combination | undefined, path: readonly string[]): unknown {
  let current: unknown = values;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Input values the callers of `path` pass (literals, or `${{ matrix.x }}` evaluated for the caller's chosen configuration). */
export function callerInputs(path: string, workflows: readonly SiblingWorkflow[], strategy: MatrixStrategy, pinDate: Date | undefined): CallerInputs {
  const target = normalizeWorkflowPath(path);
  const found = new Map<string, { value: unknown; source: string }>();
  for (const file of workflows) {
    if (normalizeWorkflowPath(file.path) === target) continue;
    const doc = parseDocument(file.text);
    const jobs = doc.errors.length === 0 && isMap(doc.contents) ? doc.contents.get('jobs', true) : undefined;
    if (!isMap(jobs)) continue;
    for (const pair of pairsOf(jobs)) {
      const job = isMap(pair.value) ? pair.value : undefined;
      const uses = job === undefined ? undefined : stringAt(job, 'uses');
      if (job === undefined || uses === undefined || normalizeWorkflowPath(uses) !== target) continue;
      let configuration: Combination | undefined;
      for (const input of pairsOf(mapAt(job, 'with'))) {
        const name = keyOf(input);
        if (found.has(name) || !isScalar(input.value)) continue;
        const raw = input.value.value;
        const source = `${file.path} (jobs.${keyOf(pair)})`;
        if (typeof raw !== 'string' || !raw.includes('${{')) {
          found.set(name, { value: raw, source });
          continue;
        }
        const matrixRef = /^\$\{\{\s*matrix\.([\w.-]+)\s*\}\}$/.exec(raw.trim());
        if (matrixRef?.[1] === undefined) continue;
        configuration ??= chosenConfiguration(job, keyOf(pair), strategy, pinDate);
        const value = lookup(configuration, matrixRef[1].split('.'));
        if (value !== undefined && (typeof value !== 'object' || value === null)) found.set(name, { value, source: `${source} for its chosen configuration` });
      }
    }
  }
  return found;
}
