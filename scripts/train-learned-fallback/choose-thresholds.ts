import { likeliest } from '../../src/classify/learned/index.js';
import { ERROR_TYPES } from '../../src/domain/error-types.js';
import type { HeldOut } from './samples.js';

/** A threshold above 1: the type is never learned. */
export const NEVER = 2;
/** Ascending, never last. */
export const CANDIDATES = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, NEVER] as const;

/**
 * A threshold is adopted only when it raises the type's F1 by this much over the best so far (the rules alone, or a
 * higher threshold already adopted): less is within what moving one repository's logs between folds changes.
 */
export const MIN_GAIN = 0.01;

/**
 * Beside a rule's labels (the failure already explained) the model adds a type only when it finds it more likely
 * than not: `alongside` is never 0.5 or below (on 1,456 readings a 0.4 for Assertion Error won by 0.01 and put it
 * beside most test failures of the hand-written corpus).
 */
export const ALONGSIDE_FLOOR = 0.5;

export interface TypeChoice {
  /** When no rule explains the job. */
  alone: number;
  /** Beside a rule's labels of other types; never below `alone`. */
  alongside: number;
  /** The type's F1 over the held-out readings with the chosen pair, and with the model never speaking. */
  f1: number;
  rulesOnly: number;
}

type Count = { tp: number; fp: number; fn: number };
const f1 = (c: Count): number => (c.tp === 0 ? 0 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn));

/**
 * Per type, the thresholds chosen for F1 over the held-out pre-rule readings: a reading's labels are the
 * rules' then, plus the model's types at or above `alone` when the rules said nothing, or at or above `alongside`
 * when they said something else. `alone` is chosen first (with `alongside` never), then `alongside` (at least
 * `alone`, above ALONGSIDE_FLOOR); going down from the highest, each is adopted only when it raises the F1 by
 * MIN_GAIN over the best so far, so a lower threshold (more labels) must pay for itself and on a near tie the higher
 * threshold wins (`candidates`: ascending, NEVER last; variants.ts tries finer ones). Both stay
 * above `prior` (what the model says of output with no word it knows), so output it cannot read gets no label. A
 * type's F1 depends on its own thresholds only, so each type is chosen alone.
 */
export function chooseThresholds(rows: readonly HeldOut[], prior: readonly number[], candidates: readonly number[] = CANDIDATES): TypeChoice[] {
  return ERROR_TYPES.map((type, k) => {
    const count = (alone: number, alongside: number): Count => {
      const c = { tp: 0, fp: 0, fn: 0 };
      for (const row of rows) {
        const p = row.p[k] ?? 0;
        const said = row.rules.includes(type) || p >= (row.rules.length === 0 ? alone : alongside);
        const wanted = row.labels.includes(type);
        if (said && wanted) c.tp++;
        else if (said) c.fp++;
        else if (wanted) c.fn++;
      }
      return c;
    };
    const allowed = candidates.filter((t) => t > (prior[k] ?? 1)).reverse();
    const rulesOnly = f1(count(NEVER, NEVER));
    let best = { alone: NEVER, alongside: NEVER, f1: rulesOnly };
    for (const alone of allowed) {
      const score = f1(count(alone, NEVER));
      if (score >= best.f1 + MIN_GAIN) best = { alone, alongside: NEVER, f1: score };
    }
    for (const alongside of allowed.filter((t) => t >= best.alone && t > ALONGSIDE_FLOOR)) {
      const score = f1(count(best.alone, alongside));
      if (score >= best.f1 + MIN_GAIN) best = { ...best, alongside, f1: score };
    }
    return { ...best, rulesOnly };
  });
}

/**
 * A reading's labels with the chosen thresholds: the rules' then, the model's types at or above `alone` when the
 * rules said nothing (or `alongside` beside them), and, when that leaves the job without a label, the likeliest type
 * if its probability reaches `guess` and is above `baseline` (what the model says of output that says nothing).
 */
export function readingLabels(row: HeldOut, choices: readonly TypeChoice[], baseline: readonly number[], guess: number = NEVER): Set<number> {
  const said = new Set<number>();
  ERROR_TYPES.forEach((type, k) => {
    const c = choices[k];
    const p = row.p[k] ?? 0;
    if (row.rules.includes(type) || p >= (row.rules.length === 0 ? (c?.alone ?? NEVER) : (c?.alongside ?? NEVER))) said.add(k);
  });
  if (said.size > 0 || row.rules.length > 0) return said;
  const best = likeliest(row.p, baseline, guess);
  if (best !== undefined) said.add(best);
  return said;
}

/** Macro-F1 (mean over the 12 types) of the readings' labels with these thresholds and guess floor. */
export function readingsMacroF1(rows: readonly HeldOut[], choices: readonly TypeChoice[], baseline: readonly number[], guess: number = NEVER): number {
  const counts = ERROR_TYPES.map((): Count => ({ tp: 0, fp: 0, fn: 0 }));
  for (const row of rows) {
    const said = readingLabels(row, choices, baseline, guess);
    ERROR_TYPES.forEach((type, k) => {
      const c = counts[k] as Count;
      const wanted = row.labels.includes(type);
      if (said.has(k) && wanted) c.tp++;
      else if (said.has(k)) c.fp++;
      else if (wanted) c.fn++;
    });
  }
  return counts.reduce((sum, c) => sum + f1(c), 0) / counts.length;
}

/**
 * The guess floor: when neither the rules nor any type's `alone` threshold label a failed job, the fallback may still
 * name the likeliest type, if its probability reaches this floor (and is above the type's baseline). Chosen after the
 * thresholds, going down from the highest candidate, adopted only when it raises the readings' macro-F1 by MIN_GAIN
 * over the best so far (the guess moves several types' F1 at once, so it is judged on their mean).
 */
export function chooseGuessFloor(rows: readonly HeldOut[], choices: readonly TypeChoice[], baseline: readonly number[], candidates: readonly number[] = CANDIDATES): { guess: number; macroF1: number; without: number } {
  const without = readingsMacroF1(rows, choices, baseline);
  let best = { guess: NEVER, macroF1: without };
  for (const guess of candidates.filter((t) => t <= 1).reverse()) {
    const score = readingsMacroF1(rows, choices, baseline, guess);
    if (score >= best.macroF1 + MIN_GAIN) best = { guess, macroF1: score };
  }
  return { ...best, without };
}
