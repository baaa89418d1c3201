import { parseLog } from '../src/classify/index.js';
import { RULES } from '../src/classify/rules/index.js';
import { loadCorpus, readCorpusLog, benchmarkTail } from '../test/unit/classify/real-corpus-metrics.js';
const e = loadCorpus().find((x) => x.file.includes(process.argv[2] + '.log'))!;
const t = benchmarkTail(readCorpusLog(e));
const p = await parseLog(t, { rules: RULES, assumeFailure: true });
console.log(p.layout, p.steps.map((s) => [s.title, s.speculative, s.failed, s.lineCount ?? s.endLine - s.startLine]));
console.log(JSON.stringify(t.slice(0, 300)));
