import { createHash } from 'node:crypto';
import { parseLog } from '../../src/classify/parse-log.js';
import { RULES } from '../../src/classify/rules/index.js';
import { jobFeatures, LEARNED_TAIL_LINES } from '../../src/classify/learned/features.js';
import type { ErrorType } from '../../src/domain/error-types.js';
import { benchmarkTail, loadCorpus, readCorpusLog, type CorpusEntry } from '../../test/unit/classify/real-corpus-metrics.js';
import { loadPreRuleReadings } from './readings.js';
import { probabilities, trainModel, type TrainingOptions, type TrainingSample } from './train.js';

/** A failing tuning log read whole and as its benchmark tail, each with what the rules said of it before its pass's rules. */
export interface TuningSamples {
  entries: CorpusEntry[];
  whole: TrainingSample[];
  tails: TrainingSample[];
  /** Per entry: the pre-rule readings of the whole log and of its tail. */
  before: { whole: ErrorType[]; tail: ErrorType[] }[];
}

async function features(log: Buffer | string): Promise<Set<string>> {
  const parsed = await parseLog(log, { rules: RULES, keepTailLines: LEARNED_TAIL_LINES, assumeFailure: true });
  return jobFeatures(parsed.failedSteps);
}

/** Every failing tuning log; throws when one has no pre-rule reading (pre-rule-readings.ts writes them). */
export async function loadTuningSamples(): Promise<TuningSamples> {
  const entries = loadCorpus().filter((e) => e.split === 'tuning' && e.conclusion === 'failure');
  const readings = loadPreRuleReadings();
  const unread = entries.filter((e) => readings[e.file] === undefined);
  if (unread.length > 0) throw new Error(`${unread.length} failing tuning logs have no pre-rule reading (first: ${unread[0]?.file}): run scripts/train-learned-fallback/pre-rule-readings.ts first`);
  const out: TuningSamples = { entries, whole: [], tails: [], before: [] };
  for (const entry of entries) {
    const raw = readCorpusLog(entry);
    out.whole.push({ repo: entry.repo, labels: entry.labels, words: await features(raw) });
    out.tails.push({ repo: entry.repo, labels: entry.labels, words: await features(benchmarkTail(raw)) });
    const reading = readings[entry.file];
    out.before.push({ whole: reading?.whole ?? [], tail: reading?.tail ?? [] });
  }
  return out;
}

export const FOLDS = 5;
export const fold = (repo: string): number => Number.parseInt(createHash('sha256').update(repo.toLowerCase()).digest('hex').slice(0, 8), 16) % FOLDS;

/** One held-out reading: the hand labels, what the rules said before, and the model's probabilities (ERROR_TYPES order). */
export interface HeldOut {
  labels: readonly ErrorType[];
  rules: readonly ErrorType[];
  p: number[];
}

/**
 * Every whole log and tail, with probabilities from a model that did not see its repository (5-fold
 * cross-validation by repository), trained on whole logs and their tails (or whole logs alone: `withTails` false).
 */
export function crossValidate(samples: TuningSamples, options: TrainingOptions, withTails = true): HeldOut[] {
  const rows: HeldOut[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const train = [...samples.whole, ...(withTails ? samples.tails : [])].filter((s) => fold(s.repo) !== f);
    const model = trainModel(train, options);
    samples.entries.forEach((entry, i) => {
      if (fold(entry.repo) !== f) return;
      const before = samples.before[i] ?? { whole: [], tail: [] };
      rows.push({ labels: entry.labels, rules: before.whole, p: probabilities(model, (samples.whole[i] as TrainingSample).words) });
      rows.push({ labels: entry.labels, rules: before.tail, p: probabilities(model, (samples.tails[i] as TrainingSample).words) });
    });
  }
  return rows;
}
