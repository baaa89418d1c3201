import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../../examples/build-demo.js';
import { createCliSandbox, type CliResult, type CliSandbox } from '../../support/cli-process.js';

const CONFTEST = ['diff --git a/conftest.py b/conftest.py', 'new file mode 100644', '--- /dev/null', '+++ b/conftest.py', '@@ -0,0 +1 @@', '+collect_ignore = ["tests"]', ''].join('\n');

describe('ci-replay dataset policy and prepare --dry-run (real processes)', () => {
  let sandbox: CliSandbox;
  let dataDir: string;
  let demo: Demo;

  const cli = (...args: string[]): Promise<CliResult> => sandbox.cli(args);

  beforeAll(async () => {
    sandbox = await createCliSandbox({ prefix: 'cli' });
    dataDir = sandbox.dir;
    demo = await buildDemo(join(dataDir, 'examples'));
    expect((await cli('migrate')).code).toBe(0);
    expect((await cli('import', join(dataDir, 'examples', 'instances.jsonl'))).stdout).toContain('created 4');
  }, 180_000);
  afterAll(async () => {
    await sandbox?.destroy();
  });

  it('prepare --dry-run shows the reverted root conftest.py and why, in text and JSON', { timeout: 180_000 }, async () => {
    const patchFile = join(dataDir, 'forged.patch');
    await writeFile(patchFile, `${demo.instances[0]!.patch}${CONFTEST}`);
    const prepared = await cli('prepare', '--instance', 'demo-lint', '--patch', patchFile, '--dry-run');
    expect(prepared.code).toBe(0);
    expect(prepared.stdout).toContain('Reverted (protected paths): conftest.py');
    expect(prepared.stdout).toContain('## Protected paths');
    expect(prepared.stdout).toContain('| `conftest.py` | pytest configuration (conftest.py): the ground truth does not edit this file |');
    expect(prepared.stdout).not.toContain('A\tconftest.py');
    const json = JSON.parse((await cli('prepare', '--instance', 'demo-lint', '--patch', patchFile, '--dry-run', '--json')).stdout);
    expect(json.revertedFiles).toEqual(['conftest.py']);
    expect(json.standardization.protection).toEqual({ policy: 'ground-truth', reverted: [{ path: 'conftest.py', why: 'pytest configuration (conftest.py): the ground truth does not edit this file' }], kept: [] });
  });

  it('dataset policy shows the default, sets protection and paths, and refuses bad values', { timeout: 180_000 }, async () => {
    const shown = await cli('dataset', 'policy', 'ci-repair-bench');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe('dataset ci-repair-bench: protection ground-truth (default; none stored)\nprotected paths: (none)\n');
    const set = await cli('dataset', 'policy', 'ci-repair-bench', '--protection', 'paths', '--paths', 'conftest.py, data/**');
    expect(set.stdout).toBe('dataset ci-repair-bench: protection paths\nprotected paths: conftest.py, data/**\n');
    expect(JSON.parse((await cli('dataset', 'policy', 'ci-repair-bench', '--json')).stdout)).toEqual({ dataset: 'ci-repair-bench', protection: 'paths', protectedPaths: ['conftest.py', 'data/**'], source: 'stored' });
    const cleared = await cli('dataset', 'policy', 'ci-repair-bench', '--paths', '');
    expect(cleared.stdout).toContain('protected paths: (none)');
    expect(cleared.stdout).toContain('protection paths');

    const badProtection = await cli('dataset', 'policy', 'ci-repair-bench', '--protection', 'strict');
    expect(badProtection.code).toBe(2);
    expect(badProtection.stderr).toContain('--protection must be one of ground-truth, paths, off');
    const badPath = await cli('dataset', 'policy', 'ci-repair-bench', '--paths', '../x/**');
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toContain('error (invalid_protected_path)');
    const unknown = await cli('dataset', 'policy', 'no-such-dataset');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('dataset no-such-dataset does not exist');
  });
});
