import { classifyJob } from '../src/classify/index.js';
import { loadCorpus, readCorpusLog, benchmarkTail } from '../test/unit/classify/real-corpus-metrics.js';
const tail = process.argv[2] === 'tail';
for (const name of process.argv.slice(tail ? 3 : 2)) {
  const e = loadCorpus().find((x) => x.file.includes(name + '.log'))!;
  const log = tail ? benchmarkTail(readCorpusLog(e)) : readCorpusLog(e);
  const r = await classifyJob(e.conclusion === 'failure' ? { log, jobConclusion: 'failure' } : { log });
  console.log(`== ${name} want=${e.labels.join(',')} layout=${r.parsed.layout} steps=${r.parsed.steps.length} failed=${r.parsed.failedSteps.length}`);
  for (const s of r.parsed.failedSteps.slice(0, 4)) {
    console.log(`  FAILED ${JSON.stringify(s.title.slice(0, 60))} cmd=${JSON.stringify(s.command.slice(0, 60))} err=${JSON.stringify((s.errorLines[0]?.text ?? '').slice(0, 80))}`);
    for (const h of s.hits) console.log(`    ${h.fallback ? 'FB ' : ''}${h.yieldsTo.length ? 'W ' : ''}${h.type} ${h.ruleId} x${h.count}: ${JSON.stringify(h.evidence[0]?.text.split('\n').slice(-1)[0]?.slice(0, 110))}`);
  }
}
