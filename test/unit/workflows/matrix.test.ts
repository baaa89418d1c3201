import { describe, expect, it } from 'vitest';
import { parseDocument, type YAMLMap } from 'yaml';
import { expandMatrix, gateSatisfied, renderJobName, selectCombination, standardizeMatrix } from '../../../src/workflows/matrix/index.js';

describe('expandMatrix', () => {
  it('follows GitHub documented include semantics', () => {
    const combos = expandMatrix({
      keys: ['fruit', 'animal'],
      values: new Map([['fruit', ['apple', 'pear']], ['animal', ['cat', 'dog']]]),
      include: [
        { color: 'green' },
        { color: 'pink', animal: 'cat' },
        { fruit: 'apple', shape: 'circle' },
        { fruit: 'banana' },
        { fruit: 'banana', animal: 'cat' },
      ],
      exclude: [],
    });
    expect(combos.map((combo) => combo.values)).toEqual([
      { fruit: 'apple', animal: 'cat', color: 'pink', shape: 'circle' },
      { fruit: 'apple', animal: 'dog', color: 'green', shape: 'circle' },
      { fruit: 'pear', animal: 'cat', color: 'pink' },
      { fruit: 'pear', animal: 'dog', color: 'green' },
      { fruit: 'banana' },
      { fruit: 'banana', animal: 'cat' },
    ]);
    expect(combos[0]?.includes).toEqual([0, 1, 2]);
    expect(combos[4]?.fromProduct).toBe(false);
  });

  it('applies excludes before includes', () => {
    const combos = expandMatrix({
      keys: ['os', 'py'],
      values: new Map([['os', ['ubuntu', 'windows']], ['py', ['3.8', '3.9']]]),
      include: [{ os: 'windows', py: '3.8', extra: true }],
      exclude: [{ os: 'windows', py: '3.8' }],
    });
    expect(combos.map((combo) => combo.values)).toEqual([
      { os: 'ubuntu', py: '3.8' },
      { os: 'ubuntu', py: '3.9' },
      { os: 'windows', py: '3.9' },
      { os: 'windows', py: '3.8', extra: true },
    ]);
  });
});

describe('selectCombination', () => {
  const combos = expandMatrix({
    keys: ['python-version', 'os'],
    values: new Map<string, unknown[]>([['python-version', ['pypy-3.10', '3.9', 3.1, '3.13-dev', '3.12']], ['os', ['windows-latest', 'ubuntu-latest']]]),
    include: [],
    exclude: [],
  });
  const base = { combos, jobId: 'test', jobName: undefined, failedJobNames: [], gatedConditions: [] };

  it('newest-python prefers stable CPython over pre-releases and PyPy, and ubuntu', () => {
    const chosen = selectCombination({ ...base, strategy: 'newest-python' });
    expect(combos[chosen.index]?.values).toEqual({ 'python-version': '3.12', os: 'ubuntu-latest' });
  });

  it('first prefers ubuntu over the first os', () => {
    const chosen = selectCombination({ ...base, strategy: 'first' });
    expect(combos[chosen.index]?.values).toEqual({ 'python-version': 'pypy-3.10', os: 'ubuntu-latest' });
  });

  it('from-logs picks the failed configuration, including an unquoted 3.10 shown as 3.1', () => {
    const chosen = selectCombination({ ...base, strategy: 'from-logs', failedJobNames: ['test (3.1, windows-latest)'] });
    expect(combos[chosen.index]?.values).toEqual({ 'python-version': 3.1, os: 'windows-latest' });
    expect(chosen.why).toBe('the failed job "test (3.1, windows-latest)" in the instance logs');
  });

  it('from-logs matches reusable-workflow job names and falls back when nothing matches', () => {
    const nested = selectCombination({ ...base, strategy: 'from-logs', failedJobNames: ['ci / test (3.9, ubuntu-latest)'] });
    expect(combos[nested.index]?.values).toEqual({ 'python-version': '3.9', os: 'ubuntu-latest' });
    const fallback = selectCombination({ ...base, strategy: 'from-logs', failedJobNames: ['lint'] });
    expect(fallback.why).toMatch(/^no failed job name matched the matrix; fell back to the first configuration/);
  });

  it('prefers the configuration that runs matrix-gated steps', () => {
    const chosen = selectCombination({ ...base, strategy: 'newest-python', gatedConditions: ["${{ matrix.os == 'windows-latest' }}"] });
    expect(combos[chosen.index]?.values).toEqual({ 'python-version': '3.12', os: 'windows-latest' });
  });
});

describe('gates and names', () => {
  it('evaluates simple matrix clauses and ignores others', () => {
    expect(gateSatisfied("matrix.os == 'ubuntu-latest' && github.event_name == 'push'", { os: 'ubuntu-latest' })).toBe(true);
    expect(gateSatisfied("startsWith(matrix.os, 'windows')", { os: 'ubuntu-latest' })).toBe(false);
    expect(gateSatisfied("!contains(matrix.python, 'pypy')", { python: 'pypy3.9' })).toBe(false);
    expect(gateSatisfied('runner.os == \'Linux\'', { os: 'ubuntu-latest' })).toBeUndefined();
  });

  it('renders job names the way GitHub shows them', () => {
    expect(renderJobName('test', undefined, { py: '3.9', os: 'ubuntu-latest' })).toBe('test (3.9, ubuntu-latest)');
    expect(renderJobName('test', 'Tests on ${{ matrix.os }}', { py: '3.9', os: 'macos-14' })).toBe('Tests on macos-14');
    expect(renderJobName('test', 'Tests', { py: '3.9' })).toBe('Tests (3.9)');
  });
});

function jobFrom(yaml: string): YAMLMap {
  const doc = parseDocument(yaml);
  return doc.contents as YAMLMap;
}

describe('standardizeMatrix', () => {
  it('keeps include-only task matrices whole', () => {
    const job = jobFrom(`
strategy:
  matrix:
    include:
      - name: lint
        cmd: ruff check
      - name: tests
        cmd: pytest
`);
    const report = standardizeMatrix(job, 'check', { strategy: 'first', failedJobNames: [] });
    expect(report).toEqual([{ action: 'kept-matrix', target: 'jobs.check.strategy.matrix', reason: 'kept all 2 configurations: its `name` entries are different tasks (lint, tests); its `cmd` entries are different tasks (ruff check, pytest); fail-fast is on, so a failing entry cancels the others' }]);
  });

  it('reduces a tox matrix of Python environments', () => {
    const job = jobFrom(`
strategy:
  fail-fast: false
  matrix:
    toxenv: [py38, py39, py310]
`);
    const report = standardizeMatrix(job, 't', { strategy: 'first', failedJobNames: [] });
    expect(report[0]?.action).toBe('reduced-matrix');
    expect(job.toJSON()).toEqual({ strategy: { 'fail-fast': false, matrix: { toxenv: ['py38'] } } });
  });

  it('rewrites to include-only when the chosen configuration comes from an include entry alone', () => {
    const job = jobFrom(`
strategy:
  matrix:
    python: ['3.8', '3.9']
    include:
      - python: '3.12'
        os: windows-latest
        experimental: true
`);
    standardizeMatrix(job, 't', { strategy: 'newest-python', failedJobNames: [] });
    expect(job.toJSON()).toEqual({ strategy: { matrix: { include: [{ python: '3.12', os: 'windows-latest', experimental: true }] } } });
  });
});

describe('newest-python with a pin date', () => {
  const combos = expandMatrix({ keys: ['python-version'], values: new Map([['python-version', ['3.12', '3.13', '3.14']]]), include: [], exclude: [] });
  const base = { combos, jobId: 'test', jobName: undefined, failedJobNames: [], gatedConditions: [], strategy: 'newest-python' as const };

  it('treats versions released after the commit date as pre-releases', () => {
    expect(combos[selectCombination({ ...base, pinDate: new Date('2025-03-01T00:00:00Z') }).index]?.values).toEqual({ 'python-version': '3.13' });
    expect(combos[selectCombination({ ...base, pinDate: new Date('2025-12-01T00:00:00Z') }).index]?.values).toEqual({ 'python-version': '3.14' });
    expect(combos[selectCombination(base).index]?.values).toEqual({ 'python-version': '3.14' });
  });
});
