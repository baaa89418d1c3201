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
}

/**
 * One L2-regularised logistic regression per error type over binary word features, by full-batch gradient descent
 * (learning rate 0.5, the bias not regularised): deterministic, so the same samples give the same model.
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
    const w = new Float64Array(bias + 1);
    const y = samples.map((s) => (s.labels.includes(type) ? 1 : 0));
    for (let epoch = 0; epoch < options.epochs; epoch++) {
      const g = new Float64Array(bias + 1);
      rows.forEach((row, i) => {
        const z = row.reduce((sum, j) => sum + (w[j] ?? 0), w[bias] ?? 0);
        const e = 1 / (1 + Math.exp(-z)) - (y[i] ?? 0);
        for (const j of row) g[j] = (g[j] ?? 0) + e;
        g[bias] = (g[bias] ?? 0) + e;
      });
      for (let j = 0; j < bias; j++) w[j] = (w[j] ?? 0) - 0.5 * ((g[j] ?? 0) / n + (options.lambda / n) * (w[j] ?? 0));
      w[bias] = (w[bias] ?? 0) - (0.5 * (g[bias] ?? 0)) / n;
    }
    return w;
  });
  return { vocabulary, weights };
}

/** The probability of each type for a sample's words. */
export function probabilities(model: TrainedModel, words: ReadonlySet<string>): number[] {
  const index = new Map(model.vocabulary.map((w, i) => [w, i]));
  const row = [...words].flatMap((w) => index.get(w) ?? []);
  const bias = model.vocabulary.length;
  return model.weights.map((w) => 1 / (1 + Math.exp(-row.reduce((sum, j) => sum + (w[j] ?? 0), w[bias] ?? 0))));
}
