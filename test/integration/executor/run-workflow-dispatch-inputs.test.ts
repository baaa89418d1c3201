import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiEvent } from '../../../src/domain/ci-events.js';
import { isAppError } from '../../../src/errors.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, printedFile, runFixtureWorkflow } from '../../support/executor-fixtures.js';

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({ 'a.txt': 'a\n' });
});
afterAll(() => repo.cleanup());

/** A dispatchable workflow: `flagged` runs only when inputs.flag is true; `show` prints both input views (base64). */
const workflow = (): string => `
on:
  push:
  workflow_dispatch:
    inputs:
      flag:
        type: boolean
        default: false
      count:
        type: number
        default: 3
      level:
        type: choice
        options: [debug, info]
        default: info
      note:
        description: no default
      target:
        type: environment
        default: staging
jobs:
  flagged:
    if: inputs.flag
    runs-on: ubuntu-latest
    steps:
      - run: echo flagged
  unflagged:
    if: \${{ !inputs.flag && inputs.flag == false && github.event.inputs.flag == 'false' }}
    runs-on: ubuntu-latest
    steps:
      - run: echo "count gt 3=\${{ inputs.count > 3 }} level=\${{ inputs.level }}"
  show:
    runs-on: ubuntu-latest
    env:
      INPUTS: \${{ toJSON(inputs) }}
      EVENT_INPUTS: \${{ toJSON(github.event.inputs) }}
    steps:
      - run: |
          echo "inputs=$(printf '%s' "$INPUTS" | base64 -w0)"
          echo "event=$(printf '%s' "$EVENT_INPUTS" | base64 -w0)"
`;

const read = (logText: string, key: 'inputs' | 'event'): unknown => JSON.parse(printedFile(logText, key));

describe('runWorkflow: workflow_dispatch inputs', () => {
  it('the inputs context holds the declared defaults with their types; github.event.inputs has them as strings', async () => {
    const { result, log } = await runFixtureWorkflow(repo, workflow(), { eventName: 'workflow_dispatch' });
    expect(result.conclusion).toBe('success');
    expect(result.jobs.map((j) => `${j.key}=${j.conclusion}`)).toEqual(['flagged=skipped', 'unflagged=success', 'show=success']);
    expect(logLines(log('unflagged'))).toContain('count gt 3=false level=info');
    expect(read(log('show'), 'inputs')).toEqual({ flag: false, count: 3, level: 'info', note: '', target: 'staging' });
    expect(read(log('show'), 'event')).toEqual({ flag: 'false', count: '3', level: 'info', note: '', target: 'staging' });
  });

  it('provided values override the defaults and keep their types', async () => {
    const { result, log } = await runFixtureWorkflow(repo, workflow(), {
      eventName: 'workflow_dispatch', inputs: { flag: 'true', count: '7', level: 'debug', note: 'hi' },
    });
    expect(result.conclusion).toBe('success');
    expect(result.jobs.map((j) => `${j.key}=${j.conclusion}`)).toEqual(['flagged=success', 'unflagged=skipped', 'show=success']);
    expect(read(log('show'), 'inputs')).toEqual({ flag: true, count: 7, level: 'debug', note: 'hi', target: 'staging' });
    expect(read(log('show'), 'event')).toEqual({ flag: 'true', count: '7', level: 'debug', note: 'hi', target: 'staging' });
  });

  it('a push run of the same workflow has an empty inputs context', async () => {
    const { result, log } = await runFixtureWorkflow(repo, workflow());
    expect(result.jobs.map((j) => `${j.key}=${j.conclusion}`)).toEqual(['flagged=skipped', 'unflagged=skipped', 'show=success']);
    expect(read(log('show'), 'inputs')).toEqual({});
  });

  it('rejects bad values before anything runs, naming every problem', async () => {
    const events: CiEvent[] = [];
    const attempt = runFixtureWorkflow(repo, workflow(), {
      eventName: 'workflow_dispatch',
      inputs: { flag: 'yes', count: 'many', level: 'trace', colour: 'red' },
      onEvent: (e) => {
        events.push(e);
      },
    });
    const error: unknown = await attempt.then(() => null, (e: unknown) => e);
    expect(isAppError(error) && error.kind === 'invalid_input' && error.code === 'invalid_dispatch_inputs').toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(`input 'flag' is a boolean: expected true or false, got "yes"`);
    expect(message).toContain(`input 'count' is a number, got "many"`);
    expect(message).toContain(`input 'level' must be one of 'debug', 'info', got "trace"`);
    expect(message).toContain(`unexpected input 'colour' (declared: flag, count, level, note, target)`);
    expect(events).toEqual([]);

    await expect(runFixtureWorkflow(repo, workflow(), { inputs: { flag: true } })).rejects.toThrow(/inputs were given for a 'push' run/);
    await expect(runFixtureWorkflow(repo, workflow(), { eventName: 'workflow_dispatch', inputs: { count: true } })).rejects.toThrow(/input 'count' is a number, got true/);
  });

  it('an input type GitHub does not know makes the workflow a startup failure', async () => {
    const { result } = await runFixtureWorkflow(repo, `
on:
  workflow_dispatch:
    inputs:
      n:
        type: integer
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`, { eventName: 'workflow_dispatch' });
    expect(result.conclusion).toBe('startup_failure');
    expect(result.startupError).toMatch(/inputs\.n has unknown type 'integer'/);
  });
});
