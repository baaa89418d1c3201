import { endianness } from 'node:os';
import { ERROR_TYPES, type ErrorType } from '../../domain/error-types.js';
import type { Evidence, Label, LogLine, ParsedStep } from '../types.js';
import { jobFeatures, learnedTail, lineFeatures } from './features.js';
import { LEARNED_TOOL } from './learned-tool.js';
import { LEARNED_MODEL } from './model-data.js';

export { LEARNED_TAIL_LINES, jobFeatures } from './features.js';

export { LEARNED_TOOL } from './learned-tool.js';

const EVIDENCE_LINES = 3;

interface Model {
  index: Map<string, number>;
  /** Per type: one weight per vocabulary word, then the bias. */
  weights: Float32Array[];
}

let model: Model | undefined;
function loaded(): Model {
  if (model !== undefined) return model;
  const vocabulary = LEARNED_MODEL.vocabulary.split(' ');
  const bytes = Buffer.from(LEARNED_MODEL.weights, 'base64');
  const width = vocabulary.length + 1;
  const weights = ERROR_TYPES.map((_, k) => float32LE(bytes, k * width * 4, width));
  model = { index: new Map(vocabulary.map((w, i) => [w, i])), weights };
  return model;
}

/** `length` little-endian float32 values from `offset`: one copy on a little-endian machine, read one by one elsewhere. */
function float32LE(bytes: Buffer, offset: number, length: number): Float32Array {
  if (endianness() === 'LE') return new Float32Array(bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length * 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, length * 4);
  return Float32Array.from({ length }, (_, j) => view.getFloat32(j * 4, true));
}

/** Each type's probability for a failed job's features (ERROR_TYPES order). */
export function learnedProbabilities(failedSteps: readonly ParsedStep[]): number[] {
  const m = loaded();
  const row = [...jobFeatures(failedSteps)].flatMap((w) => m.index.get(w) ?? []);
  const bias = m.index.size;
  return m.weights.map((w) => 1 / (1 + Math.exp(-row.reduce((sum, j) => sum + (w[j] ?? 0), w[bias] ?? 0))));
}

/**
 * What the learned fallback adds to a failed job's rule labels: a logistic regression per type over the words and
 * word pairs of the failing steps' last lines (trained on the real-log corpus's tuning half,
 * scripts/train-learned-fallback), a label for each type whose probability reaches the type's threshold: `thresholds`
 * when no rule explains the job (`explained` empty), the higher `alongside` beside rule labels, never a type a rule
 * already gave. Each label says so (`learned`, tool `learned-fallback`) and carries as evidence the lines whose words
 * weigh most for its type; it has no findings.
 */
export function learnedLabels(failedSteps: readonly ParsedStep[], explained: ReadonlySet<ErrorType> = new Set()): Label[] {
  if (failedSteps.length === 0) return [];
  const probabilities = learnedProbabilities(failedSteps);
  const thresholds = explained.size === 0 ? LEARNED_MODEL.thresholds : LEARNED_MODEL.alongside;
  const labels: Label[] = [];
  ERROR_TYPES.forEach((type, k) => {
    const probability = probabilities[k] ?? 0;
    if (explained.has(type) || probability < (thresholds[k] ?? Number.POSITIVE_INFINITY)) return;
    const { evidence, stepName } = strongestLines(failedSteps, type, k);
    labels.push({ type, tool: LEARNED_TOOL, ...(stepName === undefined ? {} : { stepName }), evidence, findings: [], learned: { probability: Math.round(probability * 1000) / 1000 } });
  });
  return labels;
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
