import { ERROR_TYPES, type ErrorType } from '../../src/domain/error-types.js';

/** One failing log's features and hand labels (whole log or benchmark tail). */
export interface TrainingSample {
  repo: string;
  labels: readonly ErrorType[];
  words: ReadonlySet<string>;
}

export interface TrainedModel {
  vocabulary: string[];
  /** Per type (ERROR_TYPES order): one weight per vocabulary word, then the bias. */
  weights: Float64Array[];
}

export interface TrainingOptions {
  lambda: number;
  epochs: number;
  /** A word is a feature when it occurs in the samples of at least this many repositories. */
  minRepos: number;
  /** Gradient-descent step. */
  learningRate: number;
  /**
   * Naive-Bayes scaling (Wang & Manning 2012, "NBSVM"): each word's feature is scaled by its smoothed log-count ratio
   * between the type's samples and the others', this being the smoothing count; 0 leaves the features binary.
   */
  nbAlpha: number;
}

/**
 * One L2-regularised logistic regression per error type by full-batch gradient descent (the bias not regularised):
 * deterministic, so the same samples give the same model. With `nbAlpha` > 0 the features are the words scaled by
 * their log-count ratio r (x̃ = r ⊙ x); since the words are binary, the exported weight of a word is w ⊙ r, so the
 * classifier reads the model as a plain logistic regression over binary words.
 */
export function trainModel(samples: readonly TrainingSample[], options: TrainingOptions): TrainedModel {
  const repos = new Map<string, Set<string>>();
  for (const s of samples) for (const w of s.words) repos.set(w, (repos.get(w) ?? new Set()).add(s.repo));
  const vocabulary = [...repos].filter(([, r]) => r.size >= options.minRepos).map(([w]) => w).sort();
  const index = new Map(vocabulary.map((w, i) => [w, i]));
  const rows = samples.map((s) => [...s.words].flatMap((w) => index.get(w) ?? []));
  const bias = vocabulary.length;
  const n = samples.length;
  const weights = ERROR_TYPES.map((type) => {
    const y = samples.map((s) => (s.labels.includes(type) ? 1 : 0));
    const r = logCountRatios(rows, y, bias, options.nbAlpha);
    const w = new Float64Array(bias + 1);
    for (let epoch = 0; epoch < options.epochs; epoch++) {
      const g = new Float64Array(bias + 1);
      rows.forEach((row, i) => {
        const z = row.reduce((sum, j) => sum + (w[j] ?? 0) * (r[j] ?? 1), w[bias] ?? 0);
        const e = 1 / (1 + Math.exp(-z)) - (y[i] ?? 0);
        for (const j of row) g[j] = (g[j] ?? 0) + e * (r[j] ?? 1);
        g[bias] = (g[bias] ?? 0) + e;
      });
      for (let j = 0; j < bias; j++) w[j] = (w[j] ?? 0) - options.learningRate * ((g[j] ?? 0) / n + (options.lambda / n) * (w[j] ?? 0));
      w[bias] = (w[bias] ?? 0) - (options.learningRate * (g[bias] ?? 0)) / n;
    }
    for (let j = 0; j < bias; j++) w[j] = (w[j] ?? 0) * (r[j] ?? 1);
    return w;
  });
  return { vocabulary, weights };
}

/** Per word, log((p_j / |p|) / (q_j / |q|)) with p, q its smoothed counts in the type's samples and the others'; all 1 when alpha is 0. */
function logCountRatios(rows: readonly number[][], y: readonly number[], size: number, alpha: number): Float64Array {
  const r = new Float64Array(size).fill(1);
  if (alpha <= 0) return r;
  const p = new Float64Array(size).fill(alpha);
  const q = new Float64Array(size).fill(alpha);
  rows.forEach((row, i) => {
    const counts = y[i] === 1 ? p : q;
    for (const j of row) counts[j] = (counts[j] ?? 0) + 1;
  });
  const total = (xs: Float64Array): number => xs.reduce((a, b) => a + b, 0);
  const ps = total(p);
  const qs = total(q);
  for (let j = 0; j < size; j++) r[j] = Math.log((p[j] ?? alpha) / ps / ((q[j] ?? alpha) / qs));
  return r;
}

/** The probability of each type for a sample's words. */
export function probabilities(model: TrainedModel, words: ReadonlySet<string>): number[] {
  const index = new Map(model.vocabulary.map((w, i) => [w, i]));
  const row = [...words].flatMap((w) => index.get(w) ?? []);
  const bias = model.vocabulary.length;
  return model.weights.map((w) => 1 / (1 + Math.exp(-row.reduce((sum, j) => sum + (w[j] ?? 0), w[bias] ?? 0))));
}
