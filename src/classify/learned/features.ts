import type { LogLine, ParsedStep } from '../types.js';

/** Output lines of a failing step the learned fallback reads (its last ones). */
export const LEARNED_TAIL_LINES = 300;

const WORD = /[a-z][a-z_]{2,30}/g;
const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'this', 'that', 'run', 'are', 'not', 'you', 'your', 'was', 'has', 'have', 'will', 'use', 'see', 'can']);

/** The distinct words of one output line (lower-cased, 3-31 letters or underscores, common English words left out). */
export function lineWords(text: string): string[] {
  const words = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(WORD)) if (!STOP.has(word)) words.add(word);
  return [...words];
}

/** The failing step's last output lines the model reads. */
export const learnedTail = (step: ParsedStep): LogLine[] => (step.tail ?? []).slice(-LEARNED_TAIL_LINES);

/**
 * The features of a failed job for the learned fallback: the words of its failing steps' last output lines, and
 * the words of their titles and commands prefixed `cmd:`. Training (scripts/train-learned-fallback.ts) and the
 * classifier both read a job through this function, so they see the same features.
 */
export function jobFeatures(failedSteps: readonly ParsedStep[]): Set<string> {
  const words = new Set<string>();
  for (const step of failedSteps) {
    for (const { text } of learnedTail(step)) for (const word of lineWords(text)) words.add(word);
    for (const [word] of `${step.title}\n${step.command}`.toLowerCase().matchAll(WORD)) words.add(`cmd:${word}`);
  }
  return words;
}
