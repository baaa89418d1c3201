import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyJob, labelTypes, type StepInput } from '../../../src/classify/index.js';
import { ERROR_TYPES, type ErrorType } from '../../../src/domain/error-types.js';

const dir = join(import.meta.dirname, '../../fixtures/logs');
interface Expected {
  labels: ErrorType[];
  jobConclusion: string;
  steps: StepInput[];
}
const corpus = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Record<string, Expected>;

interface Score {
  tp: number;
  fp: number;
  fn: number;
}

async function score(withSteps: boolean): Promise<{ scores: Map<ErrorType, Score>; wrong: string[] }> {
  const scores = new Map<ErrorType, Score>(ERROR_TYPES.map((type) => [type, { tp: 0, fp: 0, fn: 0 }]));
  const wrong: string[] = [];
  for (const [file, expected] of Object.entries(corpus)) {
    const log = readFileSync(join(dir, file));
    const result = await classifyJob(withSteps ? { log, steps: expected.steps, jobConclusion: expected.jobConclusion } : { log });
    const got = new Set(labelTypes(result));
    const want = new Set(expected.labels);
    for (const type of ERROR_TYPES) {
      const s = scores.get(type) as Score;
      if (got.has(type) && want.has(type)) s.tp++;
      else if (got.has(type)) s.fp++;
      else if (want.has(type)) s.fn++;
    }
    if ([...got].sort().join() !== [...want].sort().join()) wrong.push(`${file}: want [${[...want].join(', ')}] got [${[...got].join(', ')}]`);
  }
  return { scores, wrong };
}

const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);

describe('labelled corpus', () => {
  it('holds at least 5 logs per error type and successful jobs with error-looking text', () => {
    for (const type of ERROR_TYPES) {
      expect(Object.values(corpus).filter((e) => e.labels.includes(type)).length, type).toBeGreaterThanOrEqual(5);
    }
    expect(Object.values(corpus).filter((e) => e.labels.length === 0 && e.jobConclusion === 'success').length).toBeGreaterThanOrEqual(5);
  });

  for (const withSteps of [false, true]) {
    it(`reaches precision and recall of at least 0.9 per type (${withSteps ? 'with' : 'without'} the step list)`, async () => {
      const { scores, wrong } = await score(withSteps);
      const rows = ERROR_TYPES.map((type) => {
        const s = scores.get(type) as Score;
        return { type, precision: ratio(s.tp, s.tp + s.fp), recall: ratio(s.tp, s.tp + s.fn), support: s.tp + s.fn };
      });
      console.log(
        [`per-type scores over ${Object.keys(corpus).length} logs (${withSteps ? 'with' : 'without'} step list)`]
          .concat(rows.map((r) => `${r.type.padEnd(28)} P=${r.precision.toFixed(2)} R=${r.recall.toFixed(2)} n=${r.support}`))
          .concat(wrong.map((w) => `  mismatch ${w}`))
          .join('\n'),
      );
      for (const row of rows) {
        expect(row.precision, `${row.type} precision`).toBeGreaterThanOrEqual(0.9);
        expect(row.recall, `${row.type} recall`).toBeGreaterThanOrEqual(0.9);
      }
    });
  }

  it('maps the blocks onto the job step list and names the failing step', async () => {
    for (const [file, expected] of Object.entries(corpus)) {
      const result = await classifyJob({ log: readFileSync(join(dir, file)), steps: expected.steps, jobConclusion: expected.jobConclusion });
      const failing = expected.steps.filter((s) => s.conclusion === 'failure' || s.conclusion === 'cancelled').map((s) => s.name);
      expect(result.failedSteps, file).toEqual(failing);
      for (const label of result.labels) expect(failing, file).toContain(label.stepName);
    }
  });
});
