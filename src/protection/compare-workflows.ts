/**
 * Compares a candidate's version of a workflow (or local action) with the ground truth's, on the parsed YAML:
 * job by job and step by step, every `run:` command and `uses:` action with its `with:`, and the settings that
 * decide whether, where and how long a check runs (`if`, `continue-on-error`, `timeout-minutes`, the matrix, `env`,
 * `needs`, the job's container and services, shells and working directories). Names, comments, formatting and key
 * order do not matter.
 */
import { parse } from 'yaml';

export type WorkflowComparison = { same: true } | { same: false; why: string };

/**
 * Whether a piece of the ground truth's version may be quoted in a reason (submitters read reasons; the ground truth
 * is operator-only unless the instance is public). Default: everything may be quoted.
 */
export type Reveal = (text: string) => boolean;

/** What a reason says in place of a ground-truth value it may not quote. */
export const HIDDEN = 'something else (not shown: the ground truth is not public)';

/** Renders ground-truth values for reasons, hiding those `reveal` refuses. */
interface Quote {
  shows(value: Value): boolean;
  value(value: Value, render: (value: Value) => string): string;
}

type Value = unknown;
type Obj = Record<string, Value>;

const isObj = (value: Value): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

const WORKFLOW_KEYS = ['env', 'defaults'] as const;
const JOB_KEYS = ['if', 'continue-on-error', 'timeout-minutes', 'needs', 'env', 'defaults', 'container', 'services', 'uses', 'with', 'secrets'] as const;
const STEP_KEYS = ['if', 'continue-on-error', 'timeout-minutes', 'env', 'shell', 'working-directory'] as const;

/** Compares two texts of one file; either failing to parse is a difference. */
export function compareValidation(candidateText: string | null, groundTruthText: string | null, options: { reveal?: Reveal } = {}): WorkflowComparison {
  const reveal = options.reveal ?? ((): boolean => true);
  const shows = (value: Value): boolean => leaves(value).every(reveal);
  const quote: Quote = { shows, value: (value, render) => (shows(value) ? render(value) : HIDDEN) };
  if (candidateText === null || groundTruthText === null) {
    if (candidateText === groundTruthText) return { same: true };
    return { same: false, why: candidateText === null ? 'the candidate deletes it where the ground truth keeps it' : 'the ground truth deletes it where the candidate keeps it' };
  }
  const candidate = load(candidateText);
  if (!candidate.ok) return { same: false, why: `the candidate's version is not valid YAML: ${candidate.message}` };
  const truth = load(groundTruthText);
  if (!truth.ok) return { same: false, why: `the ground truth's version is not valid YAML: ${truth.message}` };
  if (isObj(truth.value.jobs) || isObj(candidate.value.jobs)) return compareWorkflows(quote, candidate.value, truth.value);
  if (isObj(truth.value.runs) || isObj(candidate.value.runs)) return compareActions(quote, candidate.value, truth.value);
  return equal(candidate.value, truth.value) ? { same: true } : { same: false, why: 'its content differs from the ground truth\'s' };
}

function load(text: string): { ok: true; value: Obj } | { ok: false; message: string } {
  try {
    const value: Value = parse(text, { maxAliasCount: 1000 });
    return isObj(value) ? { ok: true, value } : { ok: false, message: 'the document is not a mapping' };
  } catch (error) {
    return { ok: false, message: (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '' };
  }
}

function compareWorkflows(quote: Quote, candidate: Obj, truth: Obj): WorkflowComparison {
  for (const key of WORKFLOW_KEYS) {
    if (!equal(candidate[key], truth[key])) return differ(quote, `the workflow's \`${key}\``, key, candidate[key], truth[key]);
  }
  const candidateJobs = isObj(candidate.jobs) ? candidate.jobs : {};
  const truthJobs = isObj(truth.jobs) ? truth.jobs : {};
  for (const id of Object.keys(truthJobs)) {
    if (!(id in candidateJobs)) return { same: false, why: quote.shows(id) ? `job ${id} of the ground truth is missing` : `a job of the ground truth is missing (not shown: the ground truth is not public)` };
  }
  for (const id of Object.keys(candidateJobs)) {
    if (!(id in truthJobs)) return { same: false, why: `job ${id} is not in the ground truth's version` };
    const job = asObj(candidateJobs[id]);
    const reference = asObj(truthJobs[id]);
    for (const key of JOB_KEYS) {
      if (!equal(setting(key, job[key]), setting(key, reference[key]))) return differ(quote, `job ${id}`, key, job[key], reference[key]);
    }
    const matrix = asObj(job.strategy).matrix;
    const referenceMatrix = asObj(reference.strategy).matrix;
    if (!equal(matrix, referenceMatrix)) return differ(quote, `job ${id}`, 'matrix', matrix, referenceMatrix);
    const steps = compareSteps(quote, `job ${id}`, job.steps, reference.steps);
    if (!steps.same) return steps;
  }
  return { same: true };
}

function compareActions(quote: Quote, candidate: Obj, truth: Obj): WorkflowComparison {
  const runs = asObj(candidate.runs);
  const reference = asObj(truth.runs);
  const { steps, ...rest } = runs;
  const { steps: referenceSteps, ...referenceRest } = reference;
  if (!equal(rest, referenceRest)) return { same: false, why: `its \`runs\` settings differ from the ground truth's (${show(rest)} where the ground truth has ${quote.value(referenceRest, show)})` };
  if (!equal(asObj(candidate.inputs), asObj(truth.inputs))) return { same: false, why: "its inputs differ from the ground truth's" };
  return compareSteps(quote, 'the action', steps, referenceSteps);
}

function compareSteps(quote: Quote, owner: string, candidateSteps: Value, truthSteps: Value): WorkflowComparison {
  const steps = Array.isArray(candidateSteps) ? candidateSteps.map(asObj) : [];
  const reference = Array.isArray(truthSteps) ? truthSteps.map(asObj) : [];
  for (let i = 0; i < Math.max(steps.length, reference.length); i += 1) {
    const step = steps[i];
    const expected = reference[i];
    if (step === undefined) return { same: false, why: `${owner} lacks the ground truth's step ${quote.shows(expected?.name ?? expected?.id) ? label(expected, i) : `#${i + 1}`} (${quoteStep(quote, expected)})` };
    if (expected === undefined) return { same: false, why: `${owner} has a step ${label(step, i)} (${command(step)}) that the ground truth's version does not have` };
    const why = stepDifference(quote, step, expected);
    if (why === null) continue;
    // An inserted or dropped step shifts the rest: say so rather than naming the shifted pair.
    if (steps.length > reference.length && steps.slice(i + 1).every((next, k) => stepDifference(quote, next, reference[i + k] ?? {}) === null)) {
      return { same: false, why: `${owner} has a step ${label(step, i)} (${command(step)}) that the ground truth's version does not have` };
    }
    if (steps.length < reference.length && reference.slice(i + 1).every((next, k) => stepDifference(quote, steps[i + k] ?? {}, next) === null)) {
      return { same: false, why: `${owner} lacks the ground truth's step ${quote.shows(expected?.name ?? expected?.id) ? label(expected, i) : `#${i + 1}`} (${quoteStep(quote, expected)})` };
    }
    return { same: false, why: `step ${label(step, i)} of ${owner} ${why}` };
  }
  return { same: true };
}

/** Null when the two steps run the same thing under the same conditions, else what differs. */
function stepDifference(quote: Quote, step: Obj, expected: Obj): string | null {
  if (normalizeRun(step.run) !== normalizeRun(expected.run)) {
    if (expected.run === undefined) return `runs ${command(step)} where the ground truth ${expected.uses === undefined ? 'runs nothing' : `uses ${quoteStep(quote, expected)}`}`;
    return `runs ${command(step)} where the ground truth runs ${quoteStep(quote, expected)}`;
  }
  if (!equal(step.uses, expected.uses)) return `uses ${command(step)} where the ground truth uses ${quoteStep(quote, expected)}`;
  if (!equal(asObj(step.with), asObj(expected.with))) return `passes \`with: ${show(step.with)}\` where the ground truth passes ${quote.value(expected.with, (value) => `\`with: ${show(value)}\``)}`;
  for (const key of STEP_KEYS) {
    if (!equal(setting(key, step[key]), setting(key, expected[key]))) return `has \`${key}: ${show(step[key])}\` where the ground truth has ${expected[key] === undefined ? 'none' : quote.value(expected[key], (value) => `\`${key}: ${show(value)}\``)}`;
  }
  return null;
}

/** A ground-truth step's command for a reason (its `run:` or `uses:`), or the hidden marker. */
function quoteStep(quote: Quote, step: Obj | undefined): string {
  const value = step?.run ?? step?.uses;
  return value === undefined || value === null ? 'nothing' : quote.value(String(value).trim(), () => command(step));
}

function differ(quote: Quote, owner: string, key: string, value: Value, expected: Value): WorkflowComparison {
  const has = value === undefined ? 'no' : `\`${key}: ${show(value)}\``;
  const wants = expected === undefined ? 'none' : quote.value(expected, (shown) => `\`${key}: ${show(shown)}\``);
  return { same: false, why: `${owner} has ${has}${value === undefined ? ` ${key}` : ''} where the ground truth has ${wants}` };
}

const asObj = (value: Value): Obj => (isObj(value) ? value : {});

/** `if: ${{ x }}` is `if: x`; scalars compare as text (`timeout-minutes: 10` is `'10'`). */
function setting(key: string, value: Value): Value {
  if (value === undefined || value === null) return undefined;
  if (key === 'if' && typeof value === 'string') {
    const inner = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(value);
    return (inner?.[1] ?? value).trim();
  }
  if (key === 'needs' && typeof value === 'string') return [value];
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

/** A script compared line by line without trailing whitespace or trailing blank lines (`|` vs `|-`). */
function normalizeRun(run: Value): string | undefined {
  if (run === undefined || run === null) return undefined;
  return String(run).split('\n').map((line) => line.trimEnd()).join('\n').trim();
}

function label(step: Obj | undefined, index: number): string {
  const name = step?.name ?? step?.id;
  return typeof name === 'string' && name.trim() !== '' ? `'${name}'` : `#${index + 1}`;
}

function command(step: Obj | undefined): string {
  if (step?.run !== undefined && step.run !== null) return `\`${clip(String(step.run))}\``;
  if (step?.uses !== undefined) return `\`${clip(String(step.uses))}\``;
  return 'nothing';
}

/** The scalars (and keys) of a value, as text: what must already be visible for the value to be quoted. */
function leaves(value: Value): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (isObj(value)) return Object.entries(value).flatMap(([key, item]) => [key, ...leaves(item)]);
  return String(value).split('\n').map((line) => line.trim()).filter(Boolean);
}

function clip(text: string): string {
  const flat = text.trim().split('\n').map((line) => line.trim()).filter(Boolean).join('; ');
  return flat.length > 100 ? `${flat.slice(0, 97)}…` : flat;
}

function show(value: Value): string {
  if (value === undefined) return 'none';
  return clip(typeof value === 'string' ? value : JSON.stringify(value));
}

function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => equal(item, b[index]));
  }
  if (isObj(a) && isObj(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => equal(a[key], b[key]));
  }
  return false;
}
