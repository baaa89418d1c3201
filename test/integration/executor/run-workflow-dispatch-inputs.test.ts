import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiEvent } from '../../../src/domain/ci-events.js';
import { isAppError } from '../../../src/errors.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({ 'a.txt': 'a\n' });
});
afterAll(() => repo.cleanup());

/** A dispatchable workflow: `flagged` runs only when inputs.flag is true; `show` writes both input views to files. */
const workflow = (out: string): string => `
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
          printf '%s' "$INPUTS" > '${out}.inputs.json'
          printf '%s' "$EVENT_INPUTS" > '${out}.event.json'
`;

const read = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe('runWorkflow: workflow_dispatch inputs', () => {
  it('the inputs context holds the declared defaults with their types; github.event.inputs has them as strings', async () => {
    const out = join(repo.root, 'defaults');
    const { result, log } = await runFixtureWorkflow(repo, workflow(out), { eventName: 'workflow_dispatch' });
    expect(result.conclusion).toBe('success');
    expect(result.jobs.map((j) => `${j.key}=${j.conclusion}`)).toEqual(['flagged=skipped', 'unflagged=success', 'show=success']);
    expect(logLines(log('unflagged'))).toContain('count gt 3=false level=info');
    expect(read(`${out}.inputs.json`)).toEqual({ flag: false, count: 3, level: 'info', note: '', target: 'staging' });
    expect(read(`${out}.event.json`)).toEqual({ flag: 'false', count: '3', level: 'info', note: '', target: 'staging' });
  });

  it('provided values override the defaults and keep their types', async () => {
    const out = join(repo.root, 'provided');
    const { result } = await runFixtureWorkflow(repo, workflow(out), {
      eventName: 'workflow_dispatch', inputs: { flag: 'true', count: '7', level: 'debug', note: 'hi' },
    });
    expect(result.conclusion).toBe('success');
    expect(result.jobs.map((j) => `${j.key}=${j.conclusion}`)).toEqual(['flagged=success', 'unflagged=skipped', 'show=success']);
    expect(read(`${out}.inputs.json`)).toEqual({ flag: true, count: 7, level: 'debug', note: 'hi', target: 'staging' });
    expect(read(`${out}.event.json`)).toEqual({ flag: 'true', count: '7', level: 'debug', note: 'hi', target: 'staging' });
  });

  it('a push run of the same workflow has an empty inputs context', async () => {
    const out = join(repo.root, 'push');
    const { result } = await runFixtureWorkflow(repo, workflow(out));
    expect(result.jobs.map((j) => `${j.key}=${j.conclusion}`)).toEqual(['flagged=skipped', 'unflagged=skipped', 'show=success']);
    expect(read(`${out}.inputs.json`)).toEqual({});
  });

  it('rejects bad values before anything runs, naming every problem', async () => {
    const out = join(repo.root, 'bad');
    const events: CiEvent[] = [];
    const attempt = runFixtureWorkflow(repo, workflow(out), {
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
    expect(existsSync(`${out}.inputs.json`)).toBe(false);

    await expect(runFixtureWorkflow(repo, workflow(out), { inputs: { flag: true } })).rejects.toThrow(/inputs were given for a 'push' run/);
    await expect(runFixtureWorkflow(repo, workflow(out), { eventName: 'workflow_dispatch', inputs: { count: true } })).rejects.toThrow(/input 'count' is a number, got true/);
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
