import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../../../examples/build-demo.js';
import { createCliSandbox, type CliResult, type CliSandbox } from '../../support/cli-process.js';

/** The demo's test job in a Postgres job container with a Postgres service, as numpy/actions example-services do. */
const CONTAINER_JOB = ['  test:', '    runs-on: ubuntu-latest', '    container: python:3.12-bookworm', '    services:', '      postgres:', '        image: postgres:16', ''].join('\n');

describe('ci-replay prepare --dry-run shows the preflight blockers (real process)', () => {
  let sandbox: CliSandbox;
  let dataDir: string;

  const cli = (...args: string[]): Promise<CliResult> => sandbox.cli(args);

  beforeAll(async () => {
    sandbox = await createCliSandbox({ prefix: 'cli' });
    dataDir = sandbox.dir;
    const demo = await buildDemo(join(dataDir, 'examples'));
    const lint = demo.instances.find((instance) => instance.id === 'demo-lint')!;
    const blocked = { ...lint.row, id: 'demo-lint-container', workflow: String(lint.row.workflow).replace('  test:\n    runs-on: ubuntu-latest\n', CONTAINER_JOB) };
    await writeFile(join(dataDir, 'instances.jsonl'), `${JSON.stringify(lint.row)}\n${JSON.stringify(blocked)}\n`);
    expect((await cli('migrate')).code).toBe(0);
    expect((await cli('import', join(dataDir, 'instances.jsonl'))).stdout).toContain('created 2');
  }, 180_000);
  afterAll(async () => {
    await sandbox?.destroy();
  });

  it('lists the blockers in the report and in --json, exits 1, and queues nothing', async () => {
    const text = await cli('prepare', '--instance', 'demo-lint-container', '--baseline', '--dry-run');
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/commit [0-9a-f]{40} \(preview; not pushed\)/);
    expect(text.stdout).toContain('## Preflight (local backend)');
    expect(text.stdout).toContain('| `job_container` | `test` |');
    expect(text.stdout).toContain('| `service_container` | `test` |');
    expect(text.stdout).toContain('not replayable on the local backend: 2 blocker(s)');
    expect(text.stdout).not.toContain('queued as submission');

    const json = await cli('prepare', '--instance', 'demo-lint-container', '--baseline', '--dry-run', '--json');
    const parsed = JSON.parse(json.stdout) as { preflight: { backend: string; blockers: { code: string; job: string; evidence: string }[] }; standardization: { preflight: unknown }; submissionId: null };
    expect(parsed.preflight.backend).toBe('local');
    expect(parsed.preflight.blockers.map((blocker) => [blocker.code, blocker.job, blocker.evidence])).toEqual([
      ['service_container', 'test', 'postgres:16'],
      ['job_container', 'test', 'python:3.12-bookworm'],
    ]);
    expect(parsed.standardization.preflight).toEqual(parsed.preflight);
    expect(parsed.submissionId).toBeNull();

    const clean = await cli('prepare', '--instance', 'demo-lint', '--baseline', '--dry-run');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('Nothing in the workflow is beyond what this backend can run.');
  }, 180_000);
});
