import type { StepRuntime } from '../job-runner/step-runtime.js';
import type { ActionManifest } from './types.js';

/** GitHub's variable for an input: `INPUT_` + the name upper-cased, spaces as underscores. */
export const inputVariable = (name: string): string => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;

/**
 * The action's inputs as GitHub computes them: the step's `with:` over the declared defaults (evaluated with
 * `evaluate`). A required input without a value and an undeclared input are warnings, as on GitHub.
 */
export function resolveInputs(
  rt: StepRuntime,
  manifest: ActionManifest,
  given: Record<string, string>,
  evaluate: (text: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  const declared = Object.keys(manifest.inputs);
  const lower = new Map(declared.map((name) => [name.toLowerCase(), name]));
  for (const [name, def] of Object.entries(manifest.inputs)) {
    if (def.default !== undefined) out[name] = evaluate(def.default);
  }
  const unexpected: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    const key = lower.get(name.toLowerCase());
    if (key === undefined) unexpected.push(name);
    out[key ?? name] = value;
  }
  if (unexpected.length > 0 && declared.length > 0) {
    rt.state.log.line(`##[warning]Unexpected input(s) '${unexpected.join("', '")}', valid inputs are ['${declared.join("', '")}']`);
  }
  for (const [name, def] of Object.entries(manifest.inputs)) {
    if (def.required && (out[name] === undefined || out[name] === '') && given[name] === undefined) {
      rt.state.log.line(`##[warning]Input required and not supplied: ${name}`);
    }
  }
  return out;
}

export function inputEnv(inputs: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(inputs).map(([k, v]) => [inputVariable(k), v]));
}

/** The `##[group]Run owner/repo@ref` header with the inputs and env, as GitHub prints it. */
export function logActionHeader(rt: StepRuntime, title: string, inputs: Record<string, string>): void {
  const { log } = rt.state;
  log.line(`##[group]Run ${title}`);
  const entries = Object.entries(inputs);
  if (entries.length > 0) {
    log.line('with:');
    for (const [k, v] of entries) log.line(`  ${k}: ${v}`);
  }
  const env = Object.entries(rt.displayEnv);
  if (env.length > 0) {
    log.line('env:');
    for (const [k, v] of env) log.line(`  ${k}: ${v}`);
  }
  log.line('##[endgroup]');
}
