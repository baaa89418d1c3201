/**
 * The interpreter and tools the setup checked (scripts/setup-machine/tools.ts, run by `npm test` before the tests
 * and by .ci/run), resolved the same way: tests that run a Python tool themselves, or name one in a workflow, take
 * its path from here instead of hard-coding `/usr/bin/python3` or relying on the PATH vitest was started with.
 */
import { checkTools, type ToolCheck } from '../../scripts/setup-machine/tools.js';

const report = await checkTools('tests');

function found(name: string): ToolCheck {
  const check = report.checks.find((c) => c.name === name);
  if (check?.ok !== true || check.path === null) {
    throw new Error(`${name} is not usable on this machine (${check?.detail ?? 'not checked'}); run \`npm run setup\`, which installs it or says how`);
  }
  return check;
}

/** What the setup checked, for tests that run Python tools. */
export const pythonTools = {
  /** `python3` on the executor's PATH, with pytest and pip (what a step without setup-python runs). */
  get python3(): string {
    found('pytest (python3)');
    return found('python3').path as string;
  },
  /** The interpreter setup-python picks for the example's Python version, with pytest. */
  get setupPython(): string {
    return found('pytest (python 3.11)').path as string;
  },
  /** The absolute path of a checked command (`flake8`, `black`, `isort`, `mypy`, `pylint`, `pydocstyle`). */
  command(name: 'flake8' | 'black' | 'isort' | 'mypy' | 'pylint' | 'pydocstyle'): string {
    return found(name).path as string;
  },
};
