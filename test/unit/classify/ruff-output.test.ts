import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyJob, labelTypes } from '../../../src/classify/index.js';

const stamp = (i: number): string => `2025-04-07T12:57:${String(10 + (i % 50)).padStart(2, '0')}.2943173Z`;

/** A one-step job that runs `command`, prints `lines` and fails. */
const failingStep = (command: string, lines: string[]): string =>
  [`##[group]Run ${command}`, command, 'shell: /usr/bin/bash -e {0}', '##[endgroup]', ...lines, '##[error]Process completed with exit code 1.']
    .map((text, i) => `${stamp(i)} ${text}`)
    .join('\n');

const findingsOf = async (command: string, lines: string[]) => {
  const result = await classifyJob({ log: failingStep(command, lines) });
  return { types: labelTypes(result), findings: result.labels.flatMap((l) => l.findings.map((f) => ({ type: l.type, ...f }))) };
};

// Ruff >= 0.12.9 default output (crates/ruff/tests/snapshots/lint__output_format_full.snap at 0.12.9, two-digit gutter
// as ruff prints it when the snippet reaches line 10).
const FULL_0_12_9 = [
  'F401 [*] `os` imported but unused',
  ' --> app/a.py:1:8',
  '  |',
  '1 | import os',
  '  |        ^^',
  '  |',
  'help: Remove unused import: `os`',
  '',
  'F401 [*] `typing.Generator` imported but unused',
  '  --> app/database.py:10:20',
  '   |',
  ' 9 | import sys',
  '10 | from typing import Generator',
  '   |                    ^^^^^^^^^',
  '   |',
  'help: Remove unused import: `typing.Generator`',
  '',
  'ASYNC110 Use `trio.Event` instead of awaiting `trio.sleep` in a `while` loop',
  ' --> app/b.py:4:5',
  '  |',
  '',
  'Found 3 errors.',
  '[*] 2 fixable with the `--fix` option.',
];

// Ruff 0.5.0–0.12.8 default (`full`) output (lint__output_format_full.snap at 0.12.5).
const FULL_0_12_5 = [
  'app/a.py:1:8: F401 [*] `os` imported but unused',
  '  |',
  '1 | import os',
  '  |        ^^ F401',
  '  |',
  '  = help: Remove unused import: `os`',
  '',
  'app/a.py:2:5: F821 Undefined name `y`',
  '  |',
  '1 | import os',
  '2 | x = y',
  '  |     ^ F821',
  '  |',
  '',
  'Found 2 errors.',
  '[*] 1 fixable with the `--fix` option.',
];

describe('ruff output formats', () => {
  it('reads the full output of ruff >= 0.12.9: code and message from the header, place from the --> line', async () => {
    const { types, findings } = await findingsOf('ruff check .', FULL_0_12_9);
    expect(types).toEqual(['Code Linting']);
    expect(findings).toEqual([
      { type: 'Code Linting', path: 'app/a.py', line: 1, column: 8, message: 'F401 `os` imported but unused', level: 'failure', tool: 'ruff', rule: 'ruff-full-violation' },
      { type: 'Code Linting', path: 'app/database.py', line: 10, column: 20, message: 'F401 `typing.Generator` imported but unused', level: 'failure', tool: 'ruff', rule: 'ruff-full-violation' },
      { type: 'Code Linting', path: 'app/b.py', line: 4, column: 5, message: 'ASYNC110 Use `trio.Event` instead of awaiting `trio.sleep` in a `while` loop', level: 'failure', tool: 'ruff', rule: 'ruff-full-violation' },
    ]);
  });

  it('keeps the header line and the snippet in the evidence', async () => {
    const result = await classifyJob({ log: failingStep('ruff check .', FULL_0_12_9.slice(0, 7)) });
    const evidence = result.labels[0]?.evidence[0];
    expect(evidence?.rule).toBe('ruff-full-violation');
    expect(evidence?.text.split('\n')).toEqual(FULL_0_12_9.slice(0, 5));
  });

  it('reads the full output of ruff 0.5–0.12.8 through the concise rule, one finding per diagnostic', async () => {
    const { types, findings } = await findingsOf('ruff check .', FULL_0_12_5);
    expect(types).toEqual(['Code Linting']);
    expect(findings.map((f) => [f.rule, f.path, f.line, f.column, f.message])).toEqual([
      ['ruff-violation', 'app/a.py', 1, 8, 'F401 `os` imported but unused'],
      ['ruff-violation', 'app/a.py', 2, 5, 'F821 Undefined name `y`'],
    ]);
  });

  it('labels syntax errors Syntax Error in every format', async () => {
    const full = await findingsOf('ruff check .', ['invalid-syntax: Expected `)`, found newline', ' --> app/core.py:1:8', '  |', '1 | def f(', '  |        ^', '  |', '', 'Found 1 error.']);
    expect(full.types).toEqual(['Syntax Error']);
    expect(full.findings).toEqual([
      { type: 'Syntax Error', path: 'app/core.py', line: 1, column: 8, message: 'Expected `)`, found newline', level: 'failure', tool: 'ruff', rule: 'ruff-full-syntax-error' },
    ]);
    // Concise output from 0.12.9 on (cli__lint__output_format_concise.snap).
    const concise = await findingsOf('ruff check --output-format concise .', ['app/core.py:3:1: invalid-syntax: Cannot use `match` statement on Python 3.9']);
    expect(concise.types).toEqual(['Syntax Error']);
    expect(concise.findings.map((f) => [f.rule, f.path, f.line, f.column])).toEqual([['ruff-syntax-error', 'app/core.py', 3, 1]]);
  });

  it('labels docstring codes in the full output Doc/Docstring, as in the concise output', async () => {
    const { types, findings } = await findingsOf('ruff check --select D .', ['D103 Missing docstring in public function', ' --> app/a.py:3:5', '  |']);
    expect(types).toEqual(['Doc/Docstring']);
    expect(findings.map((f) => [f.rule, f.message])).toEqual([['ruff-full-docstring', 'D103 Missing docstring in public function']]);
  });

  it('labels ruff format --check Code Formatting, before and after 0.16', async () => {
    const old = await findingsOf('ruff format --check .', ['Would reformat: app/a.py', '1 file would be reformatted']);
    expect(old.types).toEqual(['Code Formatting']);
    expect(old.findings.map((f) => [f.rule, f.path])).toEqual([['ruff-would-reformat', 'app/a.py']]);
    const full = await findingsOf('ruff format --check .', ['unformatted: File would be reformatted', ' --> app/a.py:1:1', '  |', '  - x =  1', '1 + x = 1', '  |', '', '1 file would be reformatted']);
    expect(full.types).toEqual(['Code Formatting']);
    expect(full.findings.map((f) => [f.rule, f.path, f.line, f.message])).toEqual([['ruff-full-unformatted', 'app/a.py', 1, 'ruff format would reformat this file']]);
    const concise = await findingsOf('ruff format --check --output-format concise .', ['app/a.py:1:1: unformatted: File would be reformatted']);
    expect(concise.findings.map((f) => [f.rule, f.path])).toEqual([['ruff-unformatted', 'app/a.py']]);
  });

  it('takes no --> line without a ruff header right before it (rustc output under pre-commit)', async () => {
    const lines = ['error[E0308]: mismatched types', ' --> src/main.rs:2:5', '  |', '2 |     "a"', '  |     ^^^ expected `i32`, found `&str`'];
    const result = await classifyJob({ log: failingStep('pre-commit run --all-files', lines) });
    expect(result.labels.flatMap((l) => l.evidence.map((e) => e.rule))).not.toContain('ruff-full-violation');
    expect(result.labels.flatMap((l) => l.findings)).toEqual([]);
    // A header two lines up does not count either.
    const apart = await findingsOf('ruff check .', ['F401 [*] `os` imported but unused', '', ' --> app/a.py:1:8']);
    expect(apart.findings).toEqual([]);
  });

  it('finds every diagnostic of the corpus log of ruff check in its default output', async () => {
    const log = readFileSync(join(import.meta.dirname, '../../fixtures/logs/code-linting/ruff-full.log'));
    const result = await classifyJob({ log });
    expect(labelTypes(result)).toEqual(['Code Linting']);
    expect(result.labels[0]?.findings.map((f) => `${f.path}:${f.line}:${f.column ?? ''} ${f.message}`)).toEqual([
      'app/core.py:2:1 F403 `from os import *` used; unable to detect undefined names',
      'app/core.py:6:13 E711 Comparison to `None` should be `cond is None`',
      'app/core.py:8:5 E741 Ambiguous variable name: `l`',
    ]);
  });
});
