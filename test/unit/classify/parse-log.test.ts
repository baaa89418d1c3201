import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { classifyJob, labelTypes, parseLog, repoRelativePath } from '../../../src/classify/index.js';

const dir = join(import.meta.dirname, '../../fixtures/logs');
const flake8Log = readFileSync(join(dir, 'code-linting/flake8-unused-import.log'), 'utf8');

const utf16be = (text: string): Buffer => {
  const le = Buffer.from(text, 'utf16le');
  const be = Buffer.alloc(le.length);
  for (let i = 0; i + 1 < le.length; i += 2) {
    be[i] = le[i + 1] as number;
    be[i + 1] = le[i] as number;
  }
  return Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
};

/** Splits a buffer into small chunks so multi-byte characters and lines straddle chunk boundaries. */
const chunked = (buf: Buffer, size = 7): Readable =>
  Readable.from((function* () {
    for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
  })());

describe('parseLog', () => {
  it('splits a raw GitHub log into set-up, action, run and clean-up steps and strips timestamps', async () => {
    const parsed = await parseLog(flake8Log);
    expect(parsed.layout).toBe('raw');
    expect(parsed.steps.map((s) => s.title)).toEqual([
      'Set up job',
      'Run actions/checkout@v4',
      'Run actions/setup-python@v5',
      'Run flake8 app',
      'Post job cleanup',
      'Complete job',
    ]);
    const failing = parsed.failedSteps[0];
    expect(parsed.failedSteps).toHaveLength(1);
    expect(failing?.command.split('\n')[0]).toBe('flake8 app');
    expect(failing?.exitCode).toBe(1);
    expect(failing?.errorLines[0]?.text).toBe('Process completed with exit code 1.');
    expect(failing?.startedAt).toMatch(/^2025-04-07T\d\d:\d\d:\d\d\.\d{7}Z$/);
    const lines = flake8Log.split('\n');
    expect(lines[(failing?.errorLines[0]?.line ?? 0) - 1]).toContain('##[error]Process completed');
  });

  it.each([
    ['a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(flake8Log)])],
    ['CRLF line ends', Buffer.from(flake8Log.replace(/\n/g, '\r\n'))],
    ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(flake8Log, 'utf16le')])],
    ['UTF-16 BE with BOM', utf16be(flake8Log)],
    ['ANSI colour codes', Buffer.from(flake8Log.replace(/F401/g, '\x1b[1m\x1b[31mF401\x1b[0m'))],
  ])('reads a log with %s, streamed in small chunks', async (_what, buf) => {
    const result = await classifyJob({ log: chunked(buf) });
    expect(labelTypes(result)).toEqual(['Code Linting']);
    const finding = result.labels[0]?.findings[0];
    expect(finding).toMatchObject({ path: 'app/core.py', line: 1, column: 1, tool: 'flake8' });
    expect(finding?.message).toMatch(/^F401 /);
    expect(result.parsed.lineCount).toBe(flake8Log.trimEnd().split('\n').length);
  });

  it('reads the `gh run view --log` layout and takes step names from its step column', async () => {
    const names = ['Set up job', 'Run actions/checkout@v4', 'Run actions/setup-python@v5', 'Lint', 'Post Run actions/checkout@v4', 'Complete job'];
    let current = 0;
    const raw = flake8Log.trimEnd().split('\n');
    const out = raw.map((line) => {
      const text = line.slice(29);
      if (text.startsWith('##[group]Run actions/checkout')) current = 1;
      else if (text.startsWith('##[group]Run actions/setup-python')) current = 2;
      else if (text.startsWith('##[group]Run flake8')) current = 3;
      else if (text === 'Post job cleanup.') current = 4;
      else if (text.startsWith('Cleaning up orphan')) current = 5;
      return `lint\t${names[current] ?? ''}\t${line}`;
    });
    const parsed = await parseLog(out.join('\n'));
    expect(parsed.layout).toBe('gh-run-view');
    expect(parsed.steps.map((s) => s.title)).toEqual(names);
    expect(parsed.failedSteps.map((s) => s.title)).toEqual(['Lint']);
    expect(parsed.failedSteps[0]?.command.split('\n')[0]).toBe('flake8 app');
    const result = await classifyJob({ log: out.join('\n') });
    expect(result.labels[0]).toMatchObject({ type: 'Code Linting', stepName: 'Lint', tool: 'flake8' });
  });

  it('reads `gh run view` columns whose tabs were expanded to spaces (pasted into Markdown)', async () => {
    // Shaped after tuning/arcticoder--negative-energy-generator--1 (a `--log-failed` block in a committed .md file).
    const log = [
      'build (3.10)    Install dependencies    2025-08-02T05:00:12.9428410Z Downloading pillow-11.3.0-cp310-cp310-manylinux_2_28_x86_64.whl (6.6 MB)',
      'build (3.10)    Install dependencies    2025-08-02T05:00:28.7549740Z ERROR: Could not find a version that satisfies the requirement lqg_constant>=0.1.0 (from versions: none)',
      'build (3.10)    Install dependencies    2025-08-02T05:00:28.7558440Z ERROR: No matching distribution found for lqg_constant>=0.1.0',
      'build (3.10)    Install dependencies    2025-08-02T05:00:28.8095852Z ##[error]Process completed with exit code 1.',
    ].join('\n');
    const parsed = await parseLog(log);
    expect(parsed.layout).toBe('gh-run-view');
    expect(parsed.failedSteps.map((s) => s.title)).toEqual(['Install dependencies']);
    expect(labelTypes(await classifyJob({ log, jobConclusion: 'failure' }))).toEqual(['Package Installation Error']);
    // A line that only mentions a time (a single space, or another stamp) keeps its text.
    const plain = await parseLog('INFO started 2025-08-02T05:00:28.7549740Z ok\nworker  2025-08-02T05:00:28.754Z ok\n');
    expect(plain.layout).toBe('plain');
    expect(plain.steps).toHaveLength(1);
  });

  it('maps blocks onto steps by timestamps when the step list does not line up', async () => {
    const parsed = await parseLog(flake8Log);
    const run = parsed.steps[3];
    const steps = [
      { number: 1, name: 'Set up job', conclusion: 'success', startedAt: '2025-04-07T12:57:33Z', completedAt: '2025-04-07T12:57:33Z' },
      { number: 4, name: 'Lint with flake8', conclusion: 'failure', startedAt: run?.startedAt?.replace(/\.\d+Z$/, 'Z'), completedAt: run?.completedAt?.replace(/\.\d+Z$/, 'Z') },
      { number: 9, name: 'Complete job', conclusion: 'success' },
    ];
    const result = await classifyJob({ log: flake8Log, steps });
    expect(result.failedSteps).toEqual(['Lint with flake8']);
    expect(result.labels.map((l) => l.stepName)).toEqual(['Lint with flake8']);
  });

  it('keeps no labels for a job whose conclusion is success, and labels a cancelled job without step output', async () => {
    expect((await classifyJob({ log: flake8Log, jobConclusion: 'success' })).labels).toEqual([]);
    const cancelled = await classifyJob({ log: '2025-04-07T12:57:33.2943173Z ##[error]The runner was stopped.\n', jobConclusion: 'cancelled' });
    expect(labelTypes(cancelled)).toEqual(['Environment Error']);
    const timedOut = await classifyJob({ log: "2025-04-07T12:57:33.2943173Z ##[group]Run pytest\n2025-04-07T12:57:33.2943173Z ##[endgroup]\n2025-04-07T12:58:33.2943173Z ##[error]The action 'Run pytest' has timed out after 1 minutes.\n" });
    expect(timedOut.labels.map((l) => [l.type, l.stepName])).toEqual([['Environment Error', 'Run pytest']]);
  });

  it('reads pasted tool output without markers as one failing step when the job failed', async () => {
    const output = 'app/core.py:3: error: Incompatible return value type (got "str", expected "int")  [return-value]\nFound 1 error in 1 file (checked 2 source files)\n';
    expect((await classifyJob({ log: output })).labels).toEqual([]);
    const result = await classifyJob({ log: output, jobConclusion: 'failure' });
    expect(result.parsed.layout).toBe('plain');
    expect(result.labels.map((l) => [l.type, l.stepName])).toEqual([['Type Checking', 'Log']]);
  });

  it('makes finding paths relative to the repository', async () => {
    const result = await classifyJob({ log: readFileSync(join(dir, 'type-checking/pyright-errors.log')) });
    expect(result.labels[0]?.findings.map((f) => f.path)).toContain('app/core.py');
    expect(repoRelativePath('/tmp/run-1/demo/src/a.py', ['/tmp/run-1/demo'])).toBe('src/a.py');
    expect(repoRelativePath('./app/a.py')).toBe('app/a.py');
  });

  it('streams a large log with bounded evidence and findings', async () => {
    const lines = 200_000;
    const header = ['##[group]Run flake8 .', 'flake8 .', '##[endgroup]'];
    const stream = Readable.from((function* () {
      yield Buffer.from(header.map((t) => `2025-04-07T12:57:33.2943173Z ${t}\n`).join(''));
      for (let i = 0; i < lines; i += 1000) {
        let chunk = '';
        for (let j = i; j < i + 1000; j++) chunk += `2025-04-07T12:57:34.2943173Z ./pkg/m${j}.py:${j}:1: E501 line too long (99 > 79 characters)\n`;
        yield Buffer.from(chunk);
      }
      yield Buffer.from('2025-04-07T12:57:35.2943173Z ##[error]Process completed with exit code 1.\n');
    })());
    const result = await classifyJob({ log: stream });
    const label = result.labels[0];
    expect(result.parsed.lineCount).toBe(lines + 4);
    expect(label?.type).toBe('Code Linting');
    expect(label?.findings.length).toBe(500);
    expect(label?.evidence[0]?.text.length).toBeLessThanOrEqual(2000);
    expect(label?.evidence[0]?.endLine).toBe(lines + 3);
  });
});
