import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../../src/executor/index.js';
import { projectRoot } from '../../../src/paths.js';
import type { ExecutorChildInput, ExecutorChildOutput } from '../../support/executor-child.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines } from '../../support/executor-fixtures.js';

// The executor runs in a separate worker process (test/support/executor-child.ts) whose environment holds a
// recognizable fake secret in DATABASE_URL and REDIS_URL, as a real worker's /proc/<pid>/environ does.
const FAKE_SECRET = `ci-replay-fake-secret-${process.pid}`;
const exec = promisify(execFile);

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({ 'src/app.py': 'print("hi")\n' });
});
afterAll(() => repo.cleanup());

const settings = (over: Partial<SandboxSettings> = {}): SandboxSettings => ({ ...DEFAULT_SANDBOX_SETTINGS, mode: 'namespaces', ...over });

/**
 * Runs a workflow in a separate worker process whose environment has the fake DATABASE_URL and REDIS_URL; with
 * `asUid`, that worker is not root (it runs as that uid, on a copy of the fixture repository it owns); with
 * `withoutUnshare`, it runs where /usr/bin/unshare is hidden (a host that cannot create namespaces).
 */
async function runInWorker(workflow: string, sandbox: SandboxSettings, { asUid, withoutUnshare = false }: { asUid?: number; withoutUnshare?: boolean } = {}): Promise<ExecutorChildOutput> {
  const own = asUid === undefined ? repo : createFixtureRepo({ 'src/app.py': 'print("hi")\n' });
  if (asUid !== undefined) await exec('chown', ['-R', `${asUid}:${asUid}`, own.root]);
  const input: ExecutorChildInput = { repo: { root: own.root, gitDir: own.gitDir, sha: own.sha }, workflow, options: { sandbox } };
  const command = [process.execPath, '--import', 'tsx', join(projectRoot(), 'test', 'support', 'executor-child.ts'), JSON.stringify(input)];
  const user = asUid === undefined ? command : ['setpriv', `--reuid=${asUid}`, `--regid=${asUid}`, '--clear-groups', ...command];
  const hidden = withoutUnshare ? ['unshare', '--mount', '--propagation', 'private', '--', 'bash', '-c', 'mount --bind /dev/null /usr/bin/unshare && exec "$@"', 'worker', ...user] : user;
  const [file = '', ...args] = hidden;
  const { stdout } = await exec(file, args, {
    cwd: projectRoot(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DATABASE_URL: `postgresql://ci:${FAKE_SECRET}@127.0.0.1:5432/ci_replay`, REDIS_URL: `redis://:${FAKE_SECRET}@127.0.0.1:6379` },
    maxBuffer: 16 * 1024 * 1024,
  }).finally(() => {
    if (own !== repo) own.cleanup();
  });
  return JSON.parse(stdout) as ExecutorChildOutput;
}

describe('the step sandbox: the worker process and the host', () => {
  it("cannot read the worker's environment through /proc (which it can without the sandbox)", async () => {
    const workflow = `
on: push
jobs:
  environ:
    runs-on: ubuntu-latest
    steps:
      - env:
          OWN_MARKER: visible-own-marker
        run: |
          all=$(for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' 2>/dev/null < "$f" || true; done)
          echo "own-marker-lines=$(printf '%s\\n' "$all" | grep -c visible-own-marker)"
          echo "secret-lines=$(printf '%s\\n' "$all" | grep -c "$(printf '%s' 'ci-replay-fake-secret-')" || true)"
          echo "database-url-lines=$(printf '%s\\n' "$all" | grep -c '^DATABASE_URL=' || true)"
`;
    const count = (output: ExecutorChildOutput, key: string): number =>
      Number(logLines(output.logs.environ ?? '').find((l) => l.startsWith(`${key}=`))?.split('=')[1] ?? Number.NaN);
    const exposed = await runInWorker(workflow, settings({ mode: 'off' }));
    expect(exposed.conclusion, exposed.logs.environ).toBe('success');
    expect(count(exposed, 'secret-lines')).toBeGreaterThan(0);
    const sandboxed = await runInWorker(workflow, settings({ network: 'none' }));
    expect(sandboxed.conclusion, sandboxed.logs.environ).toBe('success');
    expect(count(sandboxed, 'own-marker-lines')).toBeGreaterThan(0);
    expect(count(sandboxed, 'secret-lines')).toBe(0);
    expect(count(sandboxed, 'database-url-lines')).toBe(0);
  });

  it('without namespaces: auto runs the steps on the host and says so, namespaces fails the job at "Set up job"', async () => {
    const workflow = `
on: push
jobs:
  environ:
    runs-on: ubuntu-latest
    steps:
      - run: echo "uid=$(id -u)"
`;
    const auto = await runInWorker(workflow, settings({ mode: 'auto' }), { withoutUnshare: true });
    const autoLines = logLines(auto.logs.environ ?? '');
    expect(auto.conclusion, autoLines.join('\n')).toBe('success');
    expect(autoLines).toContain('Step sandbox: off (EXECUTOR_SANDBOX=auto and unshare not found (util-linux and bash are needed)); steps run on the host as the worker user');
    expect(autoLines).toContain('uid=0');
    const required = await runInWorker(workflow, settings({ mode: 'namespaces' }), { withoutUnshare: true });
    const requiredLines = logLines(required.logs.environ ?? '');
    expect(required.conclusion).toBe('failure');
    expect(requiredLines).toContain(
      '##[error]The step sandbox is required (EXECUTOR_SANDBOX=namespaces) but this host cannot provide it: unshare not found (util-linux and bash are needed)',
    );
    expect(requiredLines.some((l) => l.startsWith('uid='))).toBe(false);
  });

  it('a worker that is not root gets the user-namespace sandbox: same isolation, the worker uid without capabilities, no egress', async () => {
    const workflow = `
on: push
jobs:
  environ:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: |
          all=$(for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' 2>/dev/null < "$f" || true; done)
          echo "secret-lines=$(printf '%s\\n' "$all" | grep -c "$(printf '%s' 'ci-replay-fake-secret-')" || true)"
          echo "capabilities=$(grep CapEff /proc/self/status | tr -d '\\t')"
          if umount /tmp 2>/dev/null; then echo umount=allowed; else echo umount=denied; fi
          if echo x > /etc/ci-replay-sandbox-test 2>/dev/null; then echo etc=allowed; else echo etc=denied; fi
          echo "node-processes=$(ps -eo args= | grep -c -E '(^|/)(node|vitest)( |$)' || true)"
          git log --oneline | wc -l
`;
    const output = await runInWorker(workflow, settings({ network: 'egress' }), { asUid: 65534 });
    const lines = logLines(output.logs.environ ?? '');
    expect(output.conclusion, lines.join('\n')).toBe('success');
    expect(lines).toContain('Step sandbox: namespaces (pid, mount, ipc, uts, net); steps keep the worker uid inside an unprivileged user namespace, without capabilities');
    expect(lines).toContain('Network: none (loopback only; EXECUTOR_NETWORK=egress, but the firewall rules could not be installed: the worker is not root)');
    expect(lines).toEqual(expect.arrayContaining(['secret-lines=0', 'capabilities=CapEff:0000000000000000', 'umount=denied', 'etc=denied', 'node-processes=0', '1']));
  });
});
