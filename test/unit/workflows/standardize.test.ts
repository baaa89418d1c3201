import { beforeAll, describe, expect, it } from 'vitest';
import {
  createWorkflowLinter, lintReport, lintWorkflow, pinTimestamp, standardizeWorkflow, standardizeWorkflowText, type StandardizeOptions,
  type WorkflowLinter,
} from '../../../src/workflows/index.js';
import { isAppError } from '../../../src/errors.js';

const first: StandardizeOptions = { matrixStrategy: 'first' };
const path = '.github/workflows/ci.yml';

function invalidCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isAppError(error) && error.kind === 'invalid_input' ? error.code : 'other';
  }
  return undefined;
}

describe('standardizeWorkflowText input checks', () => {
  it('rejects YAML that does not parse, with its position', () => {
    let message = '';
    try {
      standardizeWorkflowText({ text: 'on: push\njobs:\n  a: [\n', path, options: first });
    } catch (error) {
      message = error instanceof Error ? error.message : '';
    }
    expect(message).toMatch(/^\.github\/workflows\/ci\.yml is not valid YAML at line \d+, column \d+/);
  });

  it('rejects documents that are not workflows', () => {
    expect(invalidCode(() => standardizeWorkflowText({ text: '- a\n- b\n', path, options: first }))).toBe('invalid_workflow');
    expect(invalidCode(() => standardizeWorkflowText({ text: 'on: push\n', path, options: first }))).toBe('invalid_workflow');
    expect(invalidCode(() => standardizeWorkflowText({ text: 'jobs:\n  a:\n    runs-on: x\n', path, options: first }))).toBe('invalid_workflow');
  });

  it('rejects bad options', () => {
    const text = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n';
    expect(invalidCode(() => standardizeWorkflowText({ text, path, options: { ...first, timeoutMinutes: 0 } }))).toBe('invalid_option');
    expect(invalidCode(() => standardizeWorkflowText({ text, path, options: { ...first, pinDate: new Date('nope') } }))).toBe('invalid_option');
  });

  it('refuses to standardize a non-reusable workflow as a callee', () => {
    const text = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n';
    expect(invalidCode(() => standardizeWorkflowText({ text, path, options: { ...first, role: 'callee' } }))).toBe('not_reusable');
  });

  it('refuses a workflow with nothing left to validate', () => {
    const text = 'on: push\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: pypa/gh-action-pypi-publish@release/v1\n';
    expect(invalidCode(() => standardizeWorkflowText({ text, path, options: first }))).toBe('nothing_to_validate');
  });
});

describe('standardizeWorkflowText options and details', () => {
  const text = [
    '# top comment',
    'on: push',
    'jobs:',
    '  # the tests',
    '  test:',
    '    runs-on: ubuntu-latest # hosted',
    '    steps:',
    '      - run: pytest # run them',
    '',
  ].join('\n');

  it('keeps comments and honours branchPattern and timeoutMinutes', () => {
    const result = standardizeWorkflowText({ text, path, options: { ...first, branchPattern: 'bench/*', timeoutMinutes: 25 } });
    expect(result.text).toBe([
      '# top comment',
      'on:',
      '  push:',
      '    branches:',
      '      - bench/*',
      '  workflow_dispatch:',
      'permissions:',
      '  contents: read',
      'concurrency:',
      '  group: ci-replay-${{ github.ref }}',
      '  cancel-in-progress: false',
      'jobs:',
      '  # the tests',
      '  test:',
      '    runs-on: ubuntu-latest # hosted',
      '    timeout-minutes: 25',
      '    steps:',
      '      - run: pytest # run them',
      '',
    ].join('\n'));
  });

  it('falls back to the first configuration when from-logs has no failed job names', () => {
    const workflow = 'on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        py: [a, b]\n    steps:\n      - run: pytest\n';
    const result = standardizeWorkflowText({ text: workflow, path, options: { matrixStrategy: 'from-logs' } });
    expect(result.report.find((entry) => entry.action === 'reduced-matrix')?.reason).toBe(
      'kept py=a (2 → 1 configurations), chosen as no failed job name matched the matrix; fell back to the first configuration',
    );
  });

  it('formats the pin date without milliseconds', () => {
    expect(pinTimestamp(new Date('2023-11-02T08:09:10.999Z'))).toBe('2023-11-02T08:09:10Z');
  });

  it('keeps a publish-named job another kept job needs, and says so', () => {
    const workflow = [
      'on: push',
      'jobs:',
      '  release:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "version=1.0" >> "$GITHUB_OUTPUT"',
      '  test-wheel:',
      '    needs: release',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: pytest',
      '',
    ].join('\n');
    const result = standardizeWorkflowText({ text: workflow, path, options: first });
    expect(result.report.find((entry) => entry.action === 'kept-job')).toEqual({
      action: 'kept-job',
      target: 'jobs.release',
      reason: 'is a release job and runs no test, lint or build, but kept because test-wheel needs it',
    });
    expect(result.text).toContain('  release:\n');
  });
});

describe('actionlint', () => {
  let linter: WorkflowLinter;
  beforeAll(async () => {
    linter = await createWorkflowLinter();
  });

  it('reports problems in an imported workflow', async () => {
    const findings = await lintWorkflow('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n', 'w.yml', { linter });
    expect(findings).toEqual([{ file: 'w.yml', line: 6, column: 23, message: 'property "nope" is not defined in object type {}', kind: 'expression' }]);
    expect(lintReport(findings)).toEqual([{ action: 'lint-finding', target: 'w.yml:6:23', reason: 'property "nope" is not defined in object type {} [expression]' }]);
  });

  it('lints the standardized workflow and reports what standardization leaves broken', async () => {
    const text = [
      'on: push',
      'jobs:',
      '  deploy:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/deploy-pages@v4',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "${{ needs.deploy.result }}"',
      '',
    ].join('\n');
    const result = await standardizeWorkflow({ text, path, options: first }, { linter });
    expect(result.lint.map((finding) => finding.kind)).toEqual(['expression']);
    expect(result.lint[0]?.message).toContain('deploy');
  });

  it('creates its own linter when none is given', async () => {
    const result = await standardizeWorkflow({ text: 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: "true"\n', path, options: first });
    expect(result.lint).toEqual([]);
  });
});
