/**
 * The standardizer on real workflows (test/fixtures/workflows/corpus, labels written before the standardizer ran on
 * them). Prints the figures: `npx vitest run test/unit/workflows/corpus.test.ts`.
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

  it('holds at least 120 workflow files from at least 60 repositories', () => {
    expect(figures.files).toBeGreaterThanOrEqual(120);
    expect(figures.repos).toBeGreaterThanOrEqual(60);
  });

  it('never crashes', () => {
    expect(figures.crashFiles).toEqual([]);
  });
});
