/**
 * How much of the benchmark-tail figure (issue 16: failing logs cut to their last 3,000 characters, headers
 * removed) is lost to the cut itself. For each half: the labels the classifier gets right on a whole log but not on
 * its tail, split by whether that label's evidence line is still in the tail (a miss on the tail) or was cut away
 * (job clean-up output fills the last 3,000 characters); and the tail macro-F1 with the cut-away labels given back,
 * an upper bound for what better reading of the tails could reach without reading past the cut. Counts and scores
 * only; it prints no log line.
 *
 *   npx tsx bench/classify-tail-cut.ts
 */
import { classifyJob, labelTypes } from '../src/classify/index.js';
import type { ErrorType } from '../src/domain/error-types.js';
import { benchmarkTail, loadCorpus, readCorpusLog, score, type CorpusSplit, type Prediction } from '../test/unit/classify/real-corpus-metrics.js';

/** A label's evidence is in the tail when one of its lines (its first 80 characters, trimmed) occurs there. */
const EVIDENCE_PREFIX = 80;

for (const split of ['tuning', 'evaluation'] satisfies CorpusSplit[]) {
  const entries = loadCorpus().filter((entry) => entry.split === split && entry.conclusion === 'failure');
  const tails: Prediction[] = [];
  const givenBack: Prediction[] = [];
  let inTail = 0;
  let cut = 0;
  for (const entry of entries) {
    const raw = readCorpusLog(entry);
    const tailText = benchmarkTail(raw);
    const whole = await classifyJob({ log: raw, jobConclusion: 'failure' });
    const got = labelTypes(await classifyJob({ log: tailText, jobConclusion: 'failure' }));
    const restored: ErrorType[] = [];
    for (const label of whole.labels) {
      if (!entry.labels.includes(label.type) || got.includes(label.type) || restored.includes(label.type)) continue;
      const seen = label.evidence.some((line) => line.text.trim().length > 5 && tailText.includes(line.text.trim().slice(0, EVIDENCE_PREFIX)));
      if (seen) {
        inTail++;
        continue;
      }
      cut++;
      restored.push(label.type);
    }
    tails.push({ entry, got });
    givenBack.push({ entry, got: [...got, ...restored] });
  }
  console.log(
    `${split}: ${entries.length} failing logs; right on the whole log, lost on the tail: ${inTail + cut} labels, evidence still in the tail ${inTail}, cut away ${cut}; ` +
      `tail macro-F1 ${score(tails).macroF1.toFixed(3)}, with the cut-away labels given back ${score(givenBack).macroF1.toFixed(3)}`,
  );
}
