import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';

/**
 * Task runners' closing lines name the task that failed (issue 16, eighth pass): when nothing else in the step says
 * why, the name does. Lines as the runners print them; the first three forms come from tuning-half logs.
 */
const stamp = (i: number): string => `2025-04-07T12:57:${String(10 + (i % 50)).padStart(2, '0')}.2943173Z`;
function failingStep(command: string, lines: string[]): string {
  const body = [`##[group]Run ${command}`, command, 'shell: /usr/bin/bash -e {0}', '##[endgroup]', ...lines, '##[error]Process completed with exit code 1.'];
  return body.map((text, i) => `${stamp(i)} ${text}`).join('\n');
}
const typesOf = async (lines: string[], command = './ci.sh'): Promise<string[]> =>
  (await classifyJob({ log: failingStep(command, lines) })).labels.map((label) => label.type).sort();
/** A benchmark-style tail: no header, no markers, the job known to have failed. */
const tailTypes = async (lines: string[]): Promise<string[]> =>
  (await classifyJob({ log: lines.join('\n'), jobConclusion: 'failure', learnedFallback: false })).labels.map((label) => label.type).sort();

describe('task names in task runners\' failure lines', () => {
  it.each([
    ['melos', 'ScriptException: The script analyze failed to execute.', 'Type Checking'],
    ['Gradle', "Execution failed for task ':app:compileDebugKotlin'.", 'Type Checking'],
    ['Gradle, Android lint', "Execution failed for task ':app:lintVitalRelease'.", 'Code Linting'],
    ['Gradle, unit tests', "Execution failed for task ':app:testDebugUnitTest'.", 'Test Failure'],
    ['Gradle, javadoc', "Execution failed for task ':lib:javadoc'.", 'Doc/Docstring'],
    ['Gradle, spotless', "Execution failed for task ':spotlessCheck'.", 'Code Formatting'],
    ['npm 7+', 'npm error Lifecycle script `typecheck` failed with error:', 'Type Checking'],
    ['npm 6', 'npm ERR! Failed at the @scope/app@2.3.0 prettier-check script.', 'Code Formatting'],
    ['pnpm -r', ' ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @tekton/mcp-server@0.2.0 lint: `eslint src --ext .ts`', 'Code Linting'],
    ['turbo', '@obs/backend#typecheck: command (/w/apps/backend) /usr/bin/pnpm run typecheck exited (2)', 'Type Checking'],
    ['turbo 1', 'app:test: ERROR: command finished with error: command (/w/src) /usr/bin/pnpm run test exited (1)', 'Test Failure'],
    ['Nx', ' NX   Running target test:unit for project api failed', 'Test Failure'],
    ['make', 'make: *** [Makefile:20: html] Error 2', 'Doc/Docstring'],
    ['make, object file', 'make[3]: *** [CMakeFiles/app.dir/build.make:247: CMakeFiles/app.dir/src/main.cpp.o] Error 1', 'Type Checking'],
    ['just', 'error: Recipe `lint` failed on line 12 with exit code 1', 'Code Linting'],
    ['go-task', 'task: Failed to run task "test": task: Failed to run task "test:unit": exit status 1', 'Test Failure'],
    ['nox', 'nox > Session docs failed.', 'Doc/Docstring'],
    ['nox, parametrized', "nox > Session tests-3.12(django='5.0') failed.", 'Test Failure'],
    ['tox 4', '  ruff-format: FAIL code 1 (2.16=setup[2.12]+cmd[0.03] seconds)', 'Code Formatting'],
    ['tox 3', 'ERROR:   mypy: commands failed', 'Type Checking'],
    ['tox, test env', '  py311: FAIL code 1 (12.04 seconds)', 'Test Failure'],
    ['lerna', 'lerna ERR! npm run lint exited 1 in \'@scope/ui\'', 'Code Linting'],
    ['bun', 'error: script "test" exited with code 1', 'Test Failure'],
    ['npm-run-all', 'ERROR: "format:check" exited with 1.', 'Code Formatting'],
    ['composer', 'Script vendor/bin/phpstan analyse handling the phpstan event returned with error code 1', 'Type Checking'],
  ] as const)('%s', async (_runner, line, type) => {
    expect(await typesOf([line])).toEqual([type]);
    expect(await tailTypes(['some output', line, 'Process completed with exit code 1.'])).toEqual([type]);
  });

  it('names that say nothing of the failure give no label', async () => {
    expect(await typesOf(["Execution failed for task ':app:assembleRelease'."])).toEqual([]);
    expect(await typesOf(['make: *** [Makefile:203: SmokeAPI] Error 2'])).toEqual([]);
    expect(await typesOf(['npm error Lifecycle script `build` failed with error:'])).toEqual([]);
    expect(await typesOf(['task: Failed to run task "build:container": exit status 1'])).toEqual([]);
  });

  it('types and formatting win over linting in a compound name', async () => {
    expect(await typesOf(['npm error Lifecycle script `lint:types` failed with error:'])).toEqual(['Type Checking']);
    expect(await typesOf(['error: Recipe `lint-format` failed with exit code 1'])).toEqual(['Code Formatting']);
  });

  it('is a fallback: the tool\'s own output decides when the step has it', async () => {
    const lines = ['src/a.ts(3,7): error TS2322: Type \'string\' is not assignable to type \'number\'.', 'npm error Lifecycle script `test` failed with error:'];
    expect(await typesOf(lines)).toEqual(['Type Checking']);
  });

  it('a passing job keeps no label', async () => {
    const log = failingStep('./ci.sh', ['npm error Lifecycle script `lint` failed with error:']);
    expect((await classifyJob({ log, jobConclusion: 'success' })).labels).toEqual([]);
  });
});

describe('summaries without the output behind them', () => {
  it('pytest interrupted by collection errors (tracebacks cut): a module that is not installed', async () => {
    const lines = ['=========================== short test summary info ============================', 'ERROR tests/test_api_routes.py', '!!!!!!!!!!!!!!!!!!! Interrupted: 3 errors during collection !!!!!!!!!!!!!!!!!!!!', '4 warnings, 3 errors in 0.95s'];
    expect(await tailTypes([...lines, 'Process completed with exit code 2.'])).toEqual(['Dependency Issues']);
  });

  it.each([
    ['SyntaxError: invalid syntax', 'Syntax Error'],
    ["ModuleNotFoundError: No module named 'numpy'", 'Dependency Issues'],
    ["NameError: name 'client' is not defined", 'Runtime Error'],
  ] as const)('a collection error that names its exception (%s) is labelled by it', async (exception, type) => {
    const lines = [`ERROR tests/test_api.py - ${exception}`, '!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!'];
    expect(await tailTypes([...lines, 'Process completed with exit code 2.'])).toEqual([type]);
  });

  it('a script\'s "Failed tests:" list is a test failure; a count of zero is not', async () => {
    expect(await tailTypes(['TEST SUMMARY: 118/120 tests passed', 'Failed tests:', '  - tests/test_a.py', 'Process completed with exit code 1.'])).toEqual(['Test Failure']);
    expect(await tailTypes(['Failed tests: 0', 'Process completed with exit code 1.'])).toEqual([]);
    expect(await tailTypes(['Failed tests: none', 'Process completed with exit code 1.'])).toEqual([]);
  });
});
