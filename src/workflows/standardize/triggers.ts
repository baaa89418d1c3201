/** Rewrites `on:` to push-on-replay-branches plus workflow_dispatch; gives former inputs their defaults. */
import { isMap, isScalar, isSeq, Scalar, type Document, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { keyOf, mapAt, pairsOf, walkStrings } from '../nodes.js';
import { literal, rewriteExpressions } from '../expressions.js';
import { invalidInput } from '../../errors.js';

interface InputDefault {
  name: string;
  value: unknown;
  hasDefault: boolean;
  type: string | undefined;
  /** Where a value without a default came from (a caller), when one was found. */
  source?: string;
}

/** Values a caller passes to the workflow's inputs (literal, or evaluated for the caller's chosen configuration). */
export type CallerInputs = ReadonlyMap<string, { value: unknown; source: string }>;

export function triggerNames(on: unknown): string[] {
  if (isScalar(on)) return [String(on.value)];
  if (isSeq(on)) return on.items.map((item) => (isScalar(item) ? String(item.value) : String(item)));
  if (isMap(on)) return pairsOf(on).map(keyOf);
  return [];
}

function collectInputs(on: unknown, callers: CallerInputs): InputDefault[] {
  if (!isMap(on)) return [];
  const found = new Map<string, InputDefault>();
  for (const trigger of ['workflow_call', 'workflow_dispatch']) {
    const inputs = mapAt(mapAt(on, trigger), 'inputs');
    for (const pair of pairsOf(inputs)) {
      const name = keyOf(pair);
      if (found.has(name)) continue;
      const spec = isMap(pair.value) ? pair.value : undefined;
      const rawType: unknown = spec?.get('type');
      const type = typeof rawType === 'string' ? rawType : undefined;
      const raw = spec?.get('default', true);
      const hasDefault = isScalar(raw) && raw.value !== null && raw.value !== undefined;
      const caller = callers.get(name);
      if (!hasDefault && caller !== undefined) {
        found.set(name, { name, value: caller.value, hasDefault, type, source: caller.source });
        continue;
      }
      // A required flag nobody sets for a push gates checks (`run-mypy`): running them is what a replay wants.
      const required = spec?.get('required') === true || spec?.get('required') === 'true';
      const fallback = type === 'boolean' ? required : type === 'number' ? 0 : '';
      found.set(name, { name, value: hasDefault ? raw.value : fallback, hasDefault, type });
    }
  }
  return [...found.values()];
}

function expressionLiteral(value: unknown): string {
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return literal(String(value));
}

const INPUT_REFERENCE = /\b(?:github\.event\.)?inputs\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])/g;

/** Workflow keys whose value GitHub reads as a number or a boolean (an input there must stay typed). */
const TYPED_KEYS: Readonly<Record<string, 'number' | 'boolean'>> = {
  'timeout-minutes': 'number',
  'max-parallel': 'number',
  'continue-on-error': 'boolean',
  'fail-fast': 'boolean',
  'cancel-in-progress': 'boolean',
};

/** Rewrites the triggers; returns the report entries. */
export function rewriteTriggers(doc: Document, root: YAMLMap, branchPattern: string, callers: CallerInputs = new Map()): ReportEntry[] {
  const onPair = pairsOf(root).find((pair) => keyOf(pair) === 'on');
  const original = onPair?.value;
  const names = triggerNames(original);
  const inputs = collectInputs(original, callers);
  const replacement = doc.createNode({ push: { branches: [branchPattern] }, workflow_dispatch: null });
  if (onPair === undefined) root.items.unshift(doc.createPair('on', replacement));
  else onPair.value = replacement;
  const onlyNote = names.length > 0 && names.every((name) => ['schedule', 'workflow_call', 'pull_request', 'pull_request_target', 'workflow_dispatch'].includes(name))
    ? `; the workflow ran only on ${names.join(', ')}`
    : '';
  const report: ReportEntry[] = [{
    action: 'rewrote-trigger',
    target: 'on',
    reason: `push to ${branchPattern} and workflow_dispatch (was: ${names.length === 0 ? 'none' : names.join(', ')})${onlyNote}`,
  }];
  if (inputs.length === 0) return report;
  const byName = new Map(inputs.map((input) => [input.name, input]));
  const used = new Set<string>();
  const refInputs = new Set<string>();
  for (const pair of pairsOf(root)) {
    if (keyOf(pair) === 'on') continue;
    walkStrings(pair.value, keyOf(pair), ({ scalar, key }) => {
      const text = String(scalar.value);
      const condition = key === 'if' && !text.includes('${{');
      const source = condition ? `\${{ ${text} }}` : text;
      const rewritten = rewriteExpressions(source, (inner) => {
        const alone = /^\s*(?:github\.event\.)?inputs\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])\s*$/.exec(inner);
        const aloneInput = alone ? byName.get(alone[1] ?? alone[2] ?? '') : undefined;
        if (aloneInput !== undefined && !condition && key === 'ref') {
          used.add(aloneInput.name);
          refInputs.add(aloneInput.name);
          return 'github.sha';
        }
        if (aloneInput !== undefined && !condition) {
          used.add(aloneInput.name);
          return { literal: String(aloneInput.value) };
        }
        return inner.replace(INPUT_REFERENCE, (whole, dotted: string | undefined, indexed: string | undefined) => {
          const input = byName.get(dotted ?? indexed ?? '');
          if (input === undefined) return whole;
          used.add(input.name);
          return expressionLiteral(input.value);
        });
      });
      if (rewritten === source) return;
      const result = condition ? rewritten.replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1') : rewritten;
      const typed = key === undefined ? undefined : TYPED_KEYS[key];
      if (typed === 'number' && /^\d+(?:\.\d+)?$/.test(result)) {
        scalar.value = Number(result);
        scalar.type = Scalar.PLAIN;
        return;
      }
      if (typed === 'boolean' && /^(?:true|false)$/.test(result)) {
        scalar.value = result === 'true';
        scalar.type = Scalar.PLAIN;
        return;
      }
      scalar.value = condition && /^(?:true|false)$/.test(result) ? result === 'true' : result;
      if (key !== 'if' && scalar.type === Scalar.PLAIN && /^[\d.]+$|^(?:true|false)$/.test(result)) scalar.type = Scalar.QUOTE_SINGLE;
    });
  }
  for (const name of refInputs) {
    report.push({ action: 'defaulted-input', target: `inputs.${name}`, reason: 'used as a checkout ref: replaced by github.sha, the pushed commit (its default would check out another revision)' });
  }
  for (const input of inputs) {
    if (!used.has(input.name) || refInputs.has(input.name)) continue;
    const why = input.hasDefault
      ? `replaced by its default ${expressionLiteral(input.value)} (no inputs on push)`
      : input.source !== undefined
        ? `has no default; replaced by ${expressionLiteral(input.value)}, the value ${input.source} passes (no inputs on push)`
        : input.type === 'boolean' && input.value === true
          ? 'has no default and no caller sets it; replaced by true, so the checks it gates run (no inputs on push)'
          : `has no default; replaced by ${expressionLiteral(input.value)} (no inputs on push)`;
    report.push({ action: 'defaulted-input', target: `inputs.${input.name}`, reason: why });
  }
  return report;
}

/** For a reusable workflow installed next to the target: keep only its `workflow_call` trigger. */
export function keepOnlyWorkflowCall(root: YAMLMap, path: string): ReportEntry[] {
  const onPair = pairsOf(root).find((pair) => keyOf(pair) === 'on');
  const names = triggerNames(onPair?.value);
  if (onPair === undefined || !names.includes('workflow_call')) {
    throw invalidInput('not_reusable', `${path} is not a reusable workflow: it has no workflow_call trigger`);
  }
  if (names.length === 1) return [];
  if (isMap(onPair.value)) {
    onPair.value.items = pairsOf(onPair.value).filter((pair) => keyOf(pair) === 'workflow_call');
  } else {
    onPair.value = new Scalar('workflow_call');
  }
  return [{ action: 'rewrote-trigger', target: 'on', reason: `workflow_call only, so it runs only when the target calls it (was: ${names.join(', ')})` }];
}
