/**
 * How the learned fallback's features and regularisation were chosen (issue 16), on the TUNING half only: for each
 * setting, the model alone under 5-fold cross-validation by repository, right / wrong labels per threshold, on whole
 * failing logs (w) and on their benchmark tails (t). The setting kept is the one with the most right labels (whole
 * + tails) at the lowest threshold where both are right at least 85% of the time:
 *
 *   npx tsx scripts/train-learned-fallback/grid.ts
 *
 * Measured 2026-12-02 on 945 failing tuning logs (tail lines / λ / word pairs / min repositories → at the chosen
 * threshold): 300/0.1/no/3 → 0.7: w 334/56, t 242/27; 100/0.1/no/3 → 0.7: 340/58, 246/26; 300/1/no/3 → 0.7:
 * 307/51, 223/23; 300/0.01/no/3 → 0.7: 337/58, 246/29; 300/0.1/no/2 → 0.7: 329/53, 242/24; 300/0.1/yes/3 → 0.6:
 * 463/81, 365/48; 300/0.3/yes/3 → 0.6: 454/80, 357/48; 300/0.1/yes/4 → 0.7: 369/64, 270/36; kept 100/0.1/yes/3 →
 * 0.6: 466/80, 372/50.
 */
import { createHash } from 'node:crypto';
import { parseLog } from '../../src/classify/parse-log.js';
import { RULES } from '../../src/classify/rules/index.js';
import { lineFeatures, lineWords } from '../../src/classify/learned/features.js';
import type { ParsedStep } from '../../src/classify/types.js';
import { ERROR_TYPES } from '../../src/domain/error-types.js';
import { benchmarkTail, loadCorpus, readCorpusLog } from '../../test/unit/classify/real-corpus-metrics.js';
import { probabilities, trainModel, type TrainingSample } from './train.js';

const SETTINGS: { tailLines: number; lambda: number; pairs: boolean; minRepos: number }[] = [
  { tailLines: 300, lambda: 0.1, pairs: false, minRepos: 3 },
  { tailLines: 100, lambda: 0.1, pairs: false, minRepos: 3 },
  { tailLines: 300, lambda: 1, pairs: false, minRepos: 3 },
  { tailLines: 300, lambda: 0.01, pairs: false, minRepos: 3 },
  { tailLines: 300, lambda: 0.1, pairs: false, minRepos: 2 },
  { tailLines: 300, lambda: 0.1, pairs: true, minRepos: 3 },
  { tailLines: 100, lambda: 0.1, pairs: true, minRepos: 3 },
  { tailLines: 300, lambda: 0.3, pairs: true, minRepos: 3 },
  { tailLines: 300, lambda: 0.1, pairs: true, minRepos: 4 },
];
const THRESHOLDS = [0.5, 0.6, 0.7, 0.8];
const WORD = /[a-z][a-z_]{2,30}/g;

const tuning = loadCorpus().filter((e) => e.split === 'tuning' && e.conclusion === 'failure');
const read = async (log: Buffer | string): Promise<ParsedStep[]> => (await parseLog(log, { rules: RULES, keepTailLines: 1000, assumeFailure: true })).failedSteps;
const whole: ParsedStep[][] = [];
const tails: ParsedStep[][] = [];
for (const entry of tuning) {
  const raw = readCorpusLog(entry);
  whole.push(await read(raw));
  tails.push(await read(benchmarkTail(raw)));
}

function features(steps: readonly ParsedStep[], tailLines: number, pairs: boolean): Set<string> {
  const words = new Set<string>();
  for (const step of steps) {
    for (const { text } of (step.tail ?? []).slice(-tailLines)) for (const feature of pairs ? lineFeatures(text) : lineWords(text)) words.add(feature);
    for (const [word] of `${step.title}\n${step.command}`.toLowerCase().matchAll(WORD)) words.add(`cmd:${word}`);
  }
  return words;
}
const fold = (repo: string): number => Number.parseInt(createHash('sha256').update(repo.toLowerCase()).digest('hex').slice(0, 8), 16) % 5;

for (const setting of SETTINGS) {
  const samples = (parsed: ParsedStep[][]): TrainingSample[] => tuning.map((e, i) => ({ repo: e.repo, labels: e.labels, words: features(parsed[i] ?? [], setting.tailLines, setting.pairs) }));
  const w = samples(whole);
  const t = samples(tails);
  const tally = { w: THRESHOLDS.map(() => ({ right: 0, wrong: 0 })), t: THRESHOLDS.map(() => ({ right: 0, wrong: 0 })) };
  for (let f = 0; f < 5; f++) {
    const model = trainModel(w.filter((s) => fold(s.repo) !== f), { lambda: setting.lambda, epochs: 300, minRepos: setting.minRepos });
    for (const [key, set] of [['w', w], ['t', t]] as const) {
      for (const s of set.filter((x) => fold(x.repo) === f)) {
        const p = probabilities(model, s.words);
        THRESHOLDS.forEach((threshold, i) =>
          ERROR_TYPES.forEach((type, k) => {
            if ((p[k] ?? 0) < threshold) return;
            const count = tally[key][i] as { right: number; wrong: number };
            if (s.labels.includes(type)) count.right++;
            else count.wrong++;
          }),
        );
      }
    }
  }
  const cells = THRESHOLDS.map((threshold, i) => `${threshold}: w ${tally.w[i]?.right}/${tally.w[i]?.wrong} t ${tally.t[i]?.right}/${tally.t[i]?.wrong}`);
  console.log(`${JSON.stringify(setting)} ${cells.join(' | ')}`);
}
