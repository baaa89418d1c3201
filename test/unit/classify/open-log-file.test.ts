import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyJob, openLogFile } from '../../../src/classify/index.js';
import { parseLog } from '../../../src/classify/parse-log.js';
import { RULES } from '../../../src/classify/rules/index.js';
import type { JobClassification } from '../../../src/classify/index.js';
import { loadCorpus, readCorpusLog } from './real-corpus-metrics.js';

/** What a classification says, without object identity: labels with evidence, and each step's lines and hits. */
const said = (c: JobClassification): unknown => ({
  labels: c.labels,
  steps: c.parsed.steps.map((s) => ({ title: s.title, command: s.command, failed: s.failed, lines: [s.startLine, s.endLine], startedAt: s.startedAt, completedAt: s.completedAt, tail: s.tail, hits: s.hits })),
  lineCount: c.parsed.lineCount,
  encoding: c.parsed.encoding,
});

describe('openLogFile: a log on disk, read through reused buffers', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'open-log-file-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // Small chunks make the parser hand chunks back (and the reader reuse them) thousands of times per log: a chunk
  // handed back while a kept line or a timestamp still pointed into it would show up as a changed tail, evidence
  // line or step time. The logs: the corpus's longest, its UTF-16 ones and a sample of the rest.
  it('classifies real logs exactly as from memory, whatever the chunk size', async () => {
    const corpus = loadCorpus();
    const sized = corpus.map((entry) => ({ entry, raw: readCorpusLog(entry) }));
    const longest = [...sized].sort((a, b) => b.raw.length - a.raw.length).slice(0, 6);
    const utf16 = sized.filter((s) => s.entry.encoding === 'utf-16').slice(0, 6);
    const sample = sized.filter((_, i) => i % 151 === 0);
    const picked = [...new Set([...longest, ...utf16, ...sample])];
    expect(picked.length).toBeGreaterThan(20);
    let compared = 0;
    for (const { entry, raw } of picked) {
      const file = join(dir, entry.file.replaceAll('/', '--').replace(/\.gz$/, ''));
      await writeFile(file, raw);
      const jobConclusion = entry.conclusion === 'failure' ? 'failure' : 'success';
      const fromMemory = said(await classifyJob({ log: raw, jobConclusion }));
      for (const chunkBytes of [997, 65_536]) {
        expect(said(await classifyJob({ log: openLogFile(file, chunkBytes), jobConclusion })), `${entry.file}, ${chunkBytes}-byte chunks`).toEqual(fromMemory);
        compared++;
      }
    }
    expect(compared).toBe(picked.length * 2);
  });

  it('keeps a failing step\'s last lines and its times right when its lines span many reused chunks', async () => {
    const lines = ['2025-01-01T00:00:00.0000000Z ##[group]Run pytest', '2025-01-01T00:00:00.0000001Z pytest', '2025-01-01T00:00:00.0000002Z ##[endgroup]'];
    for (let i = 0; i < 30_000; i++) lines.push(`2025-01-01T00:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(7, '0')}Z tests/test_${i}.py::test_case_${i} PASSED`);
    lines.push('2025-01-01T00:01:00.0000000Z FAILED tests/test_x.py::test_x - assert 1 == 2', '2025-01-01T00:01:00.0000001Z ========= 1 failed, 30000 passed in 9.00s =========');
    lines.push('2025-01-01T00:01:00.0000002Z ##[error]Process completed with exit code 1.');
    const text = `${lines.join('\n')}\n`;
    const file = join(dir, 'long-step.log');
    await writeFile(file, text);
    const fromMemory = await parseLog(text, { rules: RULES, keepTailLines: 50 });
    const fromFile = await parseLog(openLogFile(file, 1000), { rules: RULES, keepTailLines: 50 });
    expect(fromFile.steps.map((s) => [s.title, s.startedAt, s.completedAt, s.tail, s.hits])).toEqual(fromMemory.steps.map((s) => [s.title, s.startedAt, s.completedAt, s.tail, s.hits]));
    expect(fromFile.failedSteps[0]?.completedAt).toBe('2025-01-01T00:01:00.0000002Z');
    expect(fromFile.failedSteps[0]?.tail?.at(-2)?.text).toContain('1 failed, 30000 passed');
  });

  it('reads a file through a handful of buffers, however long it is', async () => {
    const file = join(dir, 'many-steps.log');
    const steps = Array.from({ length: 2_000 }, (_, i) => `##[group]Run step ${i}\nstep ${i}\n##[endgroup]\n${'output line\n'.repeat(50)}`);
    await writeFile(file, steps.join(''));
    const source = openLogFile(file, 4096);
    const seen = new Set<ArrayBufferLike>();
    let chunks = 0;
    const counting = {
      release: (chunk: Buffer) => source.release(chunk),
      async *[Symbol.asyncIterator]() {
        for await (const chunk of source) {
          seen.add(chunk.buffer);
          chunks++;
          yield chunk;
        }
      },
    };
    const parsed = await parseLog(counting, {});
    expect(parsed.steps.length).toBe(2_000);
    expect(chunks).toBeGreaterThan(300);
    expect(seen.size).toBeLessThanOrEqual(4);
  });

  // A kept line early in a step, then one line of 30 MB (a minified bundle printed without a newline): the chunks
  // holding that line's middle are nobody's, and must go back to the reader even though an older chunk is kept.
  it('hands back the chunks of a huge line while an older kept line still pins its own chunk', async () => {
    const file = join(dir, 'huge-line.log');
    const head = '##[group]Run node build.js\nnode build.js\n##[endgroup]\nbuilding\n';
    await writeFile(file, `${head}${'x'.repeat(30 * 1024 * 1024)}\nError: bundle failed\n##[error]Process completed with exit code 1.\n`);
    const source = openLogFile(file, 65_536);
    const seen = new Set<ArrayBufferLike>();
    let chunks = 0;
    const counting = {
      release: (chunk: Buffer) => source.release(chunk),
      async *[Symbol.asyncIterator]() {
        for await (const chunk of source) {
          seen.add(chunk.buffer);
          chunks++;
          yield chunk;
        }
      },
    };
    const parsed = await parseLog(counting, { keepTailLines: 10 });
    expect(chunks).toBeGreaterThan(400);
    expect(seen.size).toBeLessThanOrEqual(4);
    expect(parsed.failedSteps[0]?.tail?.map((l) => l.text.slice(0, 20))).toEqual(['building', 'x'.repeat(20), 'Error: bundle failed', '##[error]Process com']);
  });

  it('rejects a missing file with the system\'s error, on the first read', async () => {
    await expect(classifyJob({ log: openLogFile(join(dir, 'absent.log')) })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(classifyJob({ log: openLogFile(dir) })).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
