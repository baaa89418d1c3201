/**
 * Two variants of the learned fallback measured on the TUNING half and not adopted (issue 16), under the same
 * 5-fold cross-validation by repository and threshold rule as index.ts (lowest threshold with ≥ 85% right, ≥ 5 right):
 *
 *   npx tsx scripts/train-learned-fallback/rejected.ts
 *
 * 1. Complement: the model adds types to logs a rule already labelled (right / wrong additions per threshold).
 * 2. Tails in training: the model trained on whole logs and their benchmark tails, against whole logs alone (right /
 *    wrong labels at each type's chosen threshold, on whole logs and on tails).
 * The evaluation half is never read here.
 */
import { createHash } from 'node:crypto';
import { classifyJob, labelTypes } from '../../src/classify/index.js';
import { jobFeatures, LEARNED_TAIL_LINES } from '../../src/classify/learned/features.js';
import { parseLog } from '../../src/classify/parse-log.js';
import { RULES } from '../../src/classify/rules/index.js';
import { ERROR_TYPES, type ErrorType } from '../../src/domain/error-types.js';
import { benchmarkTail, loadCorpus, readCorpusLog } from '../../test/unit/classify/real-corpus-metrics.js';
import { probabilities, trainModel, type TrainingSample } from './train.js';

const OPTIONS = { lambda: 0.1, epochs: 300, minRepos: 3 } as const;
const THRESHOLDS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
type Sample = TrainingSample & { rules: ErrorType[] };
type Count = { right: number; wrong: number };

const features = async (log: Buffer | string) => jobFeatures((await parseLog(log, { rules: RULES, keepTailLines: LEARNED_TAIL_LINES, assumeFailure: true })).failedSteps);
const rules = async (log: Buffer | string) => labelTypes(await classifyJob({ log, jobConclusion: 'failure', learnedFallback: false }));
const fold = (repo: string): number => Number.parseInt(createHash('sha256').update(repo.toLowerCase()).digest('hex').slice(0, 8), 16) % 5;
const precise = (c: Count): boolean => c.right >= 5 && c.right / (c.right + c.wrong) >= 0.85;
const counts = (): Count[][] => ERROR_TYPES.map(() => THRESHOLDS.map(() => ({ right: 0, wrong: 0 })));

const whole: Sample[] = [];
const tails: Sample[] = [];
for (const entry of loadCorpus().filter((e) => e.split === 'tuning' && e.conclusion === 'failure')) {
  const raw = readCorpusLog(entry);
  const tail = benchmarkTail(raw);
  whole.push({ repo: entry.repo, labels: entry.labels, words: await features(raw), rules: await rules(raw) });
  tails.push({ repo: entry.repo, labels: entry.labels, words: await features(tail), rules: await rules(tail) });
}

console.log('1. complement: additions to rule-labelled logs (whole and tails), right/wrong per threshold');
const added = counts();
for (let f = 0; f < 5; f++) {
  const model = trainModel(whole.filter((s) => fold(s.repo) !== f), OPTIONS);
  for (const s of [...whole, ...tails].filter((x) => fold(x.repo) === f && x.rules.length > 0)) {
    const p = probabilities(model, s.words);
    ERROR_TYPES.forEach((type, k) => {
      if (s.rules.includes(type)) return;
      THRESHOLDS.forEach((threshold, i) => {
        if ((p[k] ?? 0) < threshold) return;
        const c = added[k]?.[i] as Count;
        if (s.labels.includes(type)) c.right++;
        else c.wrong++;
      });
    });
  }
}
ERROR_TYPES.forEach((type, k) => {
  const row = added[k] as Count[];
  const i = row.findIndex(precise);
  console.log(`  ${type.padEnd(27)} ${row.map((c, j) => `${THRESHOLDS[j]}: ${c.right}/${c.wrong}`).join('  ')} → ${i < 0 ? 'never' : THRESHOLDS[i]}`);
});

console.log('2. training on whole logs alone vs whole logs and tails: right/wrong at the chosen thresholds');
for (const withTails of [false, true]) {
  const onWhole = counts();
  const onTails = counts();
  for (let f = 0; f < 5; f++) {
    const train = whole.filter((s) => fold(s.repo) !== f).concat(withTails ? tails.filter((s) => fold(s.repo) !== f) : []);
    const model = trainModel(train, OPTIONS);
    for (const [set, tally] of [[whole, onWhole], [tails, onTails]] as const) {
      for (const s of set.filter((x) => fold(x.repo) === f)) {
        const p = probabilities(model, s.words);
        ERROR_TYPES.forEach((type, k) =>
          THRESHOLDS.forEach((threshold, i) => {
            if ((p[k] ?? 0) < threshold) return;
            const c = tally[k]?.[i] as Count;
            if (s.labels.includes(type)) c.right++;
            else c.wrong++;
          }),
        );
      }
    }
  }
  const total = { whole: { right: 0, wrong: 0 }, tails: { right: 0, wrong: 0 } };
  ERROR_TYPES.forEach((_, k) => {
    const pooled = THRESHOLDS.map((_, i) => ({ right: (onWhole[k]?.[i]?.right ?? 0) + (onTails[k]?.[i]?.right ?? 0), wrong: (onWhole[k]?.[i]?.wrong ?? 0) + (onTails[k]?.[i]?.wrong ?? 0) }));
    const i = pooled.findIndex(precise);
    if (i < 0) return;
    for (const [key, tally] of [['whole', onWhole], ['tails', onTails]] as const) {
      total[key].right += tally[k]?.[i]?.right ?? 0;
      total[key].wrong += tally[k]?.[i]?.wrong ?? 0;
    }
  });
  console.log(`  ${withTails ? 'whole logs and tails' : 'whole logs alone    '}: whole ${total.whole.right}/${total.whole.wrong}, tails ${total.tails.right}/${total.tails.wrong}`);
}
