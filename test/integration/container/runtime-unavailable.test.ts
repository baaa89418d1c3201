import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { DEFAULT_CONTAINER_SETTINGS, detectRuntime } from '../../../src/executor/container/index.js';
import { systemTool } from '../../../src/executor/sandbox/host-commands.js';
import { createFixtureRepo, runFixtureWorkflow, type FixtureRepo } from '../../support/executor-fixtures.js';

// A required runtime that does not answer fails every job at "Set up job" (no daemon needed for this test).
let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({});
});
afterAll(() => repo?.cleanup());

describe('a required container runtime that is missing', () => {
  it('fails the job at Set up job with sandbox_unavailable and runs no step; host mode still refuses services', async () => {
    expect(systemTool('podman'), 'this test needs a machine without podman').toBeNull();
    const workflow = `
on: push
jobs:
  db:
    runs-on: ubuntu-latest
    services:
      redis:
        image: redis:7
    steps:
      - run: echo never-runs
`;
    const run = await runFixtureWorkflow(repo, workflow, { container: { ...DEFAULT_CONTAINER_SETTINGS, runtime: 'podman' } });
    const job = run.result.jobs[0];
    expect(job?.conclusion).toBe('failure');
    expect(job?.infraError).toMatchObject({ reason: 'sandbox_unavailable', stepNumber: 1 });
    expect(run.log('db')).toContain('##[error]The container runtime is required (LOCAL_RUNTIME=podman) but does not answer: podman: CLI not found');
    expect(run.log('db')).not.toMatch(/^\S+ never-runs$/m);
    const host = await runFixtureWorkflow(repo, workflow, { container: { ...DEFAULT_CONTAINER_SETTINGS, runtime: 'host' } });
    expect(host.result.jobs[0]?.infraError?.reason).toBe('unsupported_feature');
    expect(host.log('db')).toContain('##[error]services are not supported by the local executor');
  });

  it('finds the daemon only where DOCKER_HOST says (read by src/config.ts, passed to the runtime CLI, nothing else of the environment)', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgresql://x@127.0.0.1/x', REDIS_URL: 'redis://127.0.0.1:6379', PUBLIC_URL: 'http://ci-replay.test', DOCKER_HOST: 'unix:///nonexistent/ci-replay-docker.sock' });
    expect(config.executor.container.daemonEnv).toEqual({ DOCKER_HOST: 'unix:///nonexistent/ci-replay-docker.sock' });
    const found = await detectRuntime('docker', config.executor.container.daemonEnv, true);
    expect(found.runtime).toBeNull();
    expect(found.reason).toMatch(/^docker: (CLI not found|the daemon does not answer)/);
  });
});
