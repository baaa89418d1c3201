import { afterAll, describe, expect, it } from 'vitest';
import { localExecutorCapabilities } from '../../../src/backends/local/capabilities.js';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/executor/index.js';
import { probeSandbox } from '../../../src/executor/sandbox/index.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const workflow = {
  path: '.github/workflows/ci.yml',
  text: [
    'name: ci',
    'on: push',
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '      - name: System packages',
    '        run: sudo apt-get install -y xvfb',
    '      - run: xvfb-run make test',
  ].join('\n'),
};

const preflightInput = { submissionId: 'sub-1', instance: { id: 'i', repoOwner: 'o', repoName: 'n', upstreamUrl: '/nowhere', shaFail: 'a'.repeat(40) }, workflow, callees: [] };

/**
 * The local backend blocks `sudo` only where its steps really cannot become root: with the step sandbox (this host
 * can create it: the worker is root here). With EXECUTOR_SANDBOX=off steps run as the worker user, and the preflight
 * leaves sudo alone.
 */
describe('the local backend\'s preflight and root', () => {
  const envs: TestEnv[] = [];
  afterAll(async () => {
    for (const env of envs) await env.cleanup();
  });

  it('the capabilities follow the sandbox this worker will use', async () => {
    expect((await probeSandbox()).available).toBe(true);
    expect((await localExecutorCapabilities({ ...DEFAULT_SANDBOX_SETTINGS, mode: 'namespaces' })).root).toBe(false);
    expect((await localExecutorCapabilities({ ...DEFAULT_SANDBOX_SETTINGS, mode: 'auto' })).root).toBe(false);
    expect((await localExecutorCapabilities({ ...DEFAULT_SANDBOX_SETTINGS, mode: 'off' })).root).toBe(true);
  });

  it('with the sandbox, a sudo step is a root_required blocker; with EXECUTOR_SANDBOX=off it is none', async () => {
    const sandboxed = await createTestEnv({ EXECUTOR_SANDBOX: 'auto' });
    envs.push(sandboxed);
    expect(await sandboxed.deps.backend.preflight(preflightInput)).toEqual([
      expect.objectContaining({ code: 'root_required', job: 'test', step: 'System packages', evidence: 'sudo apt-get install -y xvfb', message: expect.stringContaining('runs steps as an unprivileged user') }),
    ]);
    const unsandboxed = await createTestEnv({ EXECUTOR_SANDBOX: 'off' });
    envs.push(unsandboxed);
    expect(await unsandboxed.deps.backend.preflight(preflightInput)).toEqual([]);
  });
});
