import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countWorkflowJobs, leastLoaded, priorityOf, readPoolFile, toPoolAccount } from '../../../src/scheduler/index.js';

describe('pool file', () => {
  it('reads accounts with plan limits and defaults', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pool-'));
    const path = join(dir, 'pool.json');
    await writeFile(path, JSON.stringify({ accounts: [{ owner: 'bench-a', plan: 'team' }, { owner: 'bench-b', concurrentJobs: 8, runnerLabels: ['arc-scale-set'], installationId: 12 }] }));
    const accounts = await readPoolFile(path);
    expect(accounts).toEqual([
      { owner: 'bench-a', installationId: null, concurrentJobs: 60, restPerHour: 5000, writesPerMinute: 80, runnerLabels: [], state: 'active' },
      { owner: 'bench-b', installationId: 12, concurrentJobs: 8, restPerHour: 5000, writesPerMinute: 80, runnerLabels: ['arc-scale-set'], state: 'active' },
    ]);
  });

  it('names what is wrong in a bad file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pool-'));
    const path = join(dir, 'pool.json');
    await writeFile(path, JSON.stringify({ accounts: [{ owner: 'bench-a' }] }));
    await expect(readPoolFile(path)).rejects.toThrow(/give `plan` or `concurrentJobs`/);
    await writeFile(path, JSON.stringify({ accounts: [{ owner: 'a', plan: 'free' }, { owner: 'A', plan: 'pro' }] }));
    await expect(readPoolFile(path)).rejects.toThrow(/listed twice/);
    await writeFile(path, '{ not json');
    await expect(readPoolFile(path)).rejects.toMatchObject({ code: 'invalid_pool_file' });
  });
});

describe('least-loaded assignment', () => {
  it('places by repositories per concurrent job, skipping accounts that take no new work', () => {
    const accounts = [toPoolAccount({ owner: 'small', concurrentJobs: 20 }), toPoolAccount({ owner: 'big', concurrentJobs: 60 }), toPoolAccount({ owner: 'gone', concurrentJobs: 500, state: 'draining' })];
    expect(leastLoaded(accounts, new Map())).toBe('big');
    expect(leastLoaded(accounts, new Map([['big', 3], ['small', 0]]))).toBe('small');
    expect(leastLoaded(accounts, new Map([['big', 3], ['small', 1]]))).toBe('big');
    expect(leastLoaded(accounts, new Map([['big', 4], ['small', 1]]))).toBe('small');
    expect(leastLoaded([toPoolAccount({ owner: 'x', plan: 'free', state: 'removed' })], new Map())).toBeNull();
  });
});

describe('jobs per workflow', () => {
  it('counts one per job and one per matrix leg (product, exclude, include)', () => {
    const text = `on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps: [{ run: ruff . }]
  test:
    needs: lint
    strategy:
      matrix:
        os: [ubuntu-latest, macos-latest]
        python: ['3.10', '3.11', '3.12']
        exclude: [{ os: macos-latest, python: '3.10' }]
        include: [{ os: windows-latest, python: '3.12' }]
    runs-on: \${{ matrix.os }}
    steps: [{ run: pytest }]
  dynamic:
    strategy:
      matrix: \${{ fromJSON(needs.lint.outputs.m) }}
    runs-on: ubuntu-latest
    steps: [{ run: echo }]
`;
    // A matrix built at run time: its size is unknown, so everything is reserved.
    expect(countWorkflowJobs(text)).toEqual({ jobs: 1 + 6 + 1, unknown: ['jobs.dynamic.strategy.matrix'], concurrent: 8 });
  });

  it('reserves what can be queued or running at once: needs chains and max-parallel respected', () => {
    const chain = `on: push
jobs:
  lint: { runs-on: ubuntu-latest, steps: [{ run: ruff . }] }
  test:
    needs: lint
    strategy: { matrix: { python: ['3.10', '3.11', '3.12'] } }
    runs-on: ubuntu-latest
    steps: [{ run: pytest }]
  build: { needs: [test], runs-on: ubuntu-latest, steps: [{ run: make }] }
`;
    // lint → test (3 legs) → build: never more than the 3 legs at once.
    expect(countWorkflowJobs(chain)).toEqual({ jobs: 5, unknown: [], concurrent: 3 });
    // A job that needs nothing runs beside any of them; a transitive need keeps build apart from lint.
    const side = chain.replace('  build:', '  docs: { runs-on: ubuntu-latest, steps: [{ run: mkdocs build }] }\n  build:');
    expect(countWorkflowJobs(side)).toEqual({ jobs: 6, unknown: [], concurrent: 4 });
    const capped = chain.replace("strategy: { matrix:", "strategy: { max-parallel: 2, matrix:");
    expect(countWorkflowJobs(capped)).toEqual({ jobs: 5, unknown: [], concurrent: 2 });
    // Without needs, every job at once.
    expect(countWorkflowJobs(chain.replace('    needs: lint\n', '').replace('needs: [test], ', ''))).toEqual({ jobs: 5, unknown: [], concurrent: 5 });
  });
});

describe('priority classes', () => {
  it('interactive without a run, campaign with one, re-validation by kind', () => {
    expect(priorityOf({ kind: 'candidate', runId: null })).toBe('interactive');
    expect(priorityOf({ kind: 'candidate', runId: 'r' })).toBe('campaign');
    expect(priorityOf({ kind: 'revalidation', runId: null })).toBe('revalidation');
  });
});
