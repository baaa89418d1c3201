/**
 * Classifier throughput and memory on a 200 MB job log, next to `grep -E -c` over the same file.
 *
 *   npx tsx bench/classify.ts [--mb 200] [--failure-lines 12000] [--rules-only]
 *
 * The log (a realistic mix: job set-up, checkout, pip installs with download progress, long passing pytest runs
 * with ANSI colours, lint steps that pass, and a failing test step at the end) is generated once under
 * bench/.work/. The failing step prints 12,000 lines by default, so the rules read a full 10,000-line tail, as they
 * do on real failing test steps, and three lines of ~100 KB (a minified bundle in a stack trace, a JSON payload, a
 * run of one token); `--failure-lines 0` keeps only those and the 14 lines of the step measured before 2026-12-02.
 * Classification runs in a child process that reports its peak RSS (process.resourceUsage().maxRSS); the child is
 * this file compiled with tsc to plain JavaScript (bench/.work/dist), so a TypeScript loader's own memory is not
 * counted. The job is classified as failed (`jobConclusion: 'failure'`), as the pipeline does, so the learned
 * fallback runs beside the rules (it adds a type only when its probability reaches the type's `alongside` threshold);
 * `--rules-only` classifies it without a conclusion, the rules alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyJob, openLogFile } from '../src/classify/index.js';

const self = fileURLToPath(import.meta.url);
const workDir = join(dirname(self), '.work');
const repo = join(dirname(self), '..');

/** Compiles this file (and the classifier) to JavaScript under bench/.work/dist; returns the compiled path. */
function compileSelf(): string {
  const outDir = join(workDir, 'dist');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [tsc, '--ignoreConfig', '--outDir', outDir, '--rootDir', repo, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--skipLibCheck', '--types', 'node', join(repo, 'bench/classify.ts')];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tsc failed: ${run.stdout}${run.stderr}`);
  writeFileSync(join(outDir, 'package.json'), '{"type":"module"}\n');
  return join(outDir, 'bench/classify.js');
}

/** ERE patterns comparable to the rule table (tool messages, tracebacks, runner errors). */
const GREP_PATTERNS = [
  '^##\\[error\\]', 'Process completed with exit code [0-9]+', 'No space left on device', 'command not found',
  'Connection refused', 'Temporary failure in name resolution', 'The operation was canceled', 'has timed out',
  '(SyntaxError|IndentationError|TabError): ', 'ModuleNotFoundError: No module named', 'ImportError: cannot import name',
  'ResolutionImpossible', 'conflicting dependencies', 'No matching distribution found for', 'subprocess-exited-with-error',
  'Failed building wheel for', '^E +(AssertionError|assert )', '^E +[A-Za-z_.]+(Error|Exception)', '^FAILED [^ ]+',
  '^[^ ]+\\.py:[0-9]+: AssertionError$', '^[^ ]+\\.py:[0-9]+:[0-9]+: [A-Z]{1,3}[0-9]{2,4} ', '^would reformat ',
  'Imports are incorrectly sorted', '^Would reformat: ', '^[^ ]+\\.pyi?:[0-9]+: error: ', ' - error: ',
  '^[^ ]+\\([0-9]+,[0-9]+\\): error TS[0-9]+', '^ +D[0-9]{3}: ', '^[A-Za-z_.]+(Error|Exception): ', 'npm (ERR!|error) code',
  '--- FAIL: ', '^test result: FAILED', 'Tests run: [0-9]+, Failures: [1-9]', 'error\\[E[0-9]{4}\\]',
  'Invalid workflow file', 'TOMLDecodeError', 'ERROR: usage: ', 'Cannot find module', 'Warning, treated as error',
  '^Found [0-9]+ errors? in [0-9]+ files?',
];

const ts = (i: number): string => {
  const s = 10 + (i % 50);
  return `2025-04-07T12:${String(10 + ((i / 50) | 0) % 50).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(i % 10_000_000).padStart(7, '0')}Z`;
};

function generate(path: string, targetBytes: number, failureLines: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  let written = 0;
  let n = 0;
  let buf: string[] = [];
  const flush = (): void => {
    const chunk = buf.join('');
    writeSync(fd, chunk);
    written += Buffer.byteLength(chunk);
    buf = [];
  };
  const out = (text: string): void => {
    buf.push(`${ts(n++)} ${text}\n`);
    if (buf.length >= 4096) flush();
  };
  out("Current runner version: '2.323.0'");
  for (const t of ['##[group]Operating System', 'Ubuntu', '24.04.2', '##[endgroup]', 'Complete job name: test']) out(t);
  for (const t of ['##[group]Run actions/checkout@v4', 'with:', '  repository: org/repo', '##[endgroup]', 'Syncing repository: org/repo']) out(t);
  let round = 0;
  while (written < targetBytes - 2_000_000) {
    round++;
    out(`##[group]Run pip install -r requirements-${round}.txt`);
    out(`pip install -r requirements-${round}.txt`);
    out('shell: /usr/bin/bash -e {0}');
    out('##[endgroup]');
    for (let i = 0; i < 400; i++) {
      out(`Collecting package-${i}==1.${i % 10}.0 (from -r requirements-${round}.txt (line ${i + 1}))`);
      out(`  Downloading package_${i}-1.${i % 10}.0-py3-none-any.whl.metadata (${(i % 9) + 1}.${i % 10} kB)`);
      out(`  Downloading package_${i}-1.${i % 10}.0-py3-none-any.whl (${i % 300} kB)`);
      out(`     \x1b[90m━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\x1b[0m \x1b[32m${i % 300}.0/${i % 300}.0 kB\x1b[0m \x1b[31m12.1 MB/s\x1b[0m eta \x1b[36m0:00:00\x1b[0m`);
    }
    out(`Successfully installed ${Array.from({ length: 30 }, (_, i) => `package-${i}-1.${i % 10}.0`).join(' ')}`);
    out('##[group]Run flake8 src tests');
    out('flake8 src tests');
    out('##[endgroup]');
    out('0');
    out(`##[group]Run python -m pytest -v --color=yes tests/shard_${round}`);
    out(`python -m pytest -v --color=yes tests/shard_${round}`);
    out('##[endgroup]');
    out('\x1b[1m============================= test session starts ==============================\x1b[0m');
    out('platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0 -- /usr/bin/python3');
    for (let i = 0; i < 6000; i++) {
      out(`tests/shard_${round}/test_module_${i % 40}.py::TestFeature::test_case_${i} \x1b[32mPASSED\x1b[0m\x1b[32m                    [ ${String(Math.floor((i * 100) / 6000)).padStart(2)}%]\x1b[0m`);
      if (i % 500 === 0) out(`  /usr/lib/python3/dist-packages/_pytest/warning_types.py:${i % 200}: DeprecationWarning: datetime.utcnow() is deprecated and scheduled for removal`);
    }
    out(`\x1b[32m====================== \x1b[32m\x1b[1m6000 passed\x1b[0m\x1b[32m, 12 warnings in 41.37s\x1b[0m\x1b[32m ======================\x1b[0m`);
  }
  out('##[group]Run python -m pytest tests/final');
  out('python -m pytest tests/final');
  out('##[endgroup]');
  // The failing step is long, as real failing test steps are: the rules read its last 10,000 lines.
  for (let i = 0; i < failureLines; i++) {
    out(`tests/final/test_module_${i % 40}.py::TestFinal::test_case_${i} \x1b[32mPASSED\x1b[0m\x1b[32m                    [ ${String(Math.floor((i * 100) / failureLines)).padStart(2)}%]\x1b[0m`);
  }
  // Three long lines, as failing steps print them (a minified bundle in a stack trace, a JSON payload, a token run):
  // a pattern that backtracks on one long line would cost seconds here.
  out(`    at ${'a.b(c,d),e=f.g||{};'.repeat(5_000)}`);
  out(`Error: request failed: ${JSON.stringify({ items: Array.from({ length: 4_000 }, (_, i) => ({ id: i, ok: i % 7 === 0 })) })}`);
  out(`${'lint_'.repeat(20_000)} Error: ${' '.repeat(1_000)}!`);
  out('=================================== FAILURES ===================================');
  out('___________________________________ test_add ___________________________________');
  out('    def test_add():');
  out('>       assert add(2, 2) == 4');
  out('E       assert 5 == 4');
  out('E        +  where 5 = add(2, 2)');
  out('');
  out('tests/final/test_calc.py:5: AssertionError');
  out('=========================== short test summary info ============================');
  out('FAILED tests/final/test_calc.py::test_add - assert 5 == 4');
  out('========================= 1 failed, 3 passed in 0.05s ==========================');
  out('##[error]Process completed with exit code 1.');
  out('Post job cleanup.');
  out('Cleaning up orphan processes');
  flush();
  closeSync(fd);
}

/**
 * Classifies the log `runs` times in one process and reports each run. One run is a cold process (the CLI's case:
 * V8 runs the line loop unoptimized until it is compiled, about the first 20 MB); the second of two runs is a
 * worker that has classified before (the service's case: job logs are classified in long-lived worker processes).
 * Peak RSS is the process's, so it is read from one-run children for the memory bound.
 */
async function child(path: string, runs: number, rulesOnly: boolean): Promise<void> {
  const ms: number[] = [];
  let result: Awaited<ReturnType<typeof classifyJob>> | undefined;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    // as the pipeline classifies a failed job: the learned fallback reads its failing steps' last lines too
    result = await classifyJob(rulesOnly ? { log: openLogFile(path) } : { log: openLogFile(path), jobConclusion: 'failure' });
    ms.push(performance.now() - started);
  }
  const report = {
    ms,
    maxRssKb: process.resourceUsage().maxRSS,
    lines: result?.parsed.lineCount ?? 0,
    steps: result?.parsed.steps.length ?? 0,
    labels: (result?.labels ?? []).map((l) => `${l.type}${l.learned === undefined ? '' : ' (learned)'} (${l.stepName ?? ''})`),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

async function main(): Promise<void> {
  const mbArg = process.argv.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(process.argv[mbArg + 1]) : 200;
  const linesArg = process.argv.indexOf('--failure-lines');
  const failureLines = linesArg >= 0 ? Number(process.argv[linesArg + 1]) : 12_000;
  const path = join(workDir, `classify-${mb}mb-failure-${failureLines}-long-lines.log`);
  if (!existsSync(path) || Math.abs(statSync(path).size - mb * 1e6) > 3e6) {
    const t = performance.now();
    generate(path, mb * 1e6, failureLines);
    process.stdout.write(`generated ${path} in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  const bytes = statSync(path).size;
  const mbs = (ms: number): string => ((bytes / 1e6) / (ms / 1000)).toFixed(1);

  // Warm the page cache so both readers see the same file state.
  spawnSync('cat', [path], { stdio: ['ignore', 'ignore', 'inherit'] });

  const compiled = compileSelf();
  interface ChildReport { ms: number[]; maxRssKb: number; lines: number; steps: number; labels: string[] }
  const runChild = (runs: number): ChildReport => {
    const run = spawnSync(process.execPath, [compiled, '--child', path, String(runs), ...(process.argv.includes('--rules-only') ? ['--rules-only'] : [])], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as ChildReport;
  };
  const runGrep = (locale?: string): { ms: number; count: string } => {
    const g0 = performance.now();
    const env = locale === undefined ? process.env : { ...process.env, LC_ALL: locale };
    const grep = spawnSync('grep', ['-E', '-c', ...GREP_PATTERNS.flatMap((p) => ['-e', p]), path], { encoding: 'utf8', env });
    return { ms: performance.now() - g0, count: grep.stdout.trim() };
  };
  // Alternate grep, a cold child and a worker child, three times each (the machine is shared), and keep the best
  // run of each.
  const greps: { ms: number; count: string }[] = [];
  const colds: ChildReport[] = [];
  const workers: ChildReport[] = [];
  for (let i = 0; i < 3; i++) {
    greps.push(runGrep());
    colds.push(runChild(1));
    workers.push(runChild(2));
  }
  const grepBest = greps.reduce((a, b) => (b.ms < a.ms ? b : a));
  const grepC = [runGrep('C'), runGrep('C'), runGrep('C')].reduce((a, b) => (b.ms < a.ms ? b : a));
  const coldRuns = colds.map((r) => r.ms[0] ?? Infinity);
  const warmRuns = workers.map((r) => r.ms[1] ?? Infinity);
  const coldMs = Math.min(...coldRuns);
  const warmMs = Math.min(...warmRuns);
  const report = colds[0] as ChildReport;
  const grepMs = grepBest.ms;
  const peakKb = Math.max(...colds.map((r) => r.maxRssKb));
  const workerPeakKb = Math.max(...workers.map((r) => r.maxRssKb));

  process.stdout.write(
    [
      `log: ${(bytes / 1e6).toFixed(1)} MB, ${report.lines} lines, ${report.steps} steps`,
      `grep -E -c (${GREP_PATTERNS.length} patterns, LANG=${process.env.LANG ?? ''}): best ${grepMs.toFixed(0)} ms = ${mbs(grepMs)} MB/s (runs ${greps.map((g) => g.ms.toFixed(0)).join(', ')} ms; count ${grepBest.count})`,
      `classifyJob, cold process (CLI): best ${coldMs.toFixed(0)} ms = ${mbs(coldMs)} MB/s (runs ${coldRuns.map((ms) => ms.toFixed(0)).join(', ')} ms), peak RSS ${(peakKb / 1024).toFixed(1)} MB (runs ${colds.map((r) => (r.maxRssKb / 1024).toFixed(0)).join(', ')} MB)`,
      `classifyJob, second log of a process (worker): best ${warmMs.toFixed(0)} ms = ${mbs(warmMs)} MB/s (runs ${warmRuns.map((ms) => ms.toFixed(0)).join(', ')} ms), peak RSS after both ${(workerPeakKb / 1024).toFixed(1)} MB`,
      `grep -E -c with LC_ALL=C: best ${grepC.ms.toFixed(0)} ms = ${mbs(grepC.ms)} MB/s`,
      `ratio classify/grep speed, cold: ${(grepMs / coldMs).toFixed(2)} (vs LC_ALL=C grep: ${(grepC.ms / coldMs).toFixed(2)}); worker: ${(grepMs / warmMs).toFixed(2)} (vs LC_ALL=C grep: ${(grepC.ms / warmMs).toFixed(2)})`,
      `labels: ${report.labels.join('; ')}`,
    ].join('\n') + '\n',
  );
}

if (process.argv[2] === '--child') await child(process.argv[3] as string, Number(process.argv[4] ?? 1), process.argv.includes('--rules-only'));
else await main();
