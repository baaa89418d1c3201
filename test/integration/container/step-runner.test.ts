import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainerRuntime, ContainerSettings } from '../../../src/executor/container/index.js';
import { createFixtureRepo, runFixtureWorkflow, type FixtureRepo } from '../../support/executor-fixtures.js';
import { requireContainerRuntime } from '../../support/container-runtime.js';

// The job container's step runner (src/executor/container/step-runner.ts) against `docker exec` per step, with a real
// docker daemon: same environment, user, sandbox, output, exit codes, timeouts.
let repo: FixtureRepo;
let runtime: ContainerRuntime;
let settings: ContainerSettings;

beforeAll(async () => {
  ({ runtime, settings } = await requireContainerRuntime());
  repo = createFixtureRepo({ 'README.md': 'fixture\n' });
});

afterAll(() => repo?.cleanup());

/** The containers of a job (its job container and services, by the name its log gives) the runtime still has. */
const leftOf = (log: string): string => {
  const name = /Job container: (\S+) from/.exec(log)?.[1];
  if (name === undefined) throw new Error('the log names no job container');
  return execFileSync(runtime.bin, ['ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}'], { encoding: 'utf8' }).trim();
};

const WORKFLOW = `
on: push
jobs:
  probe:
    runs-on: ubuntu-latest
    steps:
      - run: |
          env | cut -d= -f1 | sort | tr '\\n' ' ' | sed 's/^/ENV-''KEYS: /'; echo
          echo "HOSTNAME-SET=\${HOSTNAME:+yes} LANG=$LANG HOME-IS-JOB=$(case "$HOME" in "$(dirname "$RUNNER_TEMP")"/home) echo yes;; esac)"
          echo "uid=$(id -u) name=$(id -un) cwd-is-workspace=$([ "$PWD" = "$GITHUB_WORKSPACE" ] && echo yes)"
          grep -E '^(CapEff|NoNewPrivs)' /proc/self/status | tr -s '\\t ' ' '
          echo "interfaces: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' ')"
          echo "to stderr" >&2
      - run: exit 3
        continue-on-error: true
      - run: sleep 100 & sleep 100
        timeout-minutes: 0.03
      - if: always()
        run: |
          echo "sleeps left: $(ps -eo comm= | grep -c '^sleep$' || true)"
`;

const keysOf = (log: string): string => /Z ENV-KEYS: (.*)$/m.exec(log)?.[1]?.trim() ?? '';

describe('the step runner of job containers', () => {
  let runnerLog = '';

  it('starts steps in the container as an exec would: environment, uid, no capabilities, no network, stderr, exit codes, timeouts', async () => {
    const run = await runFixtureWorkflow(repo, WORKFLOW, { container: settings });
    runnerLog = run.log('probe');
    expect(runnerLog).toContain('started by the step runner in the container');
    expect(runnerLog).toContain('HOSTNAME-SET=yes LANG=C.UTF-8 HOME-IS-JOB=yes');
    expect(runnerLog).toMatch(/uid=6\d{4} name=runner cwd-is-workspace=yes/);
    expect(runnerLog).toContain('CapEff: 0000000000000000');
    expect(runnerLog).toContain('NoNewPrivs: 1');
    expect(runnerLog).toContain('interfaces: lo ');
    expect(runnerLog).toContain('to stderr');
    expect(runnerLog).toContain('##[error]Process completed with exit code 3.');
    expect(runnerLog).toContain("has timed out after 0.03 minutes");
    expect(runnerLog).toContain('sleeps left: 0');
    expect(keysOf(runnerLog)).toContain('HOSTNAME');
    expect(keysOf(runnerLog)).not.toMatch(/UV_THREADPOOL|NODE_/);
    expect(leftOf(runnerLog)).toBe('');
  });

  it('falls back to one docker exec per step where the runner cannot start, with the same environment and results', async () => {
    // /bin/false as the bound Node.js: the runner exits at once and the container keeps running `tail`
    const run = await runFixtureWorkflow(repo, WORKFLOW, { container: { ...settings, hostNode: '/bin/false' } });
    const log = run.log('probe');
    expect(log).toContain('each through `docker exec`');
    expect(keysOf(log)).toBe(keysOf(runnerLog));
    // (`sleep 100 &` outlives a timed-out `docker exec`: reparented to PID 1, it is not a step process for the watchdog)
    for (const line of ['HOSTNAME-SET=yes LANG=C.UTF-8 HOME-IS-JOB=yes', 'CapEff: 0000000000000000', 'NoNewPrivs: 1', 'interfaces: lo ', 'to stderr', 'Process completed with exit code 3.', 'has timed out after 0.03 minutes']) {
      expect(log).toContain(line);
    }
  });

  it('relays a step\'s output to the end: what a process that left the step\'s group (setsid) writes after the step exits', async () => {
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  late:
    runs-on: ubuntu-latest
    steps:
      - run: |
          setsid sh -c 'sleep 0.4; echo late-line' &
          echo first-line
`, { container: settings });
    const log = run.log('late');
    expect(log).toContain('started by the step runner in the container');
    expect(log).toMatch(/Z first-line\n(?:.*\n)*?.*Z late-line\n/);
    expect(leftOf(log)).toBe('');
  });

  it('runs the later steps through docker exec when a step kills the runner', async () => {
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  rogue:
    runs-on: ubuntu-latest
    steps:
      - run: kill -9 $PPID; sleep 1
      - if: always()
        run: echo "still running as $(id -un)"
`, { container: settings });
    const log = run.log('rogue');
    expect(run.result.conclusion).toBe('failure');
    expect(log).toContain('the step runner of the job container stopped while the step ran');
    expect(log).toContain('still running as runner');
    expect(leftOf(log)).toBe('');
  });
});
