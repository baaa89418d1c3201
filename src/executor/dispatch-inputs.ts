import { invalidInput } from '../errors.js';
import type { ContextValue } from './expressions.js';

const INPUT_TYPES = ['string', 'boolean', 'number', 'choice', 'environment'] as const;
export type DispatchInputType = (typeof INPUT_TYPES)[number];

/** One `on.workflow_dispatch.inputs.<name>` declaration. */
export interface DispatchInputDef {
  type: DispatchInputType;
  /** The declared default as YAML gave it; null when none is declared. */
  default: string | number | boolean | null;
  /** The allowed values of a `choice` input. */
  options: string[];
}

/** Input values a caller passes for a `workflow_dispatch` run (as the dispatch API accepts them). */
export type DispatchInputValues = Record<string, string | number | boolean>;

/** Resolved inputs: typed for the `inputs` context, strings for `github.event.inputs`. */
export interface ResolvedDispatchInputs {
  context: Record<string, ContextValue>;
  event: Record<string, string>;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInputType = (v: string): v is DispatchInputType => INPUT_TYPES.some((t) => t === v);

/** Parses `on.workflow_dispatch.inputs`; an input type GitHub does not know is an `invalid_workflow` error. */
export function parseDispatchInputs(raw: Record<string, unknown>, path: string): Record<string, DispatchInputDef> {
  const out: Record<string, DispatchInputDef> = {};
  for (const [name, value] of Object.entries(raw)) {
    const spec = isObj(value) ? value : {};
    const type = spec.type === undefined || spec.type === null ? 'string' : String(spec.type);
    if (!isInputType(type)) {
      throw invalidInput('invalid_workflow', `workflow ${path}: on.workflow_dispatch.inputs.${name} has unknown type '${type}' (expected one of ${INPUT_TYPES.join(', ')})`);
    }
    const dflt = spec.default;
    out[name] = {
      type,
      default: typeof dflt === 'string' || typeof dflt === 'number' || typeof dflt === 'boolean' ? dflt : null,
      options: Array.isArray(spec.options) ? spec.options.map((o) => String(o)) : [],
    };
  }
  return out;
}

/** A value for the `inputs` context: booleans and numbers keep their type, everything else is a string. */
function typed(def: DispatchInputDef, value: string | number | boolean | null): ContextValue {
  if (def.type === 'boolean') return value === true || String(value).trim().toLowerCase() === 'true';
  if (def.type === 'number' && value !== null && String(value).trim() !== '') {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
  }
  return value === null ? '' : String(value);
}

/** Why a provided value does not fit its declaration, or null when it does. */
function problem(name: string, def: DispatchInputDef, value: unknown): string | null {
  const shown = JSON.stringify(value);
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return `input '${name}' must be a string, number or boolean, got ${shown}`;
  if (def.type === 'boolean' && value !== true && value !== false && value !== 'true' && value !== 'false') {
    return `input '${name}' is a boolean: expected true or false, got ${shown}`;
  }
  if (def.type === 'number' && (typeof value === 'boolean' || String(value).trim() === '' || !Number.isFinite(Number(value)))) {
    return `input '${name}' is a number, got ${shown}`;
  }
  if (def.type === 'choice' && !def.options.includes(String(value))) {
    return `input '${name}' must be one of ${def.options.map((o) => `'${o}'`).join(', ')}, got ${shown}`;
  }
  return null;
}

/**
 * The inputs of a `workflow_dispatch` run: each declared input gets the provided value or its default
 * (a boolean without default is false, anything else without default is empty). Provided values are
 * checked like GitHub's dispatch API does: an undeclared input, a non-boolean for a boolean, a non-number
 * for a number or a value outside a choice's options is an `invalid_input` error naming every problem.
 */
export function resolveDispatchInputs(defs: Record<string, DispatchInputDef>, provided: DispatchInputValues = {}): ResolvedDispatchInputs {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(provided)) {
    const def = defs[name];
    if (def === undefined) {
      const declared = Object.keys(defs);
      problems.push(`unexpected input '${name}' (${declared.length === 0 ? 'the workflow declares no workflow_dispatch inputs' : `declared: ${declared.join(', ')}`})`);
      continue;
    }
    const why = problem(name, def, value);
    if (why !== null) problems.push(why);
  }
  if (problems.length > 0) throw invalidInput('invalid_dispatch_inputs', `workflow_dispatch inputs rejected: ${problems.join('; ')}`, { problems });
  const context: Record<string, ContextValue> = {};
  const event: Record<string, string> = {};
  for (const [name, def] of Object.entries(defs)) {
    const value = Object.hasOwn(provided, name) ? (provided[name] ?? null) : def.type === 'boolean' ? (def.default ?? false) : def.default;
    const resolved = typed(def, value);
    context[name] = resolved;
    event[name] = typeof resolved === 'boolean' ? String(resolved) : value === null ? '' : String(value);
  }
  return { context, event };
}
