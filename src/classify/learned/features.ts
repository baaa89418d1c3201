import type { LogLine, ParsedStep } from '../types.js';

/** Output lines of a failing step the learned fallback reads (its last ones). */
export const LEARNED_TAIL_LINES = 100;

const WORD = /[a-z][a-z_]{2,30}/g;
const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'this', 'that', 'run', 'are', 'not', 'you', 'your', 'was', 'has', 'have', 'will', 'use', 'see', 'can']);

/** The distinct words of one output line (lower-cased, 3-31 letters or underscores, common English words left out). */
export function lineWords(text: string): string[] {
  const words = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(WORD)) if (!STOP.has(word)) words.add(word);
  return [...words];
}

/** A line's features: its words and each pair of neighbouring words (`a+b`, in the order lineWords gives them). */
export function lineFeatures(text: string): string[] {
  const words = lineWords(text);
  const pairs = words.slice(1).map((word, i) => `${words[i] ?? ''}+${word}`);
  return [...words, ...pairs];
}

/**
 * Output that says nothing of why a job failed: no word at all, or only the runner's closing line as benchmark tails
 * and whole logs print it.
 */
const SAYS_NOTHING: readonly ReadonlySet<string>[] = ['', 'Process completed with exit code 1.', '##[error]Process completed with exit code 1.'].map((text) => new Set(lineFeatures(text)));

/**
 * Per type, the most a model (`probabilitiesOf`) says of output that says nothing: the fallback's best guess must
 * find its type likelier than this. The classifier and the training script both compute it here.
 */
export function saysNothingBaseline(probabilitiesOf: (features: ReadonlySet<string>) => readonly number[]): number[] {
  return SAYS_NOTHING.map(probabilitiesOf).reduce<number[]>((most, p) => p.map((x, k) => Math.max(x, most[k] ?? 0)), []);
}

/** The failing step's last output lines the model reads. */
export const learnedTail = (step: ParsedStep): LogLine[] => (step.tail ?? []).slice(-LEARNED_TAIL_LINES);

/**
 * The features of a failed job for the learned fallback: the words and word pairs of its failing steps' last output
 * lines, and the words of their titles and commands prefixed `cmd:`. Training (scripts/train-learned-fallback/index.ts) and the
 * classifier both read a job through this function, so they see the same features.
 */
export function jobFeatures(failedSteps: readonly ParsedStep[]): Set<string> {
  const words = new Set<string>();
  for (const step of failedSteps) {
    for (const { text } of learnedTail(step)) for (const feature of lineFeatures(text)) words.add(feature);
    for (const [word] of `${step.title}\n${step.command}`.toLowerCase().matchAll(WORD)) words.add(`cmd:${word}`);
  }
  return words;
}
