import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

let repo: FixtureRepo;
let fakePyenv: string;
beforeAll(() => {
  repo = createFixtureRepo({ 'pkg/mod.py': 'X = 1\n', 'reports/a.xml': '<a/>', 'reports/nested/b.xml': '<b/>', 'reports/skip.txt': 'x' });
  // a pyenv-style directory with one "3.11.99" interpreter (a link to the host python3)
  fakePyenv = mkdtempSync(join(tmpdir(), 'exec-pyenv-'));
  chmodSync(fakePyenv, 0o755); // readable by the sandbox's step user, as a pyenv install is
  mkdirSync(join(fakePyenv, '3.11.99', 'bin'), { recursive: true });
  symlinkSync('/usr/bin/python3', join(fakePyenv, '3.11.99', 'bin', 'python'));
});
afterAll(() => {
  repo.cleanup();
  rmSync(fakePyenv, { recursive: true, force: true });
});

describe('runWorkflow: built-in actions', () => {
  it('checks out into path, honours fetch-depth 0 and exposes the commit', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  co:
    runs-on: ubuntu-latest
    steps:
      - run: test -z "$(ls -A)"
      - uses: actions/checkout@v4
        with:
          path: nested/src
          fetch-depth: 0
      - run: |
          cd nested/src
          git rev-parse HEAD
          git log --oneline | wc -l
          cat pkg/mod.py
      - run: echo "hash=\${{ hashFiles('nested/src/pkg/**/*.py') }} none=\${{ hashFiles('nope/*') }}"
`,
    );
    expect(result.conclusion).toBe('success');
    const lines = logLines(log('co'));
    expect(lines).toContain(repo.sha);
    expect(lines).toContain('2');
    expect(lines).toContain('X = 1');
    const sha256 = (b: Buffer | string): Buffer => createHash('sha256').update(b).digest();
    expect(lines).toContain(`hash=${sha256(sha256('X = 1\n')).toString('hex')} none=`);
    expect(lines.slice(lines.indexOf('##[group]Run actions/checkout@v4'), lines.indexOf('##[group]Run actions/checkout@v4') + 4)).toEqual([
      '##[group]Run actions/checkout@v4',
      'with:',
      '  path: nested/src',
      '  fetch-depth: 0',
    ]);
    expect(result.jobs[0]?.steps.map((s) => s.name)).toEqual([
      'Set up job',
      'Run test -z "$(ls -A)"',
      'Run actions/checkout@v4',
      'Run cd nested/src',
      expect.stringMatching(/^Run echo "hash=[0-9a-f]{64} none="$/),
      'Post Run actions/checkout@v4',
      'Complete job',
    ]);
  });

  it('sets up a host python that satisfies the version, and fails clearly when none does', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  found:
    runs-on: ubuntu-latest
    steps:
      - id: py
        uses: actions/setup-python@v5
        with:
          python-version: '3.11'
      - run: |
          python -c "import sys; print(sys.version_info[:2])"
          echo "ver=\${{ steps.py.outputs.python-version }} loc=$pythonLocation"
  missing:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: '3.4'
      - run: echo unreachable
`,
      { pythonVersionsDirs: [fakePyenv] },
    );
    const found = logLines(log('found'));
    expect(found).toContain('(3, 11)');
    expect(found).toContain(`ver=3.11.99 loc=${join(fakePyenv, '3.11.99')}`);
    expect(found).toContain('Successfully set up CPython (3.11.99)');
    const missing = result.jobs.find((j) => j.key === 'missing');
    expect(missing?.conclusion).toBe('failure');
    expect(missing?.steps.map((s) => s.conclusion)).toEqual(['success', 'failure', 'skipped', 'success']);
    const error = logLines(log('missing')).find((l) => l.startsWith('##[error]'));
    expect(error).toMatch(/^##\[error\]python-version 3\.4 requested; available: 3\.11\.99 \(.*\/3\.11\.99\/bin\/python\), 3\.11\.\d+ \(\/usr\/bin\/python3/);
  });

  it('uploads artifacts by glob and downloads them in a later job', async () => {
    const { result, dirs, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  up:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/upload-artifact@v4
        with:
          name: junit
          path: |
            reports/**/*.xml
            !reports/nested/ignored.xml
      - uses: actions/upload-artifact@v4
        with:
          name: none
          path: nothing/here
      - uses: actions/upload-artifact@v4
        continue-on-error: true
        with:
          name: junit
          path: reports/a.xml
  down:
    needs: up
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4
        with:
          name: junit
          path: got
      - run: find got -type f | sort
      - uses: actions/cache@v4
        id: cache
        with:
          key: k1
          path: ~/.cache
      - run: echo "hit=\${{ steps.cache.outputs.cache-hit }}"
`,
    );
    expect(result.conclusion).toBe('success');
    expect(result.artifacts).toEqual([{ name: 'junit', path: join(dirs.artifactsDir, 'junit'), sizeBytes: 8 }]);
    expect(readFileSync(join(dirs.artifactsDir, 'junit', 'nested', 'b.xml'), 'utf8')).toBe('<b/>');
    expect(existsSync(join(dirs.artifactsDir, 'junit', 'skip.txt'))).toBe(false);
    const up = logLines(log('up'));
    expect(up).toContain('With the provided path, there will be 2 files uploaded');
    expect(up).toContain('##[warning]No files were found with the provided path: nothing/here. No artifacts will be uploaded.');
    expect(up.some((l) => l.startsWith('##[error]Failed to CreateArtifact') && l.includes('409'))).toBe(true);
    const down = logLines(log('down'));
    expect(down).toContain('got/a.xml');
    expect(down).toContain('got/nested/b.xml');
    expect(down).toContain('hit=false');
  });

  it('fails unsupported actions, services, containers and reusable workflows with a clear message', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  other:
    runs-on: ubuntu-latest
    steps:
      - uses: codecov/codecov-action@v4
      - run: echo after
  db:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
    steps:
      - run: echo never
  boxed:
    runs-on: ubuntu-latest
    container: python:3.12
    steps:
      - run: echo never
  reuse:
    uses: ./.github/workflows/reusable.yml
`,
    );
    expect(result.conclusion).toBe('failure');
    const byKey = Object.fromEntries(result.jobs.map((j) => [j.key, j]));
    expect(byKey.other?.steps.map((s) => s.conclusion)).toEqual(['success', 'failure', 'skipped', 'success']);
    expect(logLines(log('other'))).toContain('##[error]action not supported by the local executor: codecov/codecov-action@v4');
    expect(byKey.db?.conclusion).toBe('failure');
    expect(byKey.db?.steps.map((s) => `${s.name}=${s.conclusion}`)).toEqual(['Set up job=failure', 'Run echo never=skipped', 'Complete job=success']);
    expect(logLines(log('db'))).toContain('##[error]services are not supported by the local executor');
    expect(logLines(log('boxed'))).toContain('##[error]container jobs are not supported by the local executor');
    expect(byKey.reuse?.conclusion).toBe('failure');
    expect(byKey.reuse?.annotations[0]?.message).toBe('reusable workflow not found: ./.github/workflows/reusable.yml');
  });

  it('sets up the host node for a satisfiable node-version and names what exists otherwise', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  node:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: '20.x'
      - run: node -e "console.log('node', process.versions.node.split('.')[0])"
  old:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: 14
`,
    );
    expect(logLines(log('node'))).toContain('node 20');
    expect(result.jobs.find((j) => j.key === 'old')?.conclusion).toBe('failure');
    expect(logLines(log('old')).find((l) => l.startsWith('##[error]'))).toMatch(/^##\[error\]node-version 14 requested; available: \d+\.\d+\.\d+ \(\/\S+\/node\)/);
  });

  it('concludes an invalid workflow as startup_failure without jobs', async () => {
    const { result, events } = await runFixtureWorkflow(repo, 'on: push\njobs:\n  a:\n    needs: ghost\n    steps: [{ run: echo }]\n');
    expect(result.conclusion).toBe('startup_failure');
    expect(result.jobs).toEqual([]);
    expect(result.startupError).toMatch(/needs unknown job ghost/);
    expect(events.map((e) => `${e.status}:${e.conclusion ?? ''}`)).toEqual(['requested:', 'completed:startup_failure']);
  });
});
