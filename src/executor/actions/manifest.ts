import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { permanent } from '../../errors.js';
import type { ActionInputDef, ActionManifest, ActionRuns, CompositeStep } from './types.js';

type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);

const NODE_VERSIONS = ['node12', 'node16', 'node20', 'node24'];

/** Reads `action.yml` (or `action.yaml`) of an action folder; throws `invalid_action` naming what is wrong. */
export function readManifest(dir: string, label: string): ActionManifest {
  const file = ['action.yml', 'action.yaml'].map((name) => join(dir, name)).find((f) => existsSync(f));
  if (file === undefined) {
    throw permanent('invalid_action', `Can't find 'action.yml' or 'action.yaml' for action '${label}'.`);
  }
  let raw: Raw;
  try {
    raw = obj(parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw permanent('invalid_action', `Failed to load ${label} action.yml: ${(error as Error).message}`);
  }
  return parseManifest(raw, label);
}

export function parseManifest(raw: Raw, label: string): ActionManifest {
  const fail = (why: string): never => {
    throw permanent('invalid_action', `Failed to load ${label} action.yml: ${why}`);
  };
  const inputs: Record<string, ActionInputDef> = {};
  for (const [name, value] of Object.entries(obj(raw.inputs))) {
    const def = obj(value);
    const input: ActionInputDef = { required: def.required === true || def.required === 'true' };
    const dflt = str(def.default);
    if (dflt !== undefined) input.default = dflt;
    const description = str(def.description);
    if (description !== undefined) input.description = description;
    const deprecation = str(def.deprecationMessage);
    if (deprecation !== undefined) input.deprecationMessage = deprecation;
    inputs[name] = input;
  }
  const outputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(obj(raw.outputs))) outputs[name] = str(obj(value).value) ?? '';
  const runs = obj(raw.runs);
  const using = (str(runs.using) ?? '').toLowerCase();
  let parsed: ActionRuns;
  if (NODE_VERSIONS.includes(using)) {
    const main = str(runs.main) ?? fail(`runs.main is required for '${using}' actions`);
    parsed = { using: 'node', version: using, main };
    const optional = { pre: str(runs.pre), preIf: str(runs['pre-if']), post: str(runs.post), postIf: str(runs['post-if']) };
    for (const [k, v] of Object.entries(optional)) if (v !== undefined) Object.assign(parsed, { [k]: v });
  } else if (using === 'composite') {
    if (!Array.isArray(runs.steps)) fail('runs.steps is required for composite actions');
    parsed = { using: 'composite', steps: (runs.steps as unknown[]).map((s, i) => compositeStep(obj(s), i, fail)) };
  } else if (using === 'docker') {
    const image = str(runs.image) ?? fail('runs.image is required for docker actions');
    const args = Array.isArray(runs.args) ? runs.args.map((a) => str(a) ?? '') : [];
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(obj(runs.env))) env[k] = str(v) ?? '';
    parsed = { using: 'docker', image, args, env };
    const optional = { entrypoint: str(runs.entrypoint), preEntrypoint: str(runs['pre-entrypoint']), postEntrypoint: str(runs['post-entrypoint']) };
    for (const [k, v] of Object.entries(optional)) if (v !== undefined) Object.assign(parsed, { [k]: v });
  } else {
    return fail(`runs.using '${using}' is not supported (node12, node16, node20, node24, composite or docker)`);
  }
  return { name: str(raw.name) ?? label, inputs, outputs, runs: parsed };
}

function compositeStep(raw: Raw, index: number, fail: (why: string) => never): CompositeStep {
  const run = str(raw.run);
  const uses = str(raw.uses);
  if (run === undefined && uses === undefined) fail(`runs.steps[${index}] has neither run nor uses`);
  if (run !== undefined && str(raw.shell) === undefined) fail(`runs.steps[${index}]: 'shell' is required for run steps of composite actions`);
  const step: CompositeStep = { with: obj(raw.with), env: obj(raw.env), continueOnError: typeof raw['continue-on-error'] === 'boolean' ? raw['continue-on-error'] : (str(raw['continue-on-error']) ?? false) };
  const optional = { id: str(raw.id), name: str(raw.name), if: str(raw.if), run, shell: str(raw.shell), uses, workingDirectory: str(raw['working-directory']) };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) Object.assign(step, { [k]: v });
  return step;
}
