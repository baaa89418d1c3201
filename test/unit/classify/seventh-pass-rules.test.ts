import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';
import { stripTaskPrefix } from '../../../src/classify/task-prefix.js';

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
    ['xcodebuild archive', ["/Users/runner/work/k/Sources/ChatView.swift:949:120: error: main actor-isolated static property 'appDefault' can not be referenced from a nonisolated context"], 'Type Checking'],
  ] as const)('%s', async (command, lines, type) => {
    expect(await typesOf(command, [...lines])).toContain(type);
  });

  it('reads a vitest summary behind a Turborepo package prefix', async () => {
    const lines = [
      'roo-cline:test:  FAIL  core/prompts/__tests__/custom-system-prompt.spec.ts > File-Based Custom System Prompt > uses the default',
      'roo-cline:test: Error: Test timed out in 20000ms.',
      'roo-cline:test:  Test Files  1 failed | 291 passed | 3 skipped (295)',
      'roo-cline:test:       Tests  1 failed | 3811 passed | 41 skipped (3853)',
      'roo-cline:test: ELIFECYCLE  Test failed. See above for more details.',
    ];
    // A test that ran out of time is a failed test, not an exception from the code under test.
    expect(await typesOf('pnpm test', lines)).toEqual(['Test Failure']);
  });

  it('still reads an exception thrown inside a vitest test as a runtime error', async () => {
    const lines = [' FAIL  test/cli.test.ts > cli > applies the plan', 'TypeError: Cannot read properties of undefined (reading \'id\')', ' Test Files  1 failed | 3 passed (4)'];
    expect(await typesOf('npx vitest run', lines)).toEqual(['Runtime Error', 'Test Failure']);
  });
});

describe('stripTaskPrefix', () => {
  it('drops Turborepo and pnpm recursive prefixes', () => {
    expect(stripTaskPrefix('@roo-code/cloud:test:  Test Files  1 failed (1)')).toBe(' Test Files  1 failed (1)');
    expect(stripTaskPrefix('web:build: error TS2304: Cannot find name')).toBe('error TS2304: Cannot find name');
    expect(stripTaskPrefix('packages/core test: FAIL src/a.test.ts')).toBe('FAIL src/a.test.ts');
  });

  it('keeps tool lines that only look like a prefix', () => {
    for (const line of ['tests/test_x.py:12: AssertionError', 'src/app.ts:3:7: error: x', 'mypy: error: no such file', 'E   assert 1 == 2', 'WARNING:root:done']) {
      expect(stripTaskPrefix(line)).toBe(line);
    }
  });
});
