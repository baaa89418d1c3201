/**
 * The standardizer on real workflows (test/fixtures/workflows/corpus, labels written before the standardizer ran on
 * them). Prints the figures and every miss: `npx vitest run test/unit/workflows/corpus.test.ts`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkflowLinter, type WorkflowLinter } from '../../../src/workflows/index.js';
import { loadCorpus, measure, renderFigures, type Figures } from './corpus-measure.js';

describe('standardization corpus of real workflows', () => {
  const corpus = loadCorpus();
  let linter: WorkflowLinter;
  let figures: Figures;

  beforeAll(async () => {
    linter = await createWorkflowLinter();
    figures = measure(corpus, { linter });
    console.log(`\n${renderFigures(figures)}\n`);
  }, 600_000);

  it('holds at least 120 workflow files from at least 60 repositories, every job labeled', () => {
    expect(figures.files).toBeGreaterThanOrEqual(120);
    expect(figures.repos).toBeGreaterThanOrEqual(60);
    for (const entry of corpus.filter((item) => item.role !== 'context')) expect(Object.keys(entry.jobs ?? {}).length, entry.file).toBeGreaterThan(0);
  });

  it('keeps at least 98% of the validation jobs', () => {
    expect(figures.keptJobs / figures.keepJobs).toBeGreaterThanOrEqual(0.98);
  });

  it('drops at least 95% of the publishing, deployment, upstream-only and secret-bound jobs', () => {
    expect(figures.droppedJobs / figures.dropJobs).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses every workflow that has nothing to validate', () => {
    expect(figures.refused).toBe(figures.nothingToValidate);
  });

  it('leaves no secret but GITHUB_TOKEN', () => {
    expect(figures.secretFiles).toEqual([]);
  });

  it('adds no actionlint finding the original did not have', () => {
    expect(figures.lintFiles).toEqual([]);
  });

  it('never crashes', () => {
    expect(figures.crashFiles).toEqual([]);
  });
});
