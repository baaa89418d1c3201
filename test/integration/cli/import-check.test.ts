import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../../../examples/build-demo.js';
import { runGit } from '../../../src/git/run-git.js';
import { createCliSandbox, type CliResult, type CliSandbox } from '../../support/cli-process.js';
import { appendCommits } from '../../support/git-fixtures.js';

describe('ci-replay import (owner map, rejected rows, --check), instances check and run-local patch_failed (real processes)', () => {
  let sandbox: CliSandbox;
  let dir: string;
  let forkSha = '';

  const cli = (...args: string[]): Promise<CliResult> => sandbox.cli(args);

  beforeAll(async () => {
    sandbox = await createCliSandbox({ prefix: 'cli-import' });
    dir = sandbox.dir;
    const demo = await buildDemo(join(dir, 'examples'));
    const upstream = join(dir, 'srv', 'upstream-org', 'calc.git');
    const fork = join(dir, 'srv', 'fork-org', 'calc.git');
    await runGit(['clone', '--quiet', '--mirror', demo.upstreamPath, upstream]);
    await runGit(['clone', '--quiet', '--mirror', demo.upstreamPath, fork]);
    const lint = demo.instances.find((instance) => instance.id === 'demo-lint')!.row;
    [forkSha = ''] = await appendCommits(fork, [{ files: { 'FORK.md': 'fork only\n' } }], 'fork-fix', String(lint.sha_fail));
    const base = { ...lint, upstream_url: upstream };
    const rows = [
      { ...base, id: 'up', repo_owner: 'upstream-org' },
      { ...base, id: 'from-fork', repo_owner: 'fork-org', sha_fail: forkSha },
      Object.fromEntries(Object.entries(base).filter(([key]) => key !== 'id')),
      { ...base, id: 'bad-sha', repo_owner: 'upstream-org', sha_fail: 'not-a-sha' },
    ];
    await writeFile(join(dir, 'rows.jsonl'), rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
    await writeFile(join(dir, 'owners.json'), JSON.stringify({ 'fork-org/calc': 'upstream-org' }));
    await writeFile(join(dir, 'bad.patch'), ['diff --git a/src/absent.py b/src/absent.py', '--- a/src/absent.py', '+++ b/src/absent.py', '@@ -1 +1 @@', '-x = 1', '+x = 2', ''].join('\n'));
    expect((await cli('migrate')).code).toBe(0);
  }, 180_000);

  afterAll(async () => {
    await sandbox?.destroy();
  });

  it('imports nothing from a file with rejected rows and lists each with its line; --skip-invalid --owner-map --check imports and checks the rest', async () => {
    const refused = await cli('import', join(dir, 'rows.jsonl'), '--owner-map', join(dir, 'owners.json'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 3: invalid_row: id is required');
    expect(refused.stderr).toContain('line 4 (id bad-sha): invalid_row: sha_fail: must be a commit SHA (hex)');
    expect(refused.stderr).toContain('nothing was imported: 2 of 4 row(s) were rejected');

    const imported = await cli('import', join(dir, 'rows.jsonl'), '--owner-map', join(dir, 'owners.json'), '--skip-invalid', '--check', '--backend', 'local');
    expect(imported.stdout).toContain('created 2, updated 0, unchanged 0, failed 2');
    expect(imported.stdout).toMatch(/from-fork\s+ok \(fork\)\s+ok \((mirror|branch)\)\s+ok\s+ok\s+ok\s+ok/);
    expect(imported.stdout).toContain('2 instance(s): 2 ok, 0 broken, 0 unreplayable, 0 unreachable');
    expect(imported.code).toBe(0);

    const checked = await cli('instances', 'check', '--repo', 'upstream-org/calc', '--json');
    const parsed = JSON.parse(checked.stdout) as { summary: { total: number }; results: { instanceId: string; commits: { shaFail: { source: string } } }[] };
    expect(parsed.summary.total).toBe(2);
    expect(parsed.results.find((result) => result.instanceId === 'from-fork')?.commits.shaFail.source).toBe('mirror');
  }, 300_000);

  it('run-local with a patch that does not apply prints the patch_failed outcome and git\'s reason', async () => {
    const result = await cli('run-local', '--instance', 'up', '--patch', join(dir, 'bad.patch'));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('no job ran: the submission ended patch_failed before anything was run');
    expect(result.stdout).toMatch(/verdict: invalid — outcome patch_failed( \([a-z_]+\))?: the patch does not apply at sha_fail; nothing was pushed/);
    expect(result.stdout).toContain('src/absent.py');
  }, 300_000);
});
