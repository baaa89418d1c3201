import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { invalidInput, isAppError } from '../errors.js';
import { validatePatch } from '../patches/validate-patch.js';

/** One prediction of a campaign: a patch for an instance, and where it came from (`line 3`, `entry 2`, `x.patch`). */
export interface Prediction {
  instanceId: string;
  patch: string;
  model: string | null;
  source: string;
}

/** Why a prediction cannot be submitted. */
export interface PredictionProblem {
  source: string;
  instanceId: string | null;
  code: string;
  message: string;
}

export interface ParsedPredictions {
  /** What the input was: `jsonl`, `json` (array or object keyed by instance id), `directory`. */
  format: 'jsonl' | 'json' | 'directory';
  /** SHA-256 of the input's bytes (a directory: its file names and contents), the root of the batches' Idempotency-Keys. */
  contentSha256: string;
  predictions: Prediction[];
  problems: PredictionProblem[];
}

const PATCH_EXTENSIONS = new Set(['.patch', '.diff']);

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A SWE-bench prediction object (`instance_id`, `model_patch`, `model_name_or_path`; camelCase accepted too). */
function fromObject(value: unknown, source: string, keyedId: string | null): Prediction | PredictionProblem {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { source, instanceId: keyedId, code: 'invalid_row', message: 'not a JSON object' };
  const row = value as Record<string, unknown>;
  const instanceId = text(row.instance_id) ?? text(row.instanceId) ?? keyedId;
  if (instanceId === null || instanceId.trim() === '') return { source, instanceId: null, code: 'missing_instance_id', message: 'no "instance_id"' };
  const patch = row.model_patch ?? row.patch;
  if (patch !== undefined && patch !== null && typeof patch !== 'string') return { source, instanceId, code: 'invalid_row', message: '"model_patch" must be a string' };
  return { instanceId, patch: patch ?? '', model: text(row.model_name_or_path), source };
}

/** Parses the text of a predictions file: a JSON array, a JSON object keyed by instance id, or JSON Lines. */
export function parsePredictionsText(content: string): Omit<ParsedPredictions, 'contentSha256'> {
  const predictions: Prediction[] = [];
  const problems: PredictionProblem[] = [];
  const add = (result: Prediction | PredictionProblem): void => {
    if ('code' in result) problems.push(result);
    else predictions.push(result);
  };
  const trimmed = content.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let value: unknown;
    let parsedWhole = true;
    try {
      value = JSON.parse(content);
    } catch (error) {
      if (trimmed.startsWith('[')) throw invalidInput('invalid_predictions', `the predictions are not a valid JSON array: ${(error as Error).message}`);
      parsedWhole = false; // JSON Lines: one object per line
    }
    if (parsedWhole && Array.isArray(value)) {
      value.forEach((row, index) => add(fromObject(row, `entry ${index + 1}`, null)));
      return { format: 'json', predictions, problems };
    }
    const row = (parsedWhole ? value : null) as Record<string, unknown> | null;
    if (row !== null && typeof row.instance_id !== 'string' && typeof row.instanceId !== 'string') {
      // SWE-bench's dictionary form: { "<instance_id>": { "model_patch": … }, … }
      for (const [key, entry] of Object.entries(row)) add(fromObject(entry, `key ${JSON.stringify(key)}`, key));
      return { format: 'json', predictions, problems };
    }
  }
  content.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const source = `line ${index + 1}`;
    try {
      add(fromObject(JSON.parse(line), source, null));
    } catch (error) {
      problems.push({ source, instanceId: null, code: 'invalid_json', message: `not valid JSON: ${(error as Error).message}` });
    }
  });
  return { format: 'jsonl', predictions, problems };
}

/** Reads predictions from a file, a directory of `<instance_id>.patch|.diff` files, or stdin (`-`). */
export async function readPredictions(input: string, stdin: () => Promise<Buffer> = () => readStream(process.stdin)): Promise<ParsedPredictions> {
  if (input !== '-') {
    const info = await stat(input).catch(() => null);
    if (info === null) throw invalidInput('predictions_not_found', `${input}: no such file or directory`);
    if (info.isDirectory()) return readDirectory(input);
  }
  const bytes = input === '-' ? await stdin() : await readFile(input);
  const parsed = parsePredictionsText(bytes.toString('utf8'));
  return { ...parsed, contentSha256: createHash('sha256').update(bytes).digest('hex') };
}

async function readDirectory(dir: string): Promise<ParsedPredictions> {
  const hash = createHash('sha256');
  const predictions: Prediction[] = [];
  const problems: PredictionProblem[] = [];
  const names = (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  for (const name of names) {
    const extension = extname(name);
    if (!PATCH_EXTENSIONS.has(extension)) continue;
    const bytes = await readFile(join(dir, name));
    hash.update(`${name}\0${bytes.length}\0`).update(bytes);
    predictions.push({ instanceId: name.slice(0, -extension.length), patch: bytes.toString('utf8'), model: null, source: name });
  }
  if (predictions.length === 0) throw invalidInput('no_predictions', `${dir} holds no <instance_id>.patch or .diff file`);
  return { format: 'directory', contentSha256: hash.digest('hex'), predictions, problems };
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/**
 * Checks every prediction before anything is submitted: the instance exists, the instance appears once, the patch is
 * not empty and is a valid unified diff within the size limit. Returns the problems (those of parsing included).
 */
export async function checkPredictions(
  parsed: Pick<ParsedPredictions, 'predictions' | 'problems'>,
  options: { instanceExists(id: string): Promise<boolean>; patchMaxBytes: number },
): Promise<{ valid: Prediction[]; problems: PredictionProblem[] }> {
  const problems = [...parsed.problems];
  const valid: Prediction[] = [];
  const seen = new Map<string, string>();
  for (const prediction of parsed.predictions) {
    const problem = (code: string, message: string): void => {
      problems.push({ source: prediction.source, instanceId: prediction.instanceId, code, message });
    };
    const first = seen.get(prediction.instanceId);
    if (first !== undefined) {
      problem('duplicate_instance', `instance ${prediction.instanceId} already has a prediction (${first})`);
      continue;
    }
    seen.set(prediction.instanceId, prediction.source);
    if (!(await options.instanceExists(prediction.instanceId))) {
      problem('unknown_instance', `instance ${prediction.instanceId} does not exist (ci-replay import adds instances)`);
      continue;
    }
    if (prediction.patch.trim() === '') {
      problem('empty_patch', 'the patch is empty');
      continue;
    }
    try {
      validatePatch(prediction.patch, options.patchMaxBytes);
    } catch (error) {
      if (!isAppError(error)) throw error;
      problem(error.code, error.message);
      continue;
    }
    valid.push(prediction);
  }
  const position = (source: string): number => Number.parseInt(/^(?:line|entry) (\d+)$/.exec(source)?.[1] ?? '0', 10);
  problems.sort((a, b) => position(a.source) - position(b.source));
  return { valid, problems };
}
