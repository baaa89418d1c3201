/**
 * What the learned fallback (src/classify/learned, trained by scripts/train-learned-fallback on the tuning half
 * only) adds on the corpus's EVALUATION half (issue 16): macro-F1 of the rules alone and of rules + fallback, on
 * whole failing logs and on their benchmark tails, and how many of the fallback's labels are right (those on logs no
 * rule explains and those beside rule labels). Each type's thresholds were chosen on the tuning half's pre-rule
 * readings under cross-validation (the training script prints them); this only reports.
 *
 *   npx tsx bench/classify-learned-fallback.ts
 */
import { classifyJob, labelTypes } from '../src/classify/index.js';
import type { ErrorType } from '../src/domain/error-types.js';
import { benchmarkTail, loadCorpus, readCorpusLog, score, type CorpusEntry } from '../test/unit/classify/real-corpus-metrics.js';

const evaluation = loadCorpus().filter((e) => e.split === 'evaluation' && e.conclusion === 'failure');
for (const mode of ['whole', 'tail'] as const) {
  const rules: { entry: CorpusEntry; got: ErrorType[] }[] = [];
  const combined: { entry: CorpusEntry; got: ErrorType[] }[] = [];
  let right = 0;
  let wrong = 0;
  let labelled = 0;
  for (const entry of evaluation) {
    const raw = readCorpusLog(entry);
    const log = mode === 'whole' ? raw : benchmarkTail(raw);
    const result = await classifyJob({ log, jobConclusion: 'failure' });
    const learned = result.labels.filter((label) => label.learned !== undefined).map((label) => label.type);
    if (learned.length > 0) labelled++;
    for (const type of learned) if (entry.labels.includes(type)) right++;
    else wrong++;
    const all = labelTypes(result);
    combined.push({ entry, got: all });
    rules.push({ entry, got: all.filter((type) => !learned.includes(type)) });
  }
  console.log(
    `evaluation half, ${mode} failing logs (${evaluation.length}): rules ${score(rules).macroF1.toFixed(3)}, rules + learned fallback ${score(combined).macroF1.toFixed(3)}; the fallback labelled ${labelled} logs, ${right} labels right, ${wrong} wrong`,
  );
}
