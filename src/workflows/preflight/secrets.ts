/**
 * Secrets the workflow still reads after standardization. The standardizer replaces `secrets.X` and
 * `secrets['X']`; what remains is what it cannot rewrite to a fixed value: a name computed at run time
 * (`secrets[matrix.provider]`), the whole context (`toJSON(secrets)`), or a context name in another case
 * (`Secrets.X`, which GitHub accepts). Each is a blocker unless the backend holds the secret (GITHUB_TOKEN
 * always). `secrets: inherit` and `on.workflow_call.secrets` declarations are not reads.
 */
import { expressionsIn } from '../expressions.js';
import { isObj, objAt, type JobView, type Obj } from './model.js';
import type { BackendCapabilities, Blocker } from './types.js';

interface SecretRead {
  /** The secret's name, or null when it is computed or the whole context is read. */
  name: string | null;
  expression: string;
}

function literalRanges(expression: string): [number, number][] {
  return [...expression.matchAll(/'(?:[^']|'')*'/g)].map((match) => [match.index, match.index + match[0].length]);
}

function readsIn(expression: string): SecretRead[] {
  const literals = literalRanges(expression);
  const reads: SecretRead[] = [];
  for (const match of expression.matchAll(/(?<![\w.-])secrets\b/gi)) {
    if (literals.some(([start, end]) => match.index >= start && match.index < end)) continue;
    const rest = expression.slice(match.index + match[0].length);
    const member = /^\s*\.\s*([A-Za-z_][\w-]*)/.exec(rest) ?? /^\s*\[\s*'([^']+)'\s*\]/.exec(rest) ?? /^\s*\[\s*"([^"]+)"\s*\]/.exec(rest);
    reads.push({ name: member?.[1] ?? null, expression });
  }
  return reads;
}

function readsOf(value: unknown, key?: string): SecretRead[] {
  if (typeof value === 'string') {
    const expressions = expressionsIn(value);
    if (key === 'if' && !value.includes('${{')) expressions.push(value);
    return expressions.flatMap((inner) => readsIn(inner).map((read) => ({ ...read, expression: `\${{ ${inner.trim()} }}` })));
  }
  if (Array.isArray(value)) return value.flatMap((item) => readsOf(item));
  if (isObj(value)) return Object.entries(value).flatMap(([name, item]) => readsOf(item, name));
  return [];
}

function missing(read: SecretRead, capabilities: BackendCapabilities): boolean {
  if (read.name === null) return true;
  const name = read.name.toUpperCase();
  return name !== 'GITHUB_TOKEN' && !capabilities.secrets.includes(name);
}

function describe(read: SecretRead): string {
  return read.name === null ? `reads secrets by a name computed at run time (${read.expression})` : `reads the secret ${read.name} (${read.expression})`;
}

function blockersFor(value: unknown, place: { job: string; step?: string; holder: string }, capabilities: BackendCapabilities): Blocker[] {
  const held = capabilities.secrets.length === 0 ? 'no secret' : `no secret but ${capabilities.secrets.join(', ')}`;
  return readsOf(value)
    .filter((read) => missing(read, capabilities))
    .map((read) => ({
      code: 'missing_secret' as const,
      job: place.job,
      ...(place.step === undefined ? {} : { step: place.step }),
      evidence: read.expression,
      message: `${place.holder} ${describe(read)}; ${capabilities.label} is given ${held} (GITHUB_TOKEN aside), so it evaluates to an empty string`,
    }));
}

/** Secret reads of the workflow's own `env` and `defaults` (reported as job `*`). */
export function workflowSecretBlockers(doc: Obj, capabilities: BackendCapabilities): Blocker[] {
  return blockersFor({ env: objAt(doc.env), defaults: objAt(doc.defaults) }, { job: '*', holder: 'the workflow env' }, capabilities);
}

export function jobSecretBlockers(job: JobView, capabilities: BackendCapabilities): Blocker[] {
  const { steps: _steps, secrets, ...rest } = job.raw;
  const jobLevel = { ...rest, ...(secrets === 'inherit' ? {} : { secrets }) };
  const blockers = blockersFor(jobLevel, { job: job.id, holder: `job ${job.id}` }, capabilities);
  for (const step of job.steps) {
    blockers.push(...blockersFor(step.raw, { job: job.id, step: step.display, holder: `step "${step.display}" of job ${job.id}` }, capabilities));
  }
  return blockers;
}
