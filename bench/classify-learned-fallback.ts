/**
 * An experiment kept for its figures (issue 16): would a statistical fallback, trained on the corpus's tuning half
 * only, label the failing logs no rule explains? One logistic regression per error type over the words of the
 * failing steps' last 300 lines (and their commands), words seen in at least 3 tuning repositories, L2 λ = 0.1,
 * threshold 0.3 (chosen by 5-fold cross-validation on the tuning half, folds by repository). Prints the model's
 * macro-F1 alone under cross-validation, then, trained on the whole tuning half, what it adds to the rules on the
 * evaluation half when it labels only the logs the rules leave unlabelled, and how many of its labels are right.
 *
 *   npx tsx bench/classify-learned-fallback.ts
 *
 * The classifier does not use it: see docs/classification.md (measured 2026-12-02).
 */
import { createHash } from 'node:crypto';
import { classifyJob, labelTypes } from '../src/classify/index.js';
import { ERROR_TYPES, type ErrorType } from '../src/domain/error-types.js';
import { benchmarkTail, loadCorpus, readCorpusLog, score, type CorpusEntry } from '../test/unit/classify/real-corpus-metrics.js';

type Mode = 'whole' | 'tail';
interface Sample {
  entry: CorpusEntry;
  mode: Mode;
  rules: ErrorType[];
  words: Set<string>;
}
interface Model {
  index: Map<string, number>;
  weights: Float64Array[];
}

const LAMBDA = 0.1;
const THRESHOLD = 0.3;
const MIN_REPOS = 3;
const EPOCHS = 300;
const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'this', 'that', 'run', 'are', 'not', 'you', 'your', 'was', 'has', 'have', 'will', 'use', 'see', 'can']);
const WORD = /[a-z][a-z_]{2,30}/g;

async function sample(entry: CorpusEntry, mode: Mode): Promise<Sample> {
  const raw = readCorpusLog(entry);
  const result = await classifyJob({ log: mode === 'whole' ? raw : benchmarkTail(raw), jobConclusion: 'failure', keepTailLines: 300 });
  const words = new Set<string>();
  for (const step of result.parsed.failedSteps) {
    for (const { text } of step.tail ?? []) for (const [w] of text.toLowerCase().matchAll(WORD)) if (!STOP.has(w)) words.add(w);
    for (const [w] of `${step.title}\n${step.command}`.toLowerCase().matchAll(WORD)) words.add(`cmd:${w}`);
  }
  return { entry, mode, rules: labelTypes(result), words };
}

function train(samples: readonly Sample[]): Model {
  const repos = new Map<string, Set<string>>();
  for (const s of samples) for (const w of s.words) repos.set(w, (repos.get(w) ?? new Set()).add(s.entry.repo));
  const vocabulary = [...repos].filter(([, r]) => r.size >= MIN_REPOS).map(([w]) => w);
  const index = new Map(vocabulary.map((w, i) => [w, i]));
  const rows = samples.map((s) => [...s.words].flatMap((w) => index.get(w) ?? []));
  const bias = vocabulary.length;
  const weights = ERROR_TYPES.map((type) => {
    const w = new Float64Array(bias + 1);
    const y = samples.map((s) => (s.entry.labels.includes(type) ? 1 : 0));
    for (let epoch = 0; epoch < EPOCHS; epoch++) {
      const g = new Float64Array(bias + 1);
      rows.forEach((row, i) => {
        const z = row.reduce((sum, j) => sum + (w[j] ?? 0), w[bias] ?? 0);
        const e = 1 / (1 + Math.exp(-z)) - (y[i] ?? 0);
        for (const j of row) g[j] = (g[j] ?? 0) + e;
        g[bias] = (g[bias] ?? 0) + e;
      });
      const n = samples.length;
      for (let j = 0; j < bias; j++) w[j] = (w[j] ?? 0) - 0.5 * ((g[j] ?? 0) / n + (LAMBDA / n) * (w[j] ?? 0));
      w[bias] = (w[bias] ?? 0) - (0.5 * (g[bias] ?? 0)) / n;
    }
    return w;
  });
  return { index, weights };
}

function predict(model: Model, s: Sample): ErrorType[] {
  const row = [...s.words].flatMap((w) => model.index.get(w) ?? []);
  return model.weights.flatMap((w, k) => {
    const z = row.reduce((sum, j) => sum + (w[j] ?? 0), w[model.index.size] ?? 0);
    const type = ERROR_TYPES[k];
    return type !== undefined && 1 / (1 + Math.exp(-z)) >= THRESHOLD ? [type] : [];
  });
}

const fold = (repo: string): number => Number.parseInt(createHash('sha256').update(repo.toLowerCase()).digest('hex').slice(0, 8), 16) % 5;
const macro = (rows: { entry: CorpusEntry; got: ErrorType[] }[]): string => score(rows).macroF1.toFixed(3);

const failing = loadCorpus().filter((e) => e.conclusion === 'failure');
const samples: Sample[] = [];
for (const entry of failing) for (const mode of ['whole', 'tail'] as const) samples.push(await sample(entry, mode));
const tuningWhole = samples.filter((s) => s.entry.split === 'tuning' && s.mode === 'whole');

for (const mode of ['whole', 'tail'] as const) {
  const rows: { entry: CorpusEntry; got: ErrorType[] }[] = [];
  for (let f = 0; f < 5; f++) {
    const model = train(tuningWhole.filter((s) => fold(s.entry.repo) !== f));
    for (const s of samples.filter((x) => x.entry.split === 'tuning' && x.mode === mode && fold(x.entry.repo) === f)) rows.push({ entry: s.entry, got: predict(model, s) });
  }
  console.log(`tuning half, ${mode}, 5-fold cross-validation by repository: model alone macro-F1 ${macro(rows)}`);
}
const model = train(tuningWhole);
for (const mode of ['whole', 'tail'] as const) {
  const evaluation = samples.filter((s) => s.entry.split === 'evaluation' && s.mode === mode);
  let right = 0;
  let wrong = 0;
  const combined = evaluation.map((s) => {
    if (s.rules.length > 0) return { entry: s.entry, got: s.rules };
    const got = predict(model, s);
    for (const type of got) if (s.entry.labels.includes(type)) right++;
    else wrong++;
    return { entry: s.entry, got };
  });
  console.log(
    `evaluation half, ${mode} (failing logs): rules ${macro(evaluation.map((s) => ({ entry: s.entry, got: s.rules })))}, rules + fallback ${macro(combined)}; fallback labels ${right} right, ${wrong} wrong`,
  );
}
