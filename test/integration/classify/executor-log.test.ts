import { createReadStream } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyJob, labelTypes, segmentLogs } from '../../../src/classify/index.js';
import { createFixtureRepo, runFixtureWorkflow } from '../../support/executor-fixtures.js';
import { pythonTools } from '../../support/python-tools.js';

const repo = createFixtureRepo({
  'app/__init__.py': '',
  'app/core.py': 'import os\n\n\ndef add(a, b):\n    return a + b + 1\n',
  'tests/test_core.py': 'from app.core import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n',
});
afterAll(() => repo.cleanup());

const workflow = `
name: ci
on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Show tools
        run: 'echo "error: this is only a message"'
      - name: Lint
        run: ${pythonTools.command('flake8')} app
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: ${pythonTools.python3} -m pytest -q tests
`;

describe('classifying logs written by the local executor', () => {
  it('labels each failed job from its log and step list, naming the failing step', async () => {
    const run = await runFixtureWorkflow(repo, workflow);
    const byName = new Map(run.result.jobs.map((job) => [job.name, job]));
    const lint = byName.get('lint');
    const test = byName.get('test');
    expect(lint?.conclusion).toBe('failure');
    expect(test?.conclusion).toBe('failure');

    const lintResult = await classifyJob({
      log: createReadStream(lint?.logPath as string),
      steps: lint?.steps.map((s) => ({ number: s.number, name: s.name, conclusion: s.conclusion, startedAt: s.startedAt, completedAt: s.completedAt })),
      jobConclusion: lint?.conclusion,
    });
    expect(labelTypes(lintResult)).toEqual(['Code Linting']);
    expect(lintResult.failedSteps).toEqual(['Lint']);
    expect(lintResult.labels[0]?.findings).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'app/core.py', line: 1, tool: 'flake8' })]),
    );

    const testResult = await classifyJob({
      log: createReadStream(test?.logPath as string),
      steps: test?.steps.map((s) => ({ number: s.number, name: s.name, conclusion: s.conclusion })),
      jobConclusion: test?.conclusion,
    });
    expect(labelTypes(testResult).sort()).toEqual(['Assertion Error', 'Test Failure']);

    const segments = await segmentLogs({
      logs: [
        { jobName: 'lint', text: run.log('lint') },
        { jobName: 'test', text: run.log('test') },
      ],
      budgetTokens: 3000,
    });
    expect(segments.segments[0]?.jobName).toBe('test');
    expect(segments.segments.map((s) => s.text).join('\n')).toContain('F401');
  });
});
