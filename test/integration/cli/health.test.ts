import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, type CliResult, type CliSandbox } from '../../support/cli-process.js';

/** `ci-replay health`, `health history`, `quarantine`, `restore` as an operator runs them (real process, own database). */
describe('ci-replay health / quarantine / restore', () => {
  let sandbox: CliSandbox;
  let dataDir = '';

  const cli = (args: string[]): Promise<CliResult> => sandbox.cli(args);

  beforeAll(async () => {
    sandbox = await createCliSandbox({ prefix: 'health' });
    dataDir = sandbox.dir;
    expect((await cli(['migrate'])).code).toBe(0);
    const row = (id: string) => ({
      id,
      repo_owner: 'octo',
      repo_name: 'calc',
      workflow_path: '.github/workflows/ci.yml',
      workflow: 'name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: exit 1\n',
      sha_fail: 'a'.repeat(40),
      sha_success: 'b'.repeat(40),
      diff: 'diff --git a/x b/x\n',
      error_type: ['Test Failure'],
    });
    await writeFile(join(dataDir, 'rows.jsonl'), `${JSON.stringify(row('calc-1'))}\n${JSON.stringify(row('calc-2'))}\n`);
    expect((await cli(['import', join(dataDir, 'rows.jsonl')])).stdout).toContain('created 2');
  }, 300_000);

  afterAll(async () => {
    await sandbox?.destroy();
  });

  it('quarantines and restores by hand with a reason, keeps the history, and the summary says why', async () => {
    const quarantined = await cli(['quarantine', 'calc-1', '--reason', 'upstream repository archived']);
    expect(quarantined).toMatchObject({ code: 0, stdout: 'calc-1: active → quarantined (upstream repository archived)\n' });
    const again = await cli(['quarantine', 'calc-1', '--reason', 'again']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already_quarantined');

    const summary = JSON.parse((await cli(['health', '--json'])).stdout);
    expect(summary).toMatchObject({
      total: 2,
      byLifecycle: { active: 1, suspect: 0, quarantined: 1 },
      byHealth: { unknown: 2 },
      nonActive: [{ instanceId: 'calc-1', lifecycle: 'quarantined', reason: 'upstream repository archived' }],
      oldestCheck: { instanceId: 'calc-1', checkedAt: null, neverChecked: 2 },
    });
    expect(summary.changes.transitions).toEqual([expect.objectContaining({ instanceId: 'calc-1', from: 'active', to: 'quarantined', actor: 'cli' })]);
    const text = (await cli(['health'])).stdout;
    expect(text).toContain('lifecycle: active 1, suspect 0, quarantined 1');
    expect(text).toContain('calc-1: quarantined, unknown — upstream repository archived');

    expect((await cli(['restore', 'calc-1', '--reason', 'mirror restored'])).stdout).toBe('calc-1: quarantined → active (mirror restored)\n');
    const history = JSON.parse((await cli(['health', 'history', 'calc-1', '--json'])).stdout);
    expect(history).toMatchObject({ lifecycle: 'active', transitions: [{ from: 'quarantined', to: 'active', reason: 'mirror restored', actor: 'cli' }, { from: 'active', to: 'quarantined' }] });
  }, 300_000);
});
