import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkflowLinter, standardizeWorkflow, type ReportEntry, type StandardizeOptions, type WorkflowLinter } from '../../../src/workflows/index.js';

const root = join(import.meta.dirname, '../../fixtures/workflows');
// Directories with an input.yml (corpus/ holds real workflows measured by corpus.test.ts).
const names = readdirSync(root).filter((name) => existsSync(join(root, name, 'input.yml'))).sort();

interface FixtureOptions extends Omit<StandardizeOptions, 'pinDate'> {
  pinDate?: string;
}

function readOptions(name: string): StandardizeOptions {
  const raw = JSON.parse(readFileSync(join(root, name, 'options.json'), 'utf8')) as FixtureOptions;
  const { pinDate, ...rest } = raw;
  return pinDate === undefined ? rest : { ...rest, pinDate: new Date(pinDate) };
}

describe('workflow standardization corpus', () => {
  let linter: WorkflowLinter;
  beforeAll(async () => {
    linter = await createWorkflowLinter();
  });

  it('has at least 20 real-world-shaped workflows', () => {
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  it.each(names)('%s: exact YAML, exact report, lint clean', async (name) => {
    const input = readFileSync(join(root, name, 'input.yml'), 'utf8');
    const expectedText = readFileSync(join(root, name, 'expected.yml'), 'utf8');
    const expectedReport = JSON.parse(readFileSync(join(root, name, 'report.json'), 'utf8')) as ReportEntry[];
    const result = await standardizeWorkflow({ text: input, path: '.github/workflows/ci.yml', options: readOptions(name) }, { linter });
    expect(result.text).toBe(expectedText);
    expect(result.report).toEqual(expectedReport);
    expect(result.lint).toEqual([]);
  });

  it.each(names)('%s: standardizing the output again changes nothing', async (name) => {
    const expectedText = readFileSync(join(root, name, 'expected.yml'), 'utf8');
    const options = { ...readOptions(name), matrixStrategy: 'first' as const };
    const again = await standardizeWorkflow({ text: expectedText, path: '.github/workflows/ci.yml', options: { ...options, failedJobNames: [] } }, { linter });
    expect(again.text).toBe(expectedText);
    const changes = again.report.filter((entry) => !['rewrote-trigger', 'kept-matrix', 'pinned-dependencies'].includes(entry.action));
    expect(changes).toEqual([]);
  });
});
