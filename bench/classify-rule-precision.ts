/**
 * Per rule, how often its label is right on the corpus's TUNING half (whole failing logs and their benchmark tails),
 * listing the rules wrong at least twice, worst first, with up to four of the logs they were wrong on: where a rule's
 * type disagrees with how the readers label what it matches (issue 16; the twenty-fourth pass re-typed Gradle's HTTP
 * statuses from it: 0 right, 6 wrong). Tuning half only: the evaluation half is never read to shape rules.
 *
 *   npx tsx bench/classify-rule-precision.ts
 */
import { classifyJob } from '../src/classify/index.js';
import { benchmarkTail, loadCorpus, readCorpusLog } from '../test/unit/classify/real-corpus-metrics.js';

const stats = new Map<string, { right: number; wrong: number; logs: string[] }>();
for (const entry of loadCorpus().filter((e) => e.split === 'tuning' && e.conclusion === 'failure')) {
  const raw = readCorpusLog(entry);
  for (const [mode, log] of [['whole', raw], ['tail', benchmarkTail(raw)]] as const) {
    for (const label of (await classifyJob({ log, jobConclusion: 'failure' })).labels) {
      // A rule's `/also` evidence (the second type it gives) counts under the rule itself.
      const key = `${label.type} <- ${(label.evidence[0]?.rule ?? label.tool ?? 'no rule').replace(/\/also$/, '')}`;
      const s = stats.get(key) ?? { right: 0, wrong: 0, logs: [] };
      if (entry.labels.includes(label.type)) s.right++;
      else {
        s.wrong++;
        s.logs.push(`${mode}:${entry.file}`);
      }
      stats.set(key, s);
    }
  }
}
for (const [key, s] of [...stats].filter(([, s]) => s.wrong >= 2).sort((a, b) => b[1].wrong - a[1].wrong)) {
  console.log(`${String(s.wrong).padStart(3)} wrong ${String(s.right).padStart(4)} right  ${key}   ${s.logs.slice(0, 4).join(' ')}`);
}
