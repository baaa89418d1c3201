import { describe, expect, it } from 'vitest';
import { ALONGSIDE_FLOOR, chooseGuessFloor, chooseThresholds, NEVER, readingLabels } from '../../../scripts/train-learned-fallback/choose-thresholds.js';
import { likeliest } from '../../../src/classify/learned/index.js';
import type { HeldOut } from '../../../scripts/train-learned-fallback/samples.js';
import { ERROR_TYPES, type ErrorType } from '../../../src/domain/error-types.js';

const ASSERTION = ERROR_TYPES.indexOf('Assertion Error');
/** A held-out reading: its labels, what the rules said, and the model's probability for Assertion Error. */
const row = (labels: ErrorType[], rules: ErrorType[], p: number): HeldOut => ({ labels, rules, p: ERROR_TYPES.map((_, k) => (k === ASSERTION ? p : 0)) });
const prior = ERROR_TYPES.map(() => 0.1);

describe('learned fallback thresholds', () => {
  it('adds a type beside rule labels only when the model finds it more likely than not', () => {
    // Beside a rule's Test Failure, Assertion Error at p 0.45 is right 9 times in 10: a 0.4 would win on F1.
    const rows = [
      ...Array.from({ length: 9 }, () => row(['Test Failure', 'Assertion Error'], ['Test Failure'], 0.45)),
      row(['Test Failure'], ['Test Failure'], 0.45),
      row(['Assertion Error'], ['Assertion Error'], 0.9),
      // With nothing from the rules, 0.45 is enough (alone 0.4): only the floor keeps 0.4 from `alongside`.
      row(['Assertion Error'], [], 0.45),
    ];
    const choice = chooseThresholds(rows, prior)[ASSERTION];
    expect(choice?.alone).toBe(0.4);
    expect(choice?.alongside).toBe(NEVER);
    expect(ALONGSIDE_FLOOR).toBe(0.5);
  });

  it('still adopts a threshold above the floor beside rule labels', () => {
    const rows = [
      ...Array.from({ length: 9 }, () => row(['Test Failure', 'Assertion Error'], ['Test Failure'], 0.75)),
      row(['Test Failure'], ['Test Failure'], 0.2),
      // `alongside` is never below `alone`, which needs readings the rules said nothing of.
      row(['Assertion Error'], [], 0.65),
    ];
    expect(chooseThresholds(rows, prior)[ASSERTION]?.alongside).toBe(0.7);
  });

  it('adopts a lower threshold when no rule spoke only if it gains MIN_GAIN', () => {
    const rows = [
      ...Array.from({ length: 5 }, () => row(['Assertion Error'], [], 0.35)),
      ...Array.from({ length: 5 }, () => row([], [], 0.35)),
      ...Array.from({ length: 5 }, () => row(['Assertion Error'], [], 0.95)),
    ];
    // 0.9 catches 5 of 10 with no false positive (F1 0.667); 0.3 catches all 10 with 5 wrong (F1 0.8).
    expect(chooseThresholds(rows, prior)[ASSERTION]?.alone).toBe(0.3);
  });

  it('tries the candidates it is given, above the prior', () => {
    // The right readings sit at 0.17: the standard candidates (from 0.2) cannot reach them, finer ones can.
    const rows = [...Array.from({ length: 6 }, () => row(['Assertion Error'], [], 0.17)), ...Array.from({ length: 2 }, () => row([], [], 0.12))];
    expect(chooseThresholds(rows, prior)[ASSERTION]?.alone).toBe(NEVER);
    const fine = [0.05, 0.1, 0.15, 0.2, NEVER];
    expect(chooseThresholds(rows, prior, fine)[ASSERTION]?.alone).toBe(0.15);
    // A prior above 0.15 keeps the finer candidates out.
    expect(chooseThresholds(rows, ERROR_TYPES.map(() => 0.16), fine)[ASSERTION]?.alone).toBe(NEVER);
  });

  describe('best guess', () => {
    const TEST = ERROR_TYPES.indexOf('Test Failure');
    const CONFIG = ERROR_TYPES.indexOf('Configuration Error');
    /** A reading the rules said nothing of, with these probabilities for Test Failure and Configuration Error. */
    const guessRow = (labels: ErrorType[], test: number, config: number): HeldOut => ({ labels, rules: [], p: ERROR_TYPES.map((_, k) => (k === TEST ? test : k === CONFIG ? config : 0)) });
    const never = ERROR_TYPES.map(() => ({ alone: NEVER, alongside: NEVER, f1: 0, rulesOnly: 0 }));

    it('names the likeliest type above the floor and its baseline, only when nothing else labels the job', () => {
      const baseline = ERROR_TYPES.map((_, k) => (k === CONFIG ? 0.3 : 0.1));
      expect(likeliest([0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0.28, 0, 0], baseline, 0.2)).toBe(TEST); // Configuration Error is below its baseline
      expect(likeliest([0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0.35, 0, 0], baseline, 0.2)).toBe(CONFIG);
      expect(likeliest([0, 0, 0, 0, 0.15, 0, 0, 0, 0, 0, 0, 0], baseline, 0.2)).toBeUndefined();
      // beside a rule's label there is no guess
      expect([...readingLabels({ labels: [], rules: ['Code Linting'], p: ERROR_TYPES.map(() => 0.25) }, never, baseline, 0.2)]).toEqual([ERROR_TYPES.indexOf('Code Linting')]);
    });

    it('adopts a floor only when it raises the readings macro-F1 by MIN_GAIN', () => {
      const baseline = ERROR_TYPES.map(() => 0.1);
      // Right guesses at 0.25 for Test Failure, wrong ones for Configuration Error at 0.22: guessing pays.
      const pays = [...Array.from({ length: 8 }, () => guessRow(['Test Failure'], 0.25, 0.1)), ...Array.from({ length: 2 }, () => guessRow(['Test Failure'], 0.1, 0.22))];
      const chosen = chooseGuessFloor(pays, never, baseline);
      expect(chosen.guess).toBe(0.2);
      expect(chosen.macroF1).toBeGreaterThan(chosen.without);
      // Wrong guesses cost F1 on the type they name, which the rules label right elsewhere: no floor.
      const ruled: HeldOut = { labels: ['Configuration Error'], rules: ['Configuration Error'], p: ERROR_TYPES.map(() => 0) };
      const costs = [...Array.from({ length: 10 }, () => ruled), ...Array.from({ length: 8 }, () => guessRow(['Test Failure'], 0.05, 0.25))];
      const none = chooseGuessFloor(costs, never, baseline);
      expect(none.guess).toBe(NEVER);
      expect(none.macroF1).toBe(none.without);
    });
  });
});
