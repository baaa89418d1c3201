import { loadCorpus, readCorpusLog, benchmarkTail } from '../test/unit/classify/real-corpus-metrics.js';
const e = loadCorpus().find((x) => x.file.includes(process.argv[2] + '.log'))!;
console.log(benchmarkTail(readCorpusLog(e)));
