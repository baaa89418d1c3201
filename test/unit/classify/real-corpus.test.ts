import { describe, expect, it } from 'vitest';
import { ERROR_TYPES } from '../../../src/domain/error-types.js';
import { formatScore, loadCorpus, predictFull, predictTail, score, type CorpusScore, type CorpusSplit } from './real-corpus-metrics.js';

/**
 * Real GitHub Actions logs (test/fixtures/logs/real, see its index.json): rules are written against the tuning half
 * only; the evaluation half measures them. Figures print on every run:
 *
 *   npx vitest run test/unit/classify/real-corpus.test.ts
 */
const corpus = loadCorpus();
const bySplit = (split: CorpusSplit) => corpus.filter((e) => e.split === split);

/**
 * Floors enforced on the evaluation half: the figures measured when the classifier was last changed (0.795 and 0.734
 * on the 3,289-log corpus with the learned fallback, 2026-12-04; the rules alone give 0.746 and 0.683), rounded down. Issue 16 asks 0.85 for whole logs and 0.75 for the tails; neither
 * is reached yet (see docs/classification.md). Raise these when the rules improve; never lower them to let a rule
 * change through. Re-anchored when the corpus grows: each collection pass's logs, before the rules written from its
 * tuning half, bring the evaluation half down (fifth pass 0.770 / 0.568 → 0.740 / 0.532, eighth 0.761 / 0.593 →
 * 0.750 / 0.578, ninth 0.754 / 0.583 → 0.742 / 0.577 and 0.749 / 0.582 → 0.747 / 0.571), and its rules raise it
 * again by less; the tenth and eleventh passes' logs (most quoted in threads, shorter) moved it little,
 * 0.747 / 0.571 → 0.758 / 0.595 and 0.760 / 0.599 → 0.759 / 0.611, the twelfth's lowered it, 0.761 / 0.614 →
 * 0.747 / 0.609, the thirteenth's, 0.749 / 0.612 → 0.743 / 0.613, the fourteenth's, 0.747 / 0.615 → 0.734 / 0.623
 * (its rules: 0.745 / 0.636), the fifteenth's, 0.745 / 0.636 → 0.730 / 0.625 (its rules: 0.736 / 0.632), the
 * sixteenth's, 0.736 / 0.632 → 0.721 / 0.626 (its rules: 0.730 / 0.635), and the seventeenth's, 0.730 / 0.635 →
 * 0.731 / 0.633 (its rules and review fixes: 0.733 / 0.635), and the eighteenth's, 0.733 / 0.635 → 0.731 / 0.641 (its
 * rules and review fixes: 0.737 / 0.649), and the nineteenth's, 0.737 / 0.649 → 0.740 / 0.652 (its rules: 0.741 /
 * 0.654; with the learned fallback, retrained on the grown tuning half: 0.773 / 0.689), and the twentieth's (rules
 * alone), 0.741 / 0.653 → 0.741 / 0.655 (its rules: 0.743 / 0.656; with the retrained fallback: 0.777 / 0.693); the
 * fallback's thresholds chosen for F1 on the tuning half's pre-rule readings instead of for 85% precision: 0.793 / 0.702; trained on tails too, adding its surer types beside rule labels: 0.794 /
 * 0.714; the twenty-first pass's first 225 logs (rules and model unchanged), 0.794 / 0.714 → 0.800 / 0.725 (rules alone
 * 0.748 / 0.669), their rules and the retrained fallback: 0.806 / 0.731 (rules alone 0.750 / 0.671); its last 110 logs,
 * 0.806 / 0.731 → 0.810 / 0.737 (rules alone 0.751 / 0.675), their rules and the fallback retrained with a threshold
 * kept only when it beats the best so far by 0.01: 0.803 / 0.729 (rules alone 0.752 / 0.676); the twenty-second
 * pass's first 309 logs, 0.803 / 0.729 → 0.794 / 0.724, their rules and the retrained fallback: 0.801 / 0.738; its
 * next 99 logs, 0.801 / 0.738 → 0.798 / 0.737, their rules and the retrained fallback: 0.799 / 0.735; its last 32
 * logs, 0.799 / 0.735 → 0.797 / 0.734, their rules and the retrained fallback: 0.797 / 0.735; the twenty-third pass's 222 logs in three rounds,
 * 0.797 / 0.735 → 0.789 / 0.730 before the first round's rules, 0.795 / 0.734 after the last. The whole-log floor
 * goes down with the corpus (its new logs are harder for the rules than the old ones), not to let a rule through.
 */
const FLOORS = { evaluationFull: 0.79, evaluationTail: 0.73 } as const;

/** A half's whole logs take 45-60 s on the 2-core CI machine under load (the suite's 60 s default is too tight). */
const CORPUS_TIMEOUT_MS = 300_000;

const results = new Map<string, CorpusScore>();
async function measured(key: string, run: () => Promise<CorpusScore>): Promise<CorpusScore> {
  const hit = results.get(key);
  if (hit !== undefined) return hit;
  const s = await run();
  results.set(key, s);
  return s;
}

describe('real-log corpus', () => {
  it('is split by repository: no repository in both halves', () => {
    const tuning = new Set(bySplit('tuning').map((e) => e.repo));
    const evaluation = new Set(bySplit('evaluation').map((e) => e.repo));
    expect([...tuning].filter((r) => evaluation.has(r))).toEqual([]);
    expect(corpus.length).toBeGreaterThanOrEqual(400);
    expect(tuning.size + evaluation.size).toBeGreaterThanOrEqual(150);
    for (const entry of corpus) {
      for (const label of entry.labels) expect(ERROR_TYPES, entry.file).toContain(label);
      expect(entry.justification.length, entry.file).toBeGreaterThan(10);
      expect(entry.conclusion === 'success', entry.file).toBe(entry.labels.length === 0);
    }
  });

  for (const split of ['tuning', 'evaluation'] as const) {
    it(`prints per-type figures for the ${split} half (whole logs)`, async () => {
      const s = await measured(`${split}-full`, async () => score(await predictFull(bySplit(split))));
      console.log(formatScore(`${split} half, whole logs`, s));
      expect(s.labelledPassing, 'passing logs that got a label').toEqual([]);
      if (split === 'evaluation') expect(s.macroF1).toBeGreaterThanOrEqual(FLOORS.evaluationFull);
    }, CORPUS_TIMEOUT_MS);

    it(`prints per-type figures for the ${split} half (failing logs cut to their last 3,000 characters)`, async () => {
      const s = await measured(`${split}-tail`, async () => score(await predictTail(bySplit(split))));
      console.log(formatScore(`${split} half, last 3,000 characters without headers`, s));
      if (split === 'evaluation') expect(s.macroF1).toBeGreaterThanOrEqual(FLOORS.evaluationTail);
    }, CORPUS_TIMEOUT_MS);
  }
});
