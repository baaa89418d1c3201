import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localExecutorCapabilities } from '../../../src/backends/local/capabilities.js';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/executor/index.js';
import type { ContainerRuntime, ContainerSettings } from '../../../src/executor/container/index.js';
import { createFixtureRepo, runFixtureWorkflow, type FixtureRepo } from '../../support/executor-fixtures.js';
import { requireContainerRuntime } from '../../support/container-runtime.js';

// Jobs in containers with a real docker daemon (dockerd --bridge=none, images built from Debian packages).
let repo: FixtureRepo;
let runtime: ContainerRuntime;
let settings: ContainerSettings;
let redisImage: string;

beforeAll(async () => {
  ({ runtime, settings, redisImage } = await requireContainerRuntime());
  repo = createFixtureRepo({
    'calc.py': 'def add(a, b):\n    return a + b\n',
    'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  });
});

afterAll(() => repo?.cleanup());

const containerNameOf = (log: string): string => /Job container: (\S+) from/.exec(log)?.[1] ?? '';
const exists = (name: string): boolean => {
  try {
    execFileSync(runtime.bin, ['inspect', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('jobs in containers', () => {
  it('runs a job in the runner image as an unprivileged user, with checkout, GITHUB_ENV and the Python tools, and removes the container', async () => {
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: |
          cat /etc/ci-replay-image
          echo "uid=$(id -u) user=$(id -un)"
          echo "GREETING=hello from the container" >> "$GITHUB_ENV"
      - run: |
          echo "$GREETING"
          python -m pytest -q tests
          flake8 --version > /dev/null && black --version > /dev/null && isort --version > /dev/null && mypy --version > /dev/null && echo tools-ok
          git -C "$GITHUB_WORKSPACE" log --oneline | head -1
`, { container: settings });
    const log = run.log('test');
    expect(run.result.conclusion, log).toBe('success');
    expect(log).toContain('Linux (container: docker)');
    expect(log).toContain('built by ci-replay images build');
    expect(log).toMatch(/uid=6\d{4} user=runner/);
    expect(log).toContain('hello from the container');
    expect(log).toContain('1 passed');
    expect(log).toContain('tools-ok');
    expect(log).toContain('shell: /usr/bin/bash -e {0}');
    expect(log).toContain('fixture files');
    expect(exists(containerNameOf(log))).toBe(false);
  });

  it('refuses a step the worker environment, host services, and writes outside its workspace', async () => {
    process.env.CI_REPLAY_CONTAINER_PROBE = 'worker-secret-value';
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  probe:
    runs-on: ubuntu-latest
    steps:
      - run: |
          if env | grep -q worker-secret-value; then echo BREACH""-ENV; fi
          if grep -qs worker-secret-value /proc/*/environ; then echo BREACH""-PROC; fi
          if timeout 5 bash -c 'echo > /dev/tcp/127.0.0.1/5432' 2>/dev/null; then echo BREACH""-POSTGRES; else echo postgres-refused; fi
          if timeout 5 bash -c 'echo > /dev/tcp/127.0.0.1/6379' 2>/dev/null; then echo BREACH""-REDIS; else echo redis-refused; fi
          for f in /etc/ci-replay-x /usr/ci-replay-x /root/ci-replay-x /ci-replay-x; do if touch "$f" 2>/dev/null; then echo "BREACH""-WRITE $f"; fi; done
          touch "$GITHUB_WORKSPACE/ok" /tmp/ok "$HOME/ok" && echo own-dirs-writable
          if curl -sS --max-time 10 http://deb.debian.org/ > /dev/null; then echo BREACH""-NETWORK; fi
          echo probe-done
`, { container: settings });
    delete process.env.CI_REPLAY_CONTAINER_PROBE;
    const log = run.log('probe');
    expect(run.result.conclusion, log).toBe('success');
    expect(log).toContain('probe-done');
    expect(log).toContain('postgres-refused');
    expect(log).toContain('redis-refused');
    expect(log).toContain('own-dirs-writable');
    expect(log).toMatch(/Could not resolve host/);
    expect(log).not.toContain('BREACH-');
  });

  it('runs a container: job in its image and a Redis service reached on localhost after its health check', async () => {
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  boxed:
    runs-on: ubuntu-latest
    container:
      image: ${redisImage}
      env:
        BOXED: yes-boxed
    steps:
      - run: redis-server --version && echo "boxed=$BOXED"
  with-redis:
    runs-on: ubuntu-latest
    services:
      redis:
        image: redis:7
        ports: ['6379:6379']
        options: >-
          --health-cmd "redis-cli ping"
          --health-interval 500ms
          --health-retries 20
    steps:
      - run: |
          echo "port=\${{ job.services.redis.ports['6379'] }}"
          exec 3<>/dev/tcp/localhost/\${{ job.services.redis.ports['6379'] }}
          printf 'SET k v\\r\\nGET k\\r\\n' >&3
          read -r -t 10 a <&3; read -r -t 10 b <&3; read -r -t 10 c <&3
          echo "reply: $a $c"
          exec 4<>/dev/tcp/redis/6379 && echo reached-by-name
`, { container: settings });
    const boxed = run.log('boxed');
    expect(run.result.jobs.find((j) => j.name === 'boxed')?.conclusion, boxed).toBe('success');
    expect(boxed).toContain('Redis server v=');
    expect(boxed).toContain('boxed=yes-boxed');
    expect(boxed).toContain('(container:)');
    const svc = run.log('with-redis');
    expect(run.result.jobs.find((j) => j.name === 'with-redis')?.conclusion, svc).toBe('success');
    expect(svc).toContain('Service redis:');
    expect(svc).toContain('is healthy');
    expect(svc).toContain('port=6379');
    expect(svc).toMatch(/reply: \+OK\s*v/);
    expect(svc).toContain('reached-by-name');
  });

  it('kills a step over its memory limit and reports out_of_memory', async () => {
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  hog:
    runs-on: ubuntu-latest
    steps:
      - run: python3 -c "import time; data = b'x' * (300 * 1024 * 1024); time.sleep(30)"
      - if: always()
        run: echo still-runs-always
`, { container: settings, sandbox: { ...DEFAULT_SANDBOX_SETTINGS, limits: { ...DEFAULT_SANDBOX_SETTINGS.limits, memoryMb: 96 } } });
    const log = run.log('hog');
    const job = run.result.jobs[0];
    expect(job?.conclusion, log).toBe('failure');
    expect(job?.infraError?.reason).toBe('out_of_memory');
    expect(log).toContain('##[error]The step exceeded the memory limit (EXECUTOR_STEP_MEMORY_MB=96)');
    expect(log).toContain('still-runs-always');
  });

  it('widens the preflight capabilities: services, container jobs, no root unless LOCAL_CONTAINER_USER=root', async () => {
    const caps = await localExecutorCapabilities(DEFAULT_SANDBOX_SETTINGS, undefined, settings);
    expect(caps).toMatchObject({ services: true, jobContainers: true, root: false });
    expect((await localExecutorCapabilities(DEFAULT_SANDBOX_SETTINGS, undefined, { ...settings, user: 'root' })).root).toBe(true);
  });

  it('fails the job at Set up job when an image is missing and cannot be pulled (no registry)', async () => {
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  missing:
    runs-on: ubuntu-latest
    container: example.invalid/no-such-image:1
    steps:
      - run: echo never
`, { container: settings });
    const log = run.log('missing');
    const job = run.result.jobs[0];
    expect(job?.conclusion).toBe('failure');
    expect(job?.infraError?.reason).toBe('job_setup_failed');
    expect(log).toContain('##[error]The job container could not be set up: image example.invalid/no-such-image:1 is not available locally and cannot pull');
    expect(log).not.toContain('never\n');
  });
});
