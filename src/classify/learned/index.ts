import { endianness } from 'node:os';
import { ERROR_TYPES, type ErrorType } from '../../domain/error-types.js';
import type { Evidence, Label, LogLine, ParsedStep } from '../types.js';
import { jobFeatures, learnedTail, lineFeatures, saysNothingBaseline } from './features.js';
import { LEARNED_TOOL } from './learned-tool.js';
import { LEARNED_MODEL } from './model-data.js';

export { LEARNED_TAIL_LINES, jobFeatures } from './features.js';

export { LEARNED_TOOL } from './learned-tool.js';

const EVIDENCE_LINES = 3;

interface Model {
  index: Map<string, number>;
  /** Per type: one weight per vocabulary word, then the bias. */
  weights: Float32Array[];
  /** Per type: the most the model says of output that says nothing (no word it knows, or only the runner's closing line). */
  baseline: number[];
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

let model: Model | undefined;
function loaded(): Model {
  if (model !== undefined) return model;
  const vocabulary = LEARNED_MODEL.vocabulary.split(' ');
  const bytes = Buffer.from(LEARNED_MODEL.weights, 'base64');
  const width = vocabulary.length + 1;
  const weights = ERROR_TYPES.map((_, k) => float32LE(bytes, k * width * 4, width));
  const index = new Map(vocabulary.map((w, i) => [w, i]));
  const withoutBaseline = { index, weights };
  model = { index, weights, baseline: saysNothingBaseline((features) => probabilitiesOf(withoutBaseline, features)) };
  return model;
}

/** `length` little-endian float32 values from `offset`: one copy on a little-endian machine, read one by one elsewhere. */
function float32LE(bytes: Buffer, offset: number, length: number): Float32Array {
  if (endianness() === 'LE') return new Float32Array(bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length * 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, length * 4);
  return Float32Array.from({ length }, (_, j) => view.getFloat32(j * 4, true));
}

/** Each type's probability for these features (ERROR_TYPES order); words outside the vocabulary weigh nothing. */
function probabilitiesOf(m: Pick<Model, 'index' | 'weights'>, features: Iterable<string>): number[] {
  const row = [...features].flatMap((w) => m.index.get(w) ?? []);
  const bias = m.index.size;
  return m.weights.map((w) => sigmoid(row.reduce((sum, j) => sum + (w[j] ?? 0), w[bias] ?? 0)));
}

/** Each type's probability for a failed job's features (ERROR_TYPES order). */
export function learnedProbabilities(failedSteps: readonly ParsedStep[]): number[] {
  return probabilitiesOf(loaded(), jobFeatures(failedSteps));
}

/**
 * What the learned fallback adds to a failed job's rule labels: a logistic regression per type over the words and
 * word pairs of the failing steps' last lines (trained on the real-log corpus's tuning half,
 * scripts/train-learned-fallback), a label for each type whose probability reaches the type's threshold: `thresholds`
 * when no rule explains the job (`explained` empty), the higher `alongside` beside rule labels, never a type a rule
 * already gave. When that leaves a job no rule explains without a label, the likeliest type is named if its
 * probability reaches `guessFloor` and is above what the model says of output that says nothing (a best guess:
 * its probability says how sure). Each label says so (`learned`, tool `learned-fallback`) and carries as evidence the
 * lines whose words weigh most for its type; it has no findings.
 */
export function learnedLabels(failedSteps: readonly ParsedStep[], explained: ReadonlySet<ErrorType> = new Set()): Label[] {
  if (failedSteps.length === 0) return [];
  const probabilities = learnedProbabilities(failedSteps);
  const thresholds = explained.size === 0 ? LEARNED_MODEL.thresholds : LEARNED_MODEL.alongside;
  const chosen = ERROR_TYPES.flatMap((type, k) => (explained.has(type) || (probabilities[k] ?? 0) < (thresholds[k] ?? Number.POSITIVE_INFINITY) ? [] : [k]));
  if (chosen.length === 0 && explained.size === 0) {
    const guess = likeliest(probabilities, loaded().baseline, LEARNED_MODEL.guessFloor);
    if (guess !== undefined) chosen.push(guess);
  }
  return chosen.map((k): Label => {
    const type = ERROR_TYPES[k] as ErrorType;
    const { evidence, stepName } = strongestLines(failedSteps, type, k);
    return { type, tool: LEARNED_TOOL, ...(stepName === undefined ? {} : { stepName }), evidence, findings: [], learned: { probability: Math.round((probabilities[k] ?? 0) * 1000) / 1000 } };
  });
}

/** The type (index) with the highest probability among those reaching `floor` and above their baseline, if any. */
export function likeliest(probabilities: readonly number[], baseline: readonly number[], floor: number): number | undefined {
  let best: number | undefined;
  probabilities.forEach((p, k) => {
    if (p >= floor && p > (baseline[k] ?? 1) && (best === undefined || p > (probabilities[best] ?? 0))) best = k;
  });
  return best;
}

/** Per type, the most the model says of output that says nothing: a best guess must be likelier than this. */
export function learnedBaseline(): readonly number[] {
  return loaded().baseline;
}

/** The runner's own closing lines say nothing of why (`##[error]Process completed with exit code 1.`): never evidence. */
const RUNNER_BOILERPLATE = /^(?:##\[error\]|Error: )?Process completed with exit code \d+\.?$/;
const saysNothing = (text: string): boolean => text.trim() === '' || RUNNER_BOILERPLATE.test(text.trim());

/**
 * A learned label's evidence: the (up to EVIDENCE_LINES) lines of ONE failing step whose features weigh most for the
 * type, that step being the one holding the weightiest line; when no line weighs for it, the step's last line that
 * is not the runner's closing line, so a learned label always shows where it looked.
 */
function strongestLines(failedSteps: readonly ParsedStep[], type: ErrorType, k: number): { evidence: Evidence[]; stepName: string | undefined } {
  const m = loaded();
  const weights = m.weights[k] as Float32Array;
  const evidenceOf = (line: LogLine): Evidence => ({ startLine: line.line, endLine: line.line, text: line.text, tool: LEARNED_TOOL, rule: `${LEARNED_TOOL}:${type}` });
  const scored: { weight: number; step: ParsedStep; line: LogLine }[] = [];
  for (const step of failedSteps) {
    for (const line of learnedTail(step)) {
      if (saysNothing(line.text)) continue;
      const weight = lineFeatures(line.text).reduce((sum, word) => sum + Math.max(0, weights[m.index.get(word) ?? -1] ?? 0), 0);
      if (weight > 0) scored.push({ weight, step, line });
    }
  }
  scored.sort((a, b) => b.weight - a.weight || b.line.line - a.line.line);
  const best = scored[0]?.step ?? failedSteps[failedSteps.length - 1];
  const nameOf = (step: ParsedStep | undefined): string | undefined => (step === undefined ? undefined : (step.stepName ?? step.title));
  const top = scored.filter((s) => s.step === best).slice(0, EVIDENCE_LINES);
  if (top.length > 0) return { evidence: top.map((s) => evidenceOf(s.line)).sort((a, b) => a.startLine - b.startLine), stepName: nameOf(best) };
  const last = best === undefined ? undefined : [...learnedTail(best)].reverse().find((line) => !saysNothing(line.text));
  return { evidence: last === undefined ? [] : [evidenceOf(last)], stepName: nameOf(best) };
}
