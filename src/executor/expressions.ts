import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import type { FunctionDefinition } from '@actions/expressions/funcs/info';
import { invalidInput } from '../errors.js';

/** Plain JSON-like values of the expression contexts (`github`, `env`, `matrix`, `needs`, `steps`, ...). */
export type ContextValue = string | number | boolean | null | ContextValue[] | { [key: string]: ContextValue };
export type Contexts = Record<string, ContextValue>;

/** Status of the job (step level) or of the needed jobs (job level), for success()/failure()/cancelled(). */
export interface StatusState {
  failed: boolean;
  cancelled: boolean;
  /** A needed job did not succeed without failing (skipped or cancelled): success() is false. */
  blocked?: boolean;
}

const CONTEXT_NAMES = ['github', 'env', 'matrix', 'needs', 'steps', 'job', 'runner', 'inputs', 'secrets', 'strategy', 'vars', 'jobs'];

export function toExpressionData(value: ContextValue): data.ExpressionData {
  if (value === null) return new data.Null();
  if (typeof value === 'string') return new data.StringData(value);
  if (typeof value === 'number') return new data.NumberData(value);
  if (typeof value === 'boolean') return new data.BooleanData(value);
  if (Array.isArray(value)) return new data.Array(...value.map(toExpressionData));
  return new data.Dictionary(...Object.entries(value).map(([key, v]) => ({ key, value: toExpressionData(v) })));
}

function statusFunctions(status: StatusState, hashFiles: (patterns: string[]) => string): Map<string, FunctionDefinition> {
  const fn = (name: string, result: () => boolean): FunctionDefinition => ({
    name,
    minArgs: 0,
    maxArgs: 0,
    call: () => new data.BooleanData(result()),
  });
  return new Map<string, FunctionDefinition>([
    ['success', fn('success', () => !status.failed && !status.cancelled && status.blocked !== true)],
    ['failure', fn('failure', () => status.failed && !status.cancelled)],
    ['cancelled', fn('cancelled', () => status.cancelled)],
    ['always', fn('always', () => true)],
    [
      'hashfiles',
      {
        name: 'hashFiles',
        minArgs: 1,
        maxArgs: 255,
        call: (...args) => new data.StringData(hashFiles(args.map((a) => a.coerceString()))),
      },
    ],
  ]);
}

export interface EvalEnv {
  contexts: Contexts;
  status: StatusState;
  hashFiles?: (patterns: string[]) => string;
}

/** Evaluates one expression (without the `${{ }}` wrapper) with GitHub's own engine. */
export function evaluateExpression(expression: string, env: EvalEnv): data.ExpressionData {
  const functions = statusFunctions(env.status, env.hashFiles ?? (() => ''));
  try {
    const { tokens } = new Lexer(expression).lex();
    const tree = new Parser(tokens, CONTEXT_NAMES, [...functions.values()]).parse();
    const dictionary = new data.Dictionary(
      ...Object.entries(env.contexts).map(([key, value]) => ({ key, value: toExpressionData(value) })),
    );
    return new Evaluator(tree, dictionary, functions).evaluate();
  } catch (error) {
    throw invalidInput('invalid_expression', `invalid expression '${expression}': ${(error as Error).message}`);
  }
}

function truthy(value: data.ExpressionData): boolean {
  switch (value.kind) {
    case data.Kind.Null:
      return false;
    case data.Kind.Boolean:
      return (value as data.BooleanData).value;
    case data.Kind.Number: {
      const n = (value as data.NumberData).value;
      return n !== 0 && !Number.isNaN(n);
    }
    case data.Kind.String:
      return (value as data.StringData).value !== '';
    default:
      return true;
  }
}

const STATUS_FUNCTION = /\b(success|failure|cancelled|always)\s*\(/i;

/**
 * Evaluates an `if:` condition like GitHub: an optional `${{ }}` wrapper, and an implicit
 * `success() && (...)` when the condition calls none of the status functions.
 */
export function evaluateCondition(condition: string | boolean | undefined, env: EvalEnv): boolean {
  const success = !env.status.failed && !env.status.cancelled && env.status.blocked !== true;
  if (condition === undefined) return success;
  if (typeof condition === 'boolean') return condition && success;
  let text = condition.trim();
  const wrapped = /^\$\{\{([\s\S]*)\}\}$/.exec(text);
  if (wrapped?.[1] !== undefined && !wrapped[1].includes('}}')) text = wrapped[1].trim();
  if (text === '') text = 'success()';
  const expression = STATUS_FUNCTION.test(text) ? text : `success() && (${text})`;
  return truthy(evaluateExpression(expression, env));
}

/** Renders a value the way `${{ }}` interpolation does. */
export function renderValue(value: data.ExpressionData): string {
  if (value.kind === data.Kind.Dictionary || value.kind === data.Kind.Array) {
    return JSON.stringify(JSON.parse(JSON.stringify(value, data.replacer)), null, 2);
  }
  return value.coerceString();
}

/** Replaces every `${{ expr }}` in a string. */
export function interpolate(text: string, env: EvalEnv): string {
  if (!text.includes('${{')) return text;
  let out = '';
  let index = 0;
  while (index < text.length) {
    const start = text.indexOf('${{', index);
    if (start < 0) break;
    const end = findClose(text, start + 3);
    if (end < 0) throw invalidInput('invalid_expression', `unclosed expression in '${text}'`);
    out += text.slice(index, start) + renderValue(evaluateExpression(text.slice(start + 3, end).trim(), env));
    index = end + 2;
  }
  return out + text.slice(index);
}

/** Finds the `}}` closing an expression, skipping single-quoted string literals. */
function findClose(text: string, from: number): number {
  let inString = false;
  for (let i = from; i < text.length - 1; i += 1) {
    const c = text[i];
    if (c === "'") inString = !inString;
    else if (!inString && c === '}' && text[i + 1] === '}') return i;
  }
  return -1;
}

/** Deep-interpolates a YAML value (strings inside objects/arrays). */
export function interpolateDeep(value: unknown, env: EvalEnv): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((v) => interpolateDeep(v, env));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateDeep(v, env)]));
  }
  return value;
}
