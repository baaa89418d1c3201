import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyJob, labelTypes } from '../../../src/classify/index.js';
import { ERROR_TYPES, type ErrorType } from '../../../src/domain/error-types.js';
import { REAL_CORPUS_DIR, loadCorpus, readCorpusLog, score, type CorpusEntry, type CorpusSplit } from './real-corpus-metrics.js';

/**
 * A blind second reading of 100 failing corpus logs (test/fixtures/logs/real/second-reader.json): how far two
 * careful readings of the same log agree is the ceiling a classifier can be held to. Figures print on every run:
 *
 *   npx vitest run test/unit/classify/second-reader.test.ts
 */
interface SecondReading {
  file: string;
  labels: ErrorType[];
  justification: string;
}

const readings = (JSON.parse(readFileSync(join(REAL_CORPUS_DIR, 'second-reader.json'), 'utf8')) as { logs: SecondReading[] }).logs;
const corpus = new Map(loadCorpus().map((entry) => [entry.file, entry]));
const entryOf = (file: string): CorpusEntry => {
  const entry = corpus.get(file);
  if (entry === undefined) throw new Error(`${file} is not in the corpus`);
  return entry;
};

/** Macro-F1 of `got` against `want` over the sample's logs of one half (or both). */
function agreement(want: (r: SecondReading) => ErrorType[], got: (r: SecondReading) => ErrorType[], split?: CorpusSplit): number {
  const rows = readings.filter((r) => split === undefined || entryOf(r.file).split === split);
  return score(rows.map((r) => ({ entry: { ...entryOf(r.file), labels: want(r) }, got: got(r) }))).macroF1;
}

describe('second reading of the real-log corpus', () => {
  it('covers 50 failing logs of each half, labelled with the 12 types', () => {
    expect(readings).toHaveLength(100);
    expect(new Set(readings.map((r) => r.file)).size).toBe(100);
    for (const r of readings) {
      const entry = entryOf(r.file);
      expect(entry.conclusion, r.file).toBe('failure');
      for (const label of r.labels) expect(ERROR_TYPES, r.file).toContain(label);
      expect(r.justification.length, r.file).toBeGreaterThan(10);
    }
    expect(readings.filter((r) => entryOf(r.file).split === 'tuning')).toHaveLength(50);
  });

  it('prints agreement; the two readings agree above the accuracy the issue asks of the classifier', async () => {
    const classified = new Map<string, ErrorType[]>();
    for (const r of readings) {
      classified.set(r.file, labelTypes(await classifyJob({ log: readCorpusLog(entryOf(r.file)), jobConclusion: 'failure' })));
    }
    const corpusLabels = (r: SecondReading): ErrorType[] => entryOf(r.file).labels;
    const second = (r: SecondReading): ErrorType[] => r.labels;
    const classifier = (r: SecondReading): ErrorType[] => classified.get(r.file) ?? [];
    const lines = ([undefined, 'tuning', 'evaluation'] as const).map((split) => {
      const name = (split ?? 'both halves').padEnd(12);
      const f = (x: number): string => x.toFixed(3);
      return `  ${name} second reader vs corpus ${f(agreement(corpusLabels, second, split))}, classifier vs corpus ${f(agreement(corpusLabels, classifier, split))}, classifier vs second reader ${f(agreement(second, classifier, split))}`;
    });
    console.log(`macro-F1 on the 100 logs read twice:\n${lines.join('\n')}`);
    // The two readings agree at 0.881 (0.861 tuning, 0.908 evaluation): the 0.85 is within reach of a reader.
    expect(agreement(corpusLabels, second)).toBeGreaterThanOrEqual(0.85);
  }, 300_000);
});
