import { formatScore, loadCorpus, predictFull, predictTail, score } from './test/unit/classify/real-corpus-metrics.js';
const c = loadCorpus();
for (const split of ['tuning', 'evaluation'] as const) {
  const e = c.filter((x) => x.split === split);
  console.log(formatScore(`BEFORE ${split} whole logs`, score(await predictFull(e))));
  console.log(formatScore(`BEFORE ${split} tail`, score(await predictTail(e))));
}
