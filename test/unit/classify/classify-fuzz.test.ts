import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyJob, RULES, segmentLogs, type StepInput } from '../../../src/classify/index.js';
import { ERROR_TYPES } from '../../../src/domain/error-types.js';
import { fuzzSeed, mutateMany, prng, type Random } from '../../support/fuzz.js';

const SEED = fuzzSeed(20261216);
const CASES = 2500;
const SEGMENT_EVERY = 10;
const dir = join(import.meta.dirname, '../../fixtures/logs');

/** Lines GitHub's runner (and the tools it runs) print, to splice into logs. */
const LOG_LINES = [
  '##[group]Run pytest -q', '##[endgroup]', '##[error]Process completed with exit code 1.', '##[error]Process completed with exit code 137.', '##[error]',
  '##[warning]deprecated', '##[debug]x', '##[group]', 'Post job cleanup.', 'Cleaning up orphan processes', '2025-04-07T12:57:33.2943173Z ##[group]Run flake8 .',
  '2025-04-07T12:57:33.2943173Z ', '2025-04-07T12:57:33Z', '2025-13-45T99:99:99.9999999Z ##[error]', 'test\tRun pytest\t2025-04-07T12:57:33.2943173Z FAILED tests/test_x.py::test_y - AssertionError',
  'FAILED tests/test_app.py::test_main - assert 1 == 2', '=================== 3 failed, 10 passed in 1.23s ===================', 'E   AssertionError: assert 1 == 2',
  'src/app.py:10:1: F401 \'os\' imported but unused', 'would reformat src/app.py', 'error: Incompatible return value type (got "int", expected "str")  [return-value]',
  'ModuleNotFoundError: No module named \'numpy\'', 'ERROR: Could not find a version that satisfies the requirement foo==9.9', 'SyntaxError: invalid syntax',
  'Traceback (most recent call last):', '  File "/home/runner/work/r/r/src/app.py", line 3, in <module>', 'thread \'main\' panicked at src/main.rs:2:5:',
  '\u001b[31mFAILED\u001b[0m', '\u001b[', '\u001b[999999999m', ':'.repeat(70_000), 'x'.repeat(70_000), '/home/runner/work/r/r/' + 'a/'.repeat(5000),
  ' '.repeat(30_000), `E${' '.repeat(30_000)}`, '1'.repeat(30_000), `1${'%'.repeat(3)}${'1'.repeat(30_000)}`, '='.repeat(30_000), `FAILED ${'::'.repeat(15_000)}`,
];

/** Units that make a backtracking pattern slow when repeated (ReDoS): runs the rules' own literals are made of. */
const UNITS = ['1', 'a', ' ', ':', '/', '.', '-', '=', '_', '(', ')', '[', ']', ',', '"', "'", '\t', '>', '|', '#', '*', '%', 'a:', ': ', '::', 'a ', '1.', 'a/', 'a.', '1:', 'a::', 'a: ', '1 ', 'E ', 'a\\', '1%', '━', '█', '1/', 'a@', 'expected:<a> ', 'pip install a ', '> '];
const PREFIXES = ['', 'FAILED ', 'ERROR ', 'E   ', 'E', '##[error]', 'error: ', 'Error: ', 'File "', 'Traceback ', '  File "x.py", line ', 'Process completed with exit code ', '> ', '[ERROR] A.b:1 ', 'failed to solve: process "/bin/sh -c ', "process didn't exit successfully: `", 'The command "', 'Error: Calling ', 'Segmentation fault      (core dumped) ', "The process '", 'The SDK directory (', '1:1 error ', 'ASSERT:'];

interface Corpus {
  file: string;
  log: Buffer;
  steps: StepInput[];
  jobConclusion: string;
}

/** A log as a stream cut at random byte offsets (splitting UTF-8 sequences and CRLF pairs). */
function chunked(random: Random, bytes: Buffer): Readable {
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const size = random.chance(0.3) ? random.between(1, 3) : random.between(1, 4096);
    parts.push(bytes.subarray(start, start + size));
    start += size;
  }
  return Readable.from(parts);
}

/** Bytes of a mutated log: UTF-8, or re-encoded with a byte-order mark, or with invalid bytes spliced in. */
function encode(random: Random, text: string): Buffer {
  switch (random.int(6)) {
    case 0: return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 1: return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 2: {
      const le = Buffer.from(text, 'utf16le');
      const be = Buffer.alloc(le.length);
      for (let i = 0; i + 1 < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1] ?? 0, le[i] ?? 0];
      return Buffer.concat([Buffer.from([0xfe, 0xff]), be, random.chance(0.3) ? Buffer.from([0x41]) : Buffer.alloc(0)]);
    }
    case 3: {
      const bytes = Buffer.from(text, 'utf8');
      const at = random.int(bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(Array.from({ length: random.between(1, 16) }, () => random.int(256))), bytes.subarray(at)]);
    }
    default: return Buffer.from(text, 'utf8');
  }
}

function mutateSteps(random: Random, steps: StepInput[]): StepInput[] | undefined {
  if (random.chance(0.3)) return undefined;
  const copy = steps.map((step) => ({ ...step }));
  if (random.chance(0.5) || copy.length === 0) return copy;
  const step = random.pick(copy);
  switch (random.int(5)) {
    case 0: step.number = random.pick([0, -1, 999, step.number + 1, Number.MAX_SAFE_INTEGER]); break;
    case 1: step.name = random.pick(['', 'Run pytest', '##[group]', step.name.repeat(50), 'Set up job']); break;
    case 2: step.conclusion = random.pick([null, 'failure', 'success', 'skipped', 'cancelled', 'weird']); break;
    case 3: copy.splice(copy.indexOf(step), 1); break;
    default: copy.push({ ...step }); break;
  }
  return copy;
}

/**
 * CPU time this process spent, in ms. The bounds below guard against super-linear work (catastrophic
 * backtracking, quadratic scans), not speed: CPU time does not grow when the shared machine deschedules the test,
 * wall time does (a 120 ms log once took 7.4 s of wall time at load 22).
 */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

describe(`log parser / classifier fuzz: ${CASES} mutated real logs (seed ${SEED})`, () => {
  let corpus: Corpus[];
  beforeAll(() => {
    console.log(`classify fuzz seed ${SEED} (FUZZ_SEED=${SEED} reproduces)`);
    const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Record<string, { steps: StepInput[]; jobConclusion: string }>;
    corpus = Object.entries(labels).map(([file, expected]) => ({ file, log: readFileSync(join(dir, file)), steps: expected.steps, jobConclusion: expected.jobConclusion }));
  });

  it('never throws, keeps labels and evidence within the log, stays within a time bound per log', async () => {
    const random = prng(SEED);
    let slowest = { ms: 0, file: '' };
    let labelled = 0;
    for (let i = 0; i < CASES; i += 1) {
      const seed = random.pick(corpus);
      const text = mutateMany(random, seed.log.toString('utf8'), 4, { inserts: LOG_LINES });
      const bytes = encode(random, text);
      const input = random.chance(0.3) ? chunked(random, bytes) : bytes;
      const steps = mutateSteps(random, seed.steps);
      const jobConclusion = random.pick([seed.jobConclusion, 'failure', 'success', 'cancelled', 'timed_out', null]);
      const started = cpuMs();
      let result: Awaited<ReturnType<typeof classifyJob>>;
      try {
        result = await classifyJob({ log: input, ...(steps === undefined ? {} : { steps }), jobConclusion, keepTailLines: random.pick([0, 30, 400]) });
      } catch (error) {
        throw new Error(`classifyJob threw on a mutation of ${seed.file} (case ${i}): ${error instanceof Error ? error.stack : String(error)}`);
      }
      const ms = cpuMs() - started;
      if (ms > slowest.ms) slowest = { ms, file: seed.file };
      if (result.labels.length > 0) labelled += 1;
      for (const label of result.labels) {
        expect(ERROR_TYPES).toContain(label.type);
        for (const evidence of label.evidence) {
          expect(evidence.startLine, `${seed.file} case ${i}`).toBeGreaterThanOrEqual(1);
          expect(evidence.endLine).toBeGreaterThanOrEqual(evidence.startLine);
          expect(evidence.endLine).toBeLessThanOrEqual(result.parsed.lineCount);
        }
      }
      if (i % SEGMENT_EVERY === 0) {
        const budgetTokens = random.pick([0, 1, 50, 2000]);
        try {
          const segments = await segmentLogs({ logs: [{ jobName: random.pick(['test', '', 'a'.repeat(500)]), text: bytes }], budgetTokens, contextLines: random.pick([0, 5, 1000]), stepTailLines: random.pick([0, 30]) });
          expect(segments.totalTokens, `${seed.file} case ${i}`).toBeLessThanOrEqual(budgetTokens);
        } catch (error) {
          throw new Error(`segmentLogs threw on a mutation of ${seed.file} (case ${i}): ${error instanceof Error ? error.stack : String(error)}`);
        }
      }
    }
    console.log(`classify fuzz: ${CASES} logs, ${labelled} labelled, slowest ${slowest.ms.toFixed(1)} ms of CPU (${slowest.file})`);
    expect(labelled).toBeGreaterThan(CASES / 10);
    expect(slowest.ms).toBeLessThan(2000);
  }, 300_000); // 2,500 classifications: about 40 s on an idle machine, much longer when the machine is shared

  it('every rule pattern is linear on long adversarial lines (no catastrophic backtracking)', () => {
    const slow: string[] = [];
    for (const rule of RULES) {
      for (const pattern of [rule.linePattern, rule.headerPattern, rule.previousPattern]) {
        if (pattern === undefined) continue;
        for (const prefix of PREFIXES) {
          for (const unit of UNITS) {
            const line = `${prefix}${unit.repeat(Math.ceil(16_384 / unit.length))}\u0001`;
            // The best of five runs: the machine is shared (npm test runs these files under nice beside the fault
            // campaigns), a descheduled or collecting run says nothing about the regex. Backtracking on 16 KB lines
            // costs seconds, far above the bound.
            let ms = Number.POSITIVE_INFINITY;
            for (let run = 0; run < 5 && ms > 150; run++) {
              const started = performance.now();
              pattern.test(line);
              ms = Math.min(ms, performance.now() - started);
            }
            if (ms > 150) slow.push(`${rule.id}: ${ms.toFixed(0)} ms on ${JSON.stringify(prefix + unit.repeat(3))}… /${pattern.source.slice(0, 80)}/`);
          }
        }
      }
    }
    expect(slow).toEqual([]);
  });

  it('segments logs whose failing step prints 60 KB lines of spaces, digits and colons in bounded time', async () => {
    const lines = [' '.repeat(60_000), '1'.repeat(60_000), ':'.repeat(60_000), `E${' '.repeat(60_000)}`, `${'1'.repeat(60_000)}%`].map((line) => `2025-04-07T12:57:33.2943173Z ${line}`);
    const log = ['2025-04-07T12:57:33.2943173Z ##[group]Run pytest', ...lines, '2025-04-07T12:57:33.2943173Z ##[error]Process completed with exit code 1.', ''].join('\n');
    const started = cpuMs();
    const result = await segmentLogs({ logs: [{ jobName: 'test', text: log }], budgetTokens: 500 });
    expect(cpuMs() - started).toBeLessThan(3000);
    expect(result.totalTokens).toBeLessThanOrEqual(500);
  });

  it('reads a 20 MB log with 70 KB lines in bounded time', async () => {
    const line = `2025-04-07T12:57:33.2943173Z ${'E   AssertionError: '.padEnd(70_000, 'x')}\n`;
    const log = Buffer.from(`2025-04-07T12:57:33.2943173Z ##[group]Run pytest\n${line.repeat(300)}2025-04-07T12:57:33.2943173Z ##[error]Process completed with exit code 1.\n`);
    const started = cpuMs();
    const result = await classifyJob({ log, jobConclusion: 'failure' });
    expect(cpuMs() - started).toBeLessThan(5000);
    expect(result.failedSteps.length).toBeGreaterThan(0);
  });
});
