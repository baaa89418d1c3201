import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { applyRunnerLabels } from '../../../src/workflows/index.js';

const workflow = `name: CI
on:
  push:
    branches: ['ci-replay/**']
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: ruff .
  test:
    runs-on: \${{ matrix.os }}
    strategy:
      matrix:
        os: [ubuntu-22.04, windows-latest]
        python: ['3.11']
        include:
          - os: ubuntu-24.04
            python: '3.12'
    steps:
      - run: pytest
  arm:
    runs-on: ubuntu-24.04-arm
    steps:
      - run: pytest
  mac:
    runs-on: [macos-latest]
    steps:
      - run: pytest
`;

interface Jobs { jobs: Record<string, { 'runs-on': unknown; strategy?: { matrix: Record<string, unknown> } }> }

describe('runner labels of a pool account in the standardized workflow', () => {
  it('maps hosted Linux x64 images to a single label (an actions-runner-controller scale set), in runs-on and the matrix it reads', () => {
    const { text, report } = applyRunnerLabels(workflow, '.github/workflows/ci.yml', ['arc-linux']);
    const jobs = (parse(text) as Jobs).jobs;
    expect(jobs.lint?.['runs-on']).toBe('arc-linux');
    expect(jobs.test?.['runs-on']).toBe('${{ matrix.os }}');
    expect(jobs.test?.strategy?.matrix.os).toEqual(['arc-linux', 'windows-latest']);
    expect(jobs.test?.strategy?.matrix.include).toEqual([{ os: 'arc-linux', python: '3.12' }]);
    // arm, Windows and macOS images are not what a Linux x64 pool stands in for.
    expect(jobs.arm?.['runs-on']).toBe('ubuntu-24.04-arm');
    expect(jobs.mac?.['runs-on']).toEqual(['macos-latest']);
    expect(report.map((entry) => entry.target)).toEqual(['jobs.lint.runs-on', 'jobs.test.strategy.matrix.os[0]', 'jobs.test.strategy.matrix.include[0].os']);
    expect(report.every((entry) => entry.action === 'rewrote-runner' && entry.reason.includes('arc-linux'))).toBe(true);
  });

  it('several labels become a list (self-hosted, linux, x64), and no labels leave the text unchanged', () => {
    const labels = ['self-hosted', 'linux', 'x64'];
    const jobs = (parse(applyRunnerLabels(workflow, 'ci.yml', labels).text) as Jobs).jobs;
    expect(jobs.lint?.['runs-on']).toEqual(labels);
    expect(jobs.test?.strategy?.matrix.os).toEqual([labels, 'windows-latest']);
    expect(applyRunnerLabels(workflow, 'ci.yml', [])).toEqual({ text: workflow, report: [] });
  });
});
