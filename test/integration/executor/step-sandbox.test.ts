import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../../src/executor/index.js';
import { removeStepFirewall } from '../../../src/executor/sandbox/index.js';
import { projectRoot } from '../../../src/paths.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

// Steps of these runs attack the worker that runs them: the service's "DATA_DIR" (outside /tmp, hidden like the real
// one) holds another job's log, Postgres and Redis listen here. (step-sandbox-worker.test.ts: the worker's environment.)
const FAKE_SECRET = `ci-replay-fake-secret-${process.pid}`;
const CHAIN = `CIR_TEST_${process.pid}`;

let repo: FixtureRepo;
let dataDir: string;
let hostMarker: string;
let server: Server;
let openPort = 0;

beforeAll(async () => {
  repo = createFixtureRepo({ 'src/app.py': 'print("hi")\n' });
  mkdirSync(join(projectRoot(), '.data'), { recursive: true });
  dataDir = mkdtempSync(join(projectRoot(), '.data', 'sandbox-data-'));
  mkdirSync(join(dataDir, 'runs'));
  writeFileSync(join(dataDir, 'runs', 'other-job.log'), `a log of another job ${FAKE_SECRET}\n`);
  hostMarker = join(tmpdir(), `sandbox-host-marker-${process.pid}`);
  writeFileSync(hostMarker, 'host /tmp file\n');
  server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.end('open\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  openPort = typeof address === 'object' && address !== null ? address.port : 0;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await removeStepFirewall(CHAIN);
  repo.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(hostMarker, { force: true });
});

const settings = (over: Partial<SandboxSettings> = {}): SandboxSettings => ({
  ...DEFAULT_SANDBOX_SETTINGS,
  mode: 'namespaces',
  hiddenPaths: [dataDir],
  blockedPorts: [5432, 6379],
  firewallChain: CHAIN,
  ...over,
});

/** Python that connects to each address and prints `<label>=connected` or `<label>=refused (<error>)`. */
const probeTcp = (targets: Array<[string, string, number]>): string => `
          python3 - <<'EOF'
          import socket
          for label, host, port in ${JSON.stringify(targets)}:
              try:
                  socket.create_connection((host, port), 2).close()
                  print(f"{label}=connected")
              except OSError as error:
                  print(f"{label}=refused ({error.__class__.__name__})")
          EOF`;

const hostAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && a.family === 'IPv4')
    .map((a) => a?.address ?? '');

describe('the step sandbox: what a step can see, touch and reach', () => {
  it("cannot see the worker's processes, its data directory or /root, nor write outside its job; the workspace works", async () => {
    const { result, log, dirs } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  attack:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: processes
        run: |
          echo "node-processes=$(ps -eo args= | grep -c -E '(^|/)(node|vitest)( |$)' || true)"
          echo "process-count=$(ps -e --no-headers | wc -l)"
          echo "uid=$(id -u) user=$(id -un) home=$HOME"
      - name: files
        run: |
          try() { if ( eval "$1" ) 2>/dev/null; then echo "$2=allowed"; else echo "$2=denied"; fi; }
          try 'echo x > /etc/ci-replay-sandbox-test' etc
          try 'echo x > /root/ci-replay-sandbox-test' root
          try 'echo x > ${dataDir}/written-by-step' data-dir-write
          try 'cat ${dataDir}/runs/other-job.log' data-dir-read
          try 'echo x > /usr/local/bin/ci-replay-sandbox-test' usr-local
          try 'test -e ${hostMarker}' host-tmp-file
          try 'echo x > /tmp/ci-replay-step-tmp' own-tmp
          try 'echo x > ws-file.txt && cat ws-file.txt >/dev/null' workspace
          try 'echo x > "$HOME/home-file" && echo x > "$RUNNER_TEMP/temp-file"' home-and-temp
          echo "siblings=$(ls -A "$(dirname "$(dirname "$RUNNER_TEMP")")" | grep -v '^origin.git$' | wc -l)"
          echo "run-dir=$(ls -A "$(dirname "$(dirname "$RUNNER_TEMP")")" | grep -c '^origin.git$')"
          echo "root-entries=$(ls -A /root | grep -v '^.pyenv$' | wc -l)"
          echo "python=$(python3 -c 'import sys; print(sys.version_info[0])')"
      - uses: actions/upload-artifact@v4
        with:
          name: from-workspace
          path: ws-file.txt
`,
      { sandbox: settings({ network: 'none' }), outputCapBytes: 1024 * 1024 },
    );
    const lines = logLines(log('attack'));
    expect(result.jobs[0]?.steps.map((s) => `${s.name}=${s.conclusion}`), lines.join('\n')).toEqual([
      'Set up job=success', 'Run actions/checkout@v4=success', 'processes=success', 'files=success',
      'Run actions/upload-artifact@v4=success', 'Post Run actions/checkout@v4=success', 'Complete job=success',
    ]);
    expect(lines).toContain('Step sandbox: namespaces (pid, mount, ipc, uts, net); steps run as an unprivileged user (uid 60000-60999, one per job)');
    // (b) only the sandbox's init and the step's own processes
    expect(lines).toContain('node-processes=0');
    const count = Number(lines.find((l) => l.startsWith('process-count='))?.split('=')[1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(8);
    expect(lines.find((l) => l.startsWith('uid='))).toMatch(/^uid=60\d{3} user=runner home=\/.*\/home$/);
    // (d) nothing outside the job directory is writable, the service's data is hidden, the workspace and temp work
    expect(lines).toEqual(expect.arrayContaining([
      'etc=denied', 'root=denied', 'data-dir-write=denied', 'data-dir-read=denied', 'usr-local=denied', 'host-tmp-file=denied',
      // the run's directory shows this job's own directory and the run's read-only origin view, no other job's
      'own-tmp=allowed', 'workspace=allowed', 'home-and-temp=allowed', 'siblings=1', 'run-dir=1', 'root-entries=0', 'python=3',
    ]));
    expect(readdirSync(join(dataDir, 'runs'))).toEqual(['other-job.log']);
    expect(existsSync('/etc/ci-replay-sandbox-test')).toBe(false);
    expect(existsSync('/tmp/ci-replay-step-tmp')).toBe(false);
    expect(readdirSync(join(dirs.artifactsDir, 'from-workspace'))).toEqual(['ws-file.txt']);
  });

  it('cannot open Postgres or Redis on this host, with no network or with egress', async () => {
    const external = hostAddresses()[0];
    const targets: Array<[string, string, number]> = [
      ['pg-v4', '127.0.0.1', 5432], ['redis-v4', '127.0.0.1', 6379], ['pg-v6', '::1', 5432], ['redis-v6', '::1', 6379],
      ...(external === undefined ? [] : ([['pg-external', external, 5432]] as Array<[string, string, number]>)),
      ['open-port', '127.0.0.1', openPort],
    ];
    const workflow = `
on: push
jobs:
  net:
    runs-on: ubuntu-latest
    steps:
      - run: |${probeTcp(targets)}
`;
    const refused = (lines: string[], label: string): boolean => lines.some((l) => l.startsWith(`${label}=refused`));
    const none = await runFixtureWorkflow(repo, workflow, { sandbox: settings({ network: 'none' }) });
    const noneLines = logLines(none.log('net'));
    expect(none.result.conclusion, noneLines.join('\n')).toBe('success');
    for (const [label] of targets) expect(refused(noneLines, label), label).toBe(true);

    const egress = await runFixtureWorkflow(repo, workflow, { sandbox: settings({ network: 'egress' }) });
    const egressLines = logLines(egress.log('net'));
    expect(egress.result.conclusion, egressLines.join('\n')).toBe('success');
    expect(egressLines.find((l) => l.startsWith('Network: '))).toMatch(new RegExp(`^Network: egress \\(host network; chain ${CHAIN} refuses uids 60000-60999 TCP to local:5432, local:6379`));
    for (const [label] of targets.filter(([l]) => l !== 'open-port')) expect(refused(egressLines, label), label).toBe(true);
    // egress is the host's network: a port of this host that is not the service's is reachable
    expect(egressLines).toContain('open-port=connected');
    // the rules concern the step users only: the worker itself still reaches Postgres
    await new Promise<void>((resolve, reject) => {
      const socket = connect(5432, '127.0.0.1', () => {
        socket.on('error', () => undefined);
        socket.end();
        resolve();
      });
      socket.once('error', reject);
    });
  });
});
