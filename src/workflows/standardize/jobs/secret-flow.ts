/** Where secrets flow in a job: into which steps, through what (env, with, run), and whether the step copes without. */
import { isMap, isScalar, type YAMLMap } from 'yaml';
import { expressionsIn, secretNames } from '../../expressions.js';
import { keyOf, pairsOf, stringAt, walkStrings } from '../../nodes.js';

export interface SecretUse {
  name: string;
  /** Where the step receives it: its env, its `with:` inputs, its script, or the job's env. */
  via: 'env' | 'with' | 'run' | 'job-env' | 'other';
  /** The env variable or input it lands in (`OPENAI_API_KEY`, `token`). */
  key: string | undefined;
  /** Whether the step copes with an empty value (a fallback, a check of the value, a guard on it). */
  tolerated: boolean;
}

/** Env variables of a map fed by a secret: variable → secret names. */
export function secretEnv(env: YAMLMap | undefined): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const pair of pairsOf(env)) {
    const value = isScalar(pair.value) ? String(pair.value.value ?? '') : '';
    const names = secretNames(value);
    if (names.length > 0) found.set(keyOf(pair), names);
  }
  return found;
}

/** Whether an expression uses the secret with a fallback or only compares it (`secrets.X || 'x'`, `secrets.X != ''`). */
function toleratedExpression(text: string, name: string): boolean {
  const escaped = name.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return expressionsIn(text).some((inner) => new RegExp(String.raw`secrets\s*\.\s*${escaped}\s*(?:\|\||[!=]=)|(?:\|\||[!=]=)\s*secrets\s*\.\s*${escaped}\b`).test(inner));
}

function checkedInScript(run: string, variable: string): boolean {
  return new RegExp(String.raw`-[nz]\s+"?\$\{?${variable}\b|\$\{${variable}:[-?+]|\[\[?\s*"?\$\{?${variable}\}?"?\s*[!=]=`).test(run);
}

function guardMentions(condition: string | undefined, name: string, variables: readonly string[]): boolean {
  if (condition === undefined) return false;
  if (new RegExp(String.raw`secrets\s*\.\s*${name}\b`).test(condition)) return true;
  return variables.some((variable) => new RegExp(String.raw`\benv\s*\.\s*${variable}\b|\$${variable}\b`).test(condition));
}

/**
 * The secrets a step receives (GITHUB_TOKEN and the `exclude`d ones, like service credentials, left out), from its
 * own env, inputs and script and from the job's env.
 */
export function secretUses(step: YAMLMap, jobEnv: YAMLMap | undefined, exclude: ReadonlySet<string>, jobGuard?: string): SecretUse[] {
  const uses: SecretUse[] = [];
  const condition = [stringAt(step, 'if'), jobGuard].filter((part): part is string => part !== undefined).join(' && ');
  const run = stringAt(step, 'run') ?? '';
  const continueOnError = step.get('continue-on-error') === true;
  const derived = [...secretEnv(jobEnv).entries()];
  const add = (name: string, via: SecretUse['via'], key: string | undefined, text: string): void => {
    if (exclude.has(name)) return;
    const variables = [
      ...(via === 'env' || via === 'job-env' ? (key === undefined ? [] : [key]) : []),
      ...derived.filter(([, names]) => names.includes(name)).map(([variable]) => variable),
    ];
    const tolerated = continueOnError || toleratedExpression(text, name) || guardMentions(condition || undefined, name, variables)
      || variables.some((variable) => checkedInScript(run, variable));
    uses.push({ name, via, key, tolerated });
  };
  for (const pair of pairsOf(step)) {
    const section = keyOf(pair);
    if (section === 'if' || section === 'name') continue;
    if ((section === 'env' || section === 'with') && isMap(pair.value)) {
      for (const entry of pairsOf(pair.value)) {
        walkStrings(entry.value, '', ({ scalar }) => {
          const text = String(scalar.value);
          for (const name of secretNames(text)) add(name, section, keyOf(entry), text);
        });
      }
      continue;
    }
    walkStrings(pair.value, '', ({ scalar }) => {
      const text = String(scalar.value);
      for (const name of secretNames(text)) add(name, section === 'run' ? 'run' : 'other', undefined, text);
    });
  }
  for (const [variable, names] of secretEnv(jobEnv)) {
    const text = String((jobEnv?.get(variable, true) as { value?: unknown } | undefined)?.value ?? '');
    for (const name of names) add(name, 'job-env', variable, text);
  }
  return uses;
}

/** A secret embedded in a URL as a credential (`https://user:${{ secrets.X }}@host`, `https://${TOKEN}@github.com`). */
export function credentialInUrl(run: string, secretVariables: readonly string[]): string | undefined {
  const direct = /https?:\/\/[^\s'"]*\$\{\{\s*secrets\.(?!GITHUB_TOKEN\b)[^}]*\}\}[^\s'"]*@[^\s'"]+/.exec(run);
  if (direct !== null) return direct[0];
  for (const variable of secretVariables) {
    const viaVariable = new RegExp(String.raw`https?://[^\s'"]*\$\{?${variable}\}?[^\s'"]*@[^\s'"]+`).exec(run);
    if (viaVariable !== null) return viaVariable[0];
  }
  return undefined;
}
