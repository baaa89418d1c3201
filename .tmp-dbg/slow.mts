import { RULES } from '../src/classify/rules/index.js';
const UNITS = ['1', 'a', ' ', ':', '/', '.', '-', '=', '_', '(', ')', '[', ']', ',', '"', "'", '\t', '>', '|', '#', '*', '%', 'a:', ': ', '::', 'a ', '1.', 'a/', 'a.', '1:', 'a::', 'a: ', '1 ', 'E ', 'a\\', '1%', '━', '█', '1/'];
const PREFIXES = ['', 'FAILED ', 'ERROR ', 'E   ', 'E', '##[error]', 'error: ', 'Error: ', 'File "', 'Traceback ', '  File "x.py", line ', 'Process completed with exit code '];
const worst: [number, string][] = [];
for (const rule of RULES) {
  let max = 0; let at = '';
  for (const pattern of [rule.linePattern, rule.headerPattern, rule.previousPattern]) {
    if (!pattern) continue;
    for (const p of PREFIXES) for (const u of UNITS) {
      const line = `${p}${u.repeat(Math.ceil(16384 / u.length))}\u0001`;
      const t = performance.now(); pattern.test(line); const ms = performance.now() - t;
      if (ms > max) { max = ms; at = JSON.stringify(p + u); }
    }
  }
  worst.push([max, `${rule.id} ${at}`]);
}
worst.sort((a, b) => b[0] - a[0]);
for (const [ms, id] of worst.slice(0, 12)) console.log(ms.toFixed(1), id);
