import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';
import { stripTaskPrefixes } from '../../../src/classify/task-prefix.js';

/**
 * Lines from the seventh collection pass's tuning-half logs (test/fixtures/logs/real, issue 16), each the evidence
 * of its log's label, in a one-step failing job; and the lines that must not label.
 */
const stamp = (i: number): string => `2025-04-07T12:57:${String(10 + (i % 50)).padStart(2, '0')}.2943173Z`;
function failingStep(command: string, lines: string[]): string {
  const body = [`##[group]Run ${command}`, command, 'shell: /usr/bin/bash -e {0}', '##[endgroup]', ...lines, '##[error]Process completed with exit code 1.'];
  return body.map((text, i) => `${stamp(i)} ${text}`).join('\n');
}
const typesOf = async (command: string, lines: string[]): Promise<string[]> =>
  (await classifyJob({ log: failingStep(command, lines) })).labels.map((label) => label.type).sort();

describe('seventh pass: rules from real logs', () => {
  it.each([
    ['firebase deploy --only hosting', ['Error: Failed to authenticate, have you run firebase login?'], 'Configuration Error'],
    ['npx wrangler pages deploy out', ["✘ [ERROR] In a non-interactive environment, it's necessary to set a CLOUDFLARE_API_TOKEN environment variable for wrangler to work."], 'Configuration Error'],
    ['vercel --prod --yes', ['Error: Could not retrieve Project Settings. To link your Project, remove the `.vercel` directory and deploy again.'], 'Configuration Error'],
    ['poetry export --without-hashes --format=requirements.txt', ['', 'The requested command export does not exist.', ''], 'Configuration Error'],
    ['poetry lock --no-update', ['', 'The option "--no-update" does not exist', ''], 'Configuration Error'],
    ['git push', ['remote: Write access to repository not granted.', "fatal: unable to access 'https://github.com/o/r/': The requested URL returned error: 403"], 'Configuration Error'],
    ['dotnet restore App.sln', ['D:\\a\\App\\App.csproj : error NU1101: Unable to find package Dalamud.Interface. No packages exist with this id in source(s): nuget.org'], 'Package Installation Error'],
    ['dotnet restore App.sln', ['/w/App.csproj : error NU1103: Unable to find a stable package Foo with version (>= 1.0.0)'], 'Package Installation Error'],
    ['xcodebuild archive', ["/Users/runner/work/k/Sources/ChatView.swift:949:120: error: main actor-isolated static property 'appDefault' can not be referenced from a nonisolated context"], 'Type Checking'],
  ] as const)('%s', async (command, lines, type) => {
    expect(await typesOf(command, [...lines])).toContain(type);
  });

  it('reads a vitest summary behind a Turborepo package prefix; a timed-out test or hook is a failed test', async () => {
    const lines = [
      'roo-cline:test:  FAIL  core/prompts/__tests__/custom-system-prompt.spec.ts > File-Based Custom System Prompt > uses the default',
      'roo-cline:test: Error: Test timed out in 20000ms.',
      'roo-cline:test:  FAIL  core/prompts/__tests__/other.spec.ts > Other',
      'roo-cline:test: Error: Hook timed out in 10000ms.',
      'roo-cline:test:  Test Files  2 failed | 291 passed | 3 skipped (295)',
      'roo-cline:test:       Tests  2 failed | 3811 passed | 41 skipped (3853)',
    ];
    expect(await typesOf('pnpm test', lines)).toEqual(['Test Failure']);
  });

  it('reads an exception under a pnpm recursive prefix (the rule needs the FAIL line right above, prefix removed)', async () => {
    const lines = [
      'packages/core test:  FAIL  test/cli.test.ts > cli > applies the plan',
      "packages/core test: TypeError: Cannot read properties of undefined (reading 'id')",
      'packages/core test:  Test Files  1 failed | 3 passed (4)',
    ];
    expect(await typesOf('pnpm -r test', lines)).toEqual(['Runtime Error', 'Test Failure']);
  });

  it('reads a problem-matcher line whose tool line carries a Turborepo prefix', async () => {
    const lines = [
      'web:build: > web@1.0.0 build',
      'web:build: > tsc -p .',
      "##[error]web:build: src/a.ts(3,7): error TS2304: Cannot find name 'foo'.",
      'web:build: ELIFECYCLE  Command failed with exit code 2.',
    ];
    expect(await typesOf('npx turbo run build', lines)).toEqual(['Type Checking']);
  });

  it('still reads an exception thrown inside a vitest test as a runtime error', async () => {
    const lines = [' FAIL  test/cli.test.ts > cli > applies the plan', 'TypeError: Cannot read properties of undefined (reading \'id\')', ' Test Files  1 failed | 3 passed (4)'];
    expect(await typesOf('npx vitest run', lines)).toEqual(['Runtime Error', 'Test Failure']);
  });
});

describe('stripTaskPrefixes', () => {
  const strip = (texts: string[]): string[] => stripTaskPrefixes(texts.map((text, line) => ({ line, text }))).map((entry) => entry.text);

  it('drops Turborepo and pnpm recursive prefixes that recur', () => {
    expect(strip(['@roo-code/cloud:test: a', '@roo-code/cloud:test:  Test Files  1 failed (1)', '@roo-code/cloud:test: b'])).toEqual(['a', ' Test Files  1 failed (1)', 'b']);
    expect(strip(['packages/core test: x', 'packages/core test: FAIL src/a.test.ts', 'packages/core test: y', 'web:build: z'])).toEqual(['x', 'FAIL src/a.test.ts', 'y', 'web:build: z']);
  });

  it('keeps tool lines that only look like a prefix, and a prefix-like start seen once or twice', () => {
    const lines = ['tests/test_x.py:12: AssertionError', 'src/app.ts:3:7: error: x', 'mypy: error: no such file', 'E   assert 1 == 2', 'ERROR:root:ValueError: bad', 'ERROR:root:Error: x'];
    expect(strip(lines)).toEqual(lines);
  });
});
