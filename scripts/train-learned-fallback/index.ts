/**
 * Trains the classifier's learned fallback (issue 16) on the real-log corpus's TUNING half only and writes
 * src/classify/learned/model-data.ts:
 *
 *   npx tsx scripts/train-learned-fallback/pre-rule-readings.ts   # readings of new tuning logs, before their rules
 *   npx tsx scripts/train-learned-fallback/index.ts
 *
 * Samples: every failing tuning log, read whole, through the classifier's own parser and the fallback's own
 * features (src/classify/learned/features.ts).
 *
 * Thresholds: the fallback speaks only where no rule does, and in use that is on logs no rule was written for. The
 * tuning half's stand-in for such logs is its pre-rule readings (pre-rule-readings.ts): what the rules said of each
 * tuning log before its collection pass's rules were written. Each type's threshold is the one of THRESHOLDS (or
 * never) that maximises the type's F1 over those readings, the model filling in where a reading has no label, its
 * probabilities from 5-fold cross-validation by repository, whole logs and their benchmark tails counted together.
 * A type's F1 depends on its own threshold only, so each is chosen alone; a threshold stays above what the model
 * says of output without a word it knows (its prior for the type), so output it cannot read gets no label. The evaluation half is never read here.
 * Run both again whenever the corpus changes (a unit test compares the corpus the model was trained on with the
 * current tuning half, and checks every failing tuning log has a reading).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog } from '../../src/classify/parse-log.js';
import { RULES } from '../../src/classify/rules/index.js';
import { jobFeatures, LEARNED_TAIL_LINES } from '../../src/classify/learned/features.js';
import { loadPreRuleReadings, type PreRuleReading } from './readings.js';
import { tuningDigest } from './tuning-digest.js';
import { ERROR_TYPES } from '../../src/domain/error-types.js';
import { benchmarkTail, loadCorpus, readCorpusLog, type CorpusEntry } from '../../test/unit/classify/real-corpus-metrics.js';
import { probabilities, trainModel, type TrainingSample, type TrainedModel } from './train.js';

/** Chosen by grid.ts (cross-validation on the tuning half), with LEARNED_TAIL_LINES and the word pairs. */
const OPTIONS = { lambda: 0.1, epochs: 300, minRepos: 3 } as const;
const THRESHOLDS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;
const NEVER = 2;
const FOLDS = 5;

async function features(log: Buffer | string): Promise<Set<string>> {
  const parsed = await parseLog(log, { rules: RULES, keepTailLines: LEARNED_TAIL_LINES, assumeFailure: true });
  return jobFeatures(parsed.failedSteps);
}

const tuning = loadCorpus().filter((e) => e.split === 'tuning' && e.conclusion === 'failure');
const whole: TrainingSample[] = [];
const tails: TrainingSample[] = [];
for (const entry of tuning) {
  const raw = readCorpusLog(entry);
  whole.push({ repo: entry.repo, labels: entry.labels, words: await features(raw) });
  tails.push({ repo: entry.repo, labels: entry.labels, words: await features(benchmarkTail(raw)) });
}

const fold = (repo: string): number => Number.parseInt(createHash('sha256').update(repo.toLowerCase()).digest('hex').slice(0, 8), 16) % FOLDS;

const readings = loadPreRuleReadings();
const unread = tuning.filter((e) => readings[e.file] === undefined);
if (unread.length > 0) throw new Error(`${unread.length} failing tuning logs have no pre-rule reading (first: ${unread[0]?.file}): run scripts/train-learned-fallback/pre-rule-readings.ts first`);

/** Per type and candidate threshold: the type's counts over the pre-rule readings with the model (cross-validated) filling in. */
type Count = { tp: number; fp: number; fn: number };
/** Ascending, never last: on a tie the higher threshold wins. */
const CANDIDATES = [...THRESHOLDS, NEVER];
const tally = new Map(ERROR_TYPES.map((type) => [type, CANDIDATES.map((): Count => ({ tp: 0, fp: 0, fn: 0 }))]));
for (let f = 0; f < FOLDS; f++) {
  const model = trainModel(whole.filter((s) => fold(s.repo) !== f), OPTIONS);
  tuning.forEach((entry, i) => {
    if (fold(entry.repo) !== f) return;
    const reading = readings[entry.file] as PreRuleReading;
    for (const [sample, rules] of [[whole[i], reading.whole], [tails[i], reading.tail]] as const) {
      const p = probabilities(model, (sample as TrainingSample).words);
      ERROR_TYPES.forEach((type, k) => {
        CANDIDATES.forEach((threshold, c) => {
          const said = rules.length > 0 ? rules.includes(type) : (p[k] ?? 0) >= threshold;
          const count = tally.get(type)?.[c] as Count;
          if (said && entry.labels.includes(type)) count.tp++;
          else if (said) count.fp++;
          else if (entry.labels.includes(type)) count.fn++;
        });
      });
    }
  });
}
const f1 = (c: Count): number => (c.tp === 0 ? 0 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn));
const model = trainModel(whole, OPTIONS);
/** What the model says of output it has no word for: a threshold stays above it, so unreadable output gets no label. */
const prior = probabilities(model, new Set());
/** Per type: the candidate above the prior with the highest F1 (the higher threshold on a tie). */
const thresholds = ERROR_TYPES.map((type, k) => {
  const counts = tally.get(type) as Count[];
  let best = CANDIDATES.length - 1;
  counts.forEach((c, i) => {
    if ((CANDIDATES[i] as number) > (prior[k] ?? 1) && f1(c) >= f1(counts[best] as Count)) best = i;
  });
  const chosen = CANDIDATES[best] as number;
  console.log(`${type.padEnd(27)} prior ${(prior[k] ?? 0).toFixed(2)} ${counts.map((c, i) => `${CANDIDATES[i] === NEVER ? 'never' : CANDIDATES[i]}: ${f1(c).toFixed(3)}`).join('  ')}  → ${chosen === NEVER ? 'never' : chosen}`);
  return chosen;
});
writeModel(model, thresholds, tuning);

function writeModel(m: TrainedModel, thresholds: readonly number[], entries: readonly CorpusEntry[]): void {
  const width = m.vocabulary.length + 1;
  const flat = new Float32Array(width * m.weights.length);
  m.weights.forEach((w, k) => flat.set(w, k * width));
  const text = [
    '// Generated by `npx tsx scripts/train-learned-fallback/index.ts` from the real-log corpus\'s tuning half; do not edit.',
    'export const LEARNED_MODEL = {',
    `  /** tuningDigest() of the corpus it was trained on. */`,
    `  trainedOn: '${tuningDigest(entries)}',`,
    `  logs: ${entries.length},`,
    `  repos: ${new Set(entries.map((e) => e.repo)).size},`,
    '  /** Per type in ERROR_TYPES order; 2 = never (no threshold raised the type\'s F1 over the pre-rule readings). */',
    `  thresholds: [${thresholds.join(', ')}],`,
    `  lambda: ${OPTIONS.lambda},`,
    `  epochs: ${OPTIONS.epochs},`,
    `  minRepos: ${OPTIONS.minRepos},`,
    '  /** Space-separated, sorted. */',
    `  vocabulary: '${m.vocabulary.join(' ')}',`,
    '  /** Float32 little-endian, base64: per type in ERROR_TYPES order, one weight per vocabulary word, then the bias. */',
    `  weights: '${Buffer.from(flat.buffer).toString('base64')}',`,
    '} as const;',
    '',
  ].join('\n');
  const out = join(import.meta.dirname, '../../src/classify/learned/model-data.ts');
  writeFileSync(out, text);
  console.log(`wrote ${out}: ${m.vocabulary.length} words, ${entries.length} logs, ${(text.length / 1024).toFixed(0)} KiB`);
}
