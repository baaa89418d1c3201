import { ERROR_TYPES, type ErrorType } from '../../domain/error-types.js';
import type { Evidence, Label, ParsedStep } from '../types.js';
import { jobFeatures, learnedTail, lineFeatures } from './features.js';
import { LEARNED_MODEL } from './model-data.js';

export { LEARNED_TAIL_LINES, jobFeatures } from './features.js';

/** The tool and rule name of a learned label and its evidence. */
export const LEARNED_TOOL = 'learned-fallback';

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
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = vocabulary.length + 1;
  const weights = ERROR_TYPES.map((_, k) => Float32Array.from({ length: width }, (_, j) => view.getFloat32((k * width + j) * 4, true)));
  model = { index: new Map(vocabulary.map((w, i) => [w, i])), weights };
  return model;
}

/** Each type's probability for a failed job's features (ERROR_TYPES order). */
export function learnedProbabilities(failedSteps: readonly ParsedStep[]): number[] {
  const m = loaded();
  const row = [...jobFeatures(failedSteps)].flatMap((w) => m.index.get(w) ?? []);
  const bias = m.index.size;
  return m.weights.map((w) => 1 / (1 + Math.exp(-row.reduce((sum, j) => sum + (w[j] ?? 0), w[bias] ?? 0))));
}

/**
 * What the classifier says of a failed job no rule explains: a logistic regression per type over the words and word
 * pairs of the failing steps' last lines (trained on the real-log corpus's tuning half, scripts/train-learned-fallback), a label
 * for each type whose probability reaches the type's threshold. Each label says so (`learned`, tool
 * `learned-fallback`) and carries as evidence the lines whose words weigh most for its type; it has no findings.
 */
export function learnedLabels(failedSteps: readonly ParsedStep[]): Label[] {
  if (failedSteps.length === 0) return [];
  const probabilities = learnedProbabilities(failedSteps);
  const labels: Label[] = [];
  ERROR_TYPES.forEach((type, k) => {
    const probability = probabilities[k] ?? 0;
    if (probability < (LEARNED_MODEL.thresholds[k] ?? Number.POSITIVE_INFINITY)) return;
    const { evidence, stepName } = strongestLines(failedSteps, type, k);
    labels.push({ type, tool: LEARNED_TOOL, ...(stepName === undefined ? {} : { stepName }), evidence, findings: [], learned: { probability: Math.round(probability * 1000) / 1000 } });
  });
  return labels;
}

function strongestLines(failedSteps: readonly ParsedStep[], type: ErrorType, k: number): { evidence: Evidence[]; stepName: string | undefined } {
  const m = loaded();
  const weights = m.weights[k] as Float32Array;
  const scored: { weight: number; step: ParsedStep; evidence: Evidence }[] = [];
  for (const step of failedSteps) {
    for (const { line, text } of learnedTail(step)) {
      const weight = lineFeatures(text).reduce((sum, word) => sum + Math.max(0, weights[m.index.get(word) ?? -1] ?? 0), 0);
      if (weight > 0) scored.push({ weight, step, evidence: { startLine: line, endLine: line, text, tool: LEARNED_TOOL, rule: `${LEARNED_TOOL}:${type}` } });
    }
  }
  const top = scored.sort((a, b) => b.weight - a.weight || b.evidence.startLine - a.evidence.startLine).slice(0, EVIDENCE_LINES);
  const best = top[0]?.step ?? failedSteps[failedSteps.length - 1];
  return {
    evidence: top.map((s) => s.evidence).sort((a, b) => a.startLine - b.startLine),
    stepName: best === undefined ? undefined : (best.stepName ?? best.title),
  };
}
