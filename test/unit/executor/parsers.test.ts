import { describe, expect, it } from 'vitest';
import { parseKeyValueFile, parsePathFile } from '../../../src/executor/env-files.js';
import { versionSatisfies } from '../../../src/executor/host-tools.js';
import { logTimestamp } from '../../../src/executor/log-writer.js';
import { expandMatrix, matrixJobName } from '../../../src/executor/matrix.js';
import { parseWorkflowCommand } from '../../../src/executor/workflow-commands.js';
import { parseWorkflow } from '../../../src/executor/workflow-model.js';

describe('environment files', () => {
  it('parses NAME=value lines and NAME<<DELIM blocks', () => {
    expect(parseKeyValueFile('A=1\nB=x=y\n\nC<<EOF\nl1\nl2\nEOF\nD<<X\nX\n', 'GITHUB_ENV')).toEqual([
      ['A', '1'],
      ['B', 'x=y'],
      ['C', 'l1\nl2'],
      ['D', ''],
    ]);
    expect(() => parseKeyValueFile('C<<EOF\nl1\n', 'GITHUB_ENV')).toThrow("Matching delimiter not found 'EOF'");
    expect(() => parseKeyValueFile('novalue\n', 'GITHUB_OUTPUT')).toThrow(/Invalid format/);
    expect(parsePathFile('/a\n\n /b \n')).toEqual(['/a', '/b']);
  });
});

describe('workflow commands', () => {
  it('parses properties and unescapes data', () => {
    expect(parseWorkflowCommand('::error file=a%2Cb.py,line=3::bad%0Athing %25')).toEqual({
      name: 'error',
      properties: { file: 'a,b.py', line: '3' },
      message: 'bad\nthing %',
    });
    expect(parseWorkflowCommand('::endgroup::')).toEqual({ name: 'endgroup', properties: {}, message: '' });
    expect(parseWorkflowCommand('plain :: text')).toBeNull();
    expect(parseWorkflowCommand('::not a command')).toBeNull();
  });
});

describe('matrix', () => {
  it('expands, excludes and includes like GitHub', () => {
    const combos = expandMatrix(
      {
        os: ['ubuntu', 'mac'],
        py: ['3.10', '3.11'],
        exclude: [{ os: 'mac', py: '3.10' }],
        include: [{ py: '3.11', extra: 'x' }, { os: 'windows', py: '3.12' }],
      },
      'test',
    );
    expect(combos).toEqual([
      { os: 'ubuntu', py: '3.10' },
      { os: 'ubuntu', py: '3.11', extra: 'x' },
      { os: 'mac', py: '3.11', extra: 'x' },
      { os: 'windows', py: '3.12' },
    ]);
    expect(expandMatrix(undefined, 'x')).toBeNull();
    expect(matrixJobName('test', { py: '3.11', os: 'ubuntu-latest' }, false)).toBe('test (3.11, ubuntu-latest)');
    expect(matrixJobName('Tests 3.11', { py: '3.11' }, true)).toBe('Tests 3.11');
  });
});

describe('versions and timestamps', () => {
  it('matches setup-* version specs', () => {
    expect(versionSatisfies('3.11.7', '3.11')).toBe(true);
    expect(versionSatisfies('3.11.7', '3.x')).toBe(true);
    expect(versionSatisfies('3.11.7', '3.1')).toBe(false);
    expect(versionSatisfies('3.11.7', '>=3.9')).toBe(true);
    expect(versionSatisfies('3.8.18', '>=3.9')).toBe(false);
    expect(versionSatisfies('20.20.2', 'lts/*')).toBe(true);
    expect(versionSatisfies('20.20.2', '18')).toBe(false);
    expect(versionSatisfies('3.11.7', 'pypy3.10')).toBe(false);
  });

  it('formats GitHub log timestamps with 7 fractional digits', () => {
    expect(logTimestamp(new Date('2025-04-07T12:57:33.294Z'))).toBe('2025-04-07T12:57:33.2940000Z');
  });
});

describe('workflow model', () => {
  it('rejects unknown needs, cycles and jobs without steps', () => {
    expect(() => parseWorkflow('jobs:\n  a:\n    needs: b\n    steps: [{run: x}]\n', 'w.yml')).toThrow(/unknown job b/);
    expect(() => parseWorkflow('jobs:\n  a:\n    needs: b\n    steps: [{run: x}]\n  b:\n    needs: a\n    steps: [{run: x}]\n', 'w.yml')).toThrow(/cycle/);
    expect(() => parseWorkflow('jobs:\n  a:\n    runs-on: x\n', 'w.yml')).toThrow(/no steps/);
    expect(() => parseWorkflow(': : :', 'w.yml')).toThrow(expect.objectContaining({ kind: 'invalid_input' }));
  });
});
