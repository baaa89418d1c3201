import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../../examples/build-demo.js';
import { projectRoot } from '../../../src/paths.js';
import { createCliSandbox, type CliResult, type CliSandbox } from '../../support/cli-process.js';
import { serviceEntry } from '../../support/service-entry.js';

const exec = promisify(execFile);

describe('the ci-replay CLI (real processes)', () => {
  let sandbox: CliSandbox;
  let dataDir: string;
  let demo: Demo;
  let env: Record<string, string>;
  const cli = (...args: string[]): Promise<CliResult> => sandbox.cli(args);

  beforeAll(async () => {
    // Jobs on the host (the sandbox's default), as the other CLI tests: container mode has its own tests.
    sandbox = await createCliSandbox({ prefix: 'cli' });
    ({ dir: dataDir, env } = sandbox);
    demo = await buildDemo(join(dataDir, 'examples'));
  });
  afterAll(() => sandbox?.destroy());

  it('migrates, imports, mints a token, prepares and runs a patch locally', { timeout: 300_000 }, async () => {
    const migrated = await cli('migrate');
    expect(migrated.stdout).toMatch(/applied \d+ migration/);
    expect((await cli('migrate')).stdout).toContain('up to date');

    const file = join(dataDir, 'examples', 'instances.jsonl');
    await writeFile(join(dataDir, 'bad.jsonl'), `${(await readFile(file, 'utf8')).split('\n')[0]}\n{"id": 5}\n`);
    const imported = await cli('import', file);
    expect(imported.stdout).toContain('created 4, updated 0, unchanged 0, failed 0');
    const refused = await cli('import', join(dataDir, 'bad.jsonl'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('nothing was imported: 1 of 2 row(s) were rejected');
    const partial = await cli('import', join(dataDir, 'bad.jsonl'), '--skip-invalid');
    expect(partial.stdout).toContain('unchanged 1, failed 1');
    expect(partial.stderr).toMatch(/line 2 \(id 5\): invalid_row/);

    const parquet = join(dataDir, 'rows.parquet');
    const first = JSON.parse((await readFile(file, 'utf8')).split('\n')[0]!) as Record<string, unknown>;
    const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
    await writeFile(parquet, Buffer.from(parquetWriteBuffer({ columnData: Object.keys(first).map((name) => ({ name, data: [name === 'id' ? 'from-parquet' : text(first[name])], type: 'STRING' as const })) })));
    const fromParquet = await cli('import', parquet);
    expect(fromParquet.stdout).toContain('created 1, updated 0, unchanged 0, failed 0');

    const token = await cli('token', 'create', '--role', 'operator', '--name', 'ci');
    expect(token.stdout.trim()).toMatch(/^cirp_[A-Za-z0-9_-]{43}$/);
    expect(token.stderr).toContain('shown only once');
    const badRole = await cli('token', 'create', '--role', 'admin', '--name', 'x');
    expect(badRole.code).not.toBe(0);
    expect(badRole.stderr).toContain('must be one of operator, submitter');

    const patchFile = join(dataDir, 'fix.patch');
    await writeFile(patchFile, demo.instances[0]!.patch);
    const prepared = await cli('prepare', '--instance', 'demo-lint', '--patch', patchFile, '--dry-run');
    expect(prepared.code).toBe(0);
    expect(prepared.stdout).toMatch(/commit [0-9a-f]{40} \(preview; not pushed\)/);
    expect(prepared.stdout).not.toContain('queued as submission');
    expect(prepared.stdout).toContain('M\tcalc/core.py');
    expect(prepared.stdout).toContain('M\t.github/workflows/ci.yml');
    expect(prepared.stdout).toContain('publish');

    const submitted = await cli('submit', '--instance', 'demo-lint', '--patch', patchFile, '--idempotency-key', 'cli-1');
    expect(submitted.stdout).toMatch(/^queued submission [0-9a-f-]{36} \(state queued\)/);
    expect((await cli('submit', '--instance', 'demo-lint', '--patch', patchFile, '--idempotency-key', 'cli-1')).stdout).toMatch(/^already queued as submission/);
    const doctor = await cli('doctor');
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toMatch(/ok\s+postgres/);
    expect(doctor.stdout).toMatch(/ok\s+migrations/);
    expect(doctor.stdout).toMatch(/ok\s+git\s+git version/);
    expect(doctor.stdout).toMatch(/ok\s+step sandbox\s+namespaces: the worker is root and can create pid, mount, ipc, uts and network namespaces; network /);

    const queued = await cli('prepare', '--instance', 'demo-lint', '--patch', patchFile);
    expect(queued.stdout).toMatch(/queued as submission [0-9a-f-]{36} \(state queued\)/);

    const baseline = await cli('run-local', '--instance', 'demo-lint', '--baseline');
    expect(baseline.code).toBe(1);
    expect(baseline.stderr).toContain('lint: failure');
    expect(baseline.stdout).toMatch(/lint\s+failure\s+Lint with flake8\s+Code Linting/);
    expect(baseline.stdout).toContain('verdict: failed');

    const fixed = await cli('run-local', '--instance', 'demo-lint', '--patch', patchFile);
    expect(fixed.stdout).toContain('verdict: passed');
    expect(fixed.code).toBe(0);
  });

  it('classifies a log file from disk', async () => {
    const labels = JSON.parse(await readFile(join(projectRoot(), 'test', 'fixtures', 'logs', 'labels.json'), 'utf8')) as Record<string, { labels: string[] }>;
    const entry = labels['code-linting/flake8-unused-import.log']!;
    const file = join(projectRoot(), 'test', 'fixtures', 'logs', 'code-linting', 'flake8-unused-import.log');
    const text = await cli('classify', file);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Code Linting');
    const json = JSON.parse((await cli('classify', file, '--json')).stdout);
    expect(json.labels.map((label: { type: string }) => label.type).sort()).toEqual([...entry.labels].sort());
    const suite = join(dataDir, 'suite.log');
    await writeFile(suite, ['Running the suite', 'test_parse ... FAIL', 'test_render ... ok', 'some tests did not pass', 'Process completed with exit code 1.'].join('\n'));
    expect((await cli('classify', suite)).stdout).toContain('no failure found');
    const learned = await cli('classify', suite, '--conclusion', 'failure');
    expect(learned.stdout).toMatch(/Test Failure \(learned, p=0\.\d+\)/);
    expect(learned.stdout).not.toContain('(learned-fallback)');
    const missing = await cli('classify', join(dataDir, 'nope.log'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no log file at');
  });

  it('fails fast on bad configuration, naming the variable', async () => {
    const result = await exec(process.execPath, [...serviceEntry(), 'migrate'], { env: { ...env, DATABASE_URL: 'mysql://nope', CI_BACKEND: 'cloud' } }).then(
      () => ({ stderr: '', code: 0 }),
      (error: { stderr: string; code: number }) => error,
    );
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('DATABASE_URL: must be a postgresql:// URL');
    expect(result.stderr).toContain('CI_BACKEND');
  });
});
