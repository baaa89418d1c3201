import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGithubSim, type GithubSim } from '../../support/github-sim/index.js';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../../support/github-sim/webhook-receiver.js';

const run = promisify(execFile);
const WORKFLOW = `name: CI
on:
  push:
    branches: ['ci-replay/**', main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Test
        run: |
          echo "running tests"
          mkdir -p out && echo report > out/report.txt
      - uses: actions/upload-artifact@v4
        with:
          name: report
          path: out
  lint:
    needs: test
    runs-on: ubuntu-latest
    steps:
      - run: echo "lint failed" && exit 3
  never:
    needs: lint
    runs-on: ubuntu-latest
    steps:
      - run: echo unreachable
`;

async function gitIn(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return run('git', args, { cwd, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', ...env } });
}

describe('plain git push to the simulator', () => {
  let sim: GithubSim;
  let receiver: WebhookReceiver;
  let work: string;
  let installationId: number;

  beforeAll(async () => {
    sim = await startGithubSim({ webhookSecret: 'push-secret' });
    receiver = await startWebhookReceiver(sim.webhookSecret);
    sim.setWebhookUrl(receiver.url);
    installationId = sim.createInstallation({ account: 'bench' }).id;
    await sim.createRepo({ owner: 'bench', name: 'demo', files: { 'README.md': '# demo\n', '.github/workflows/ci.yml': WORKFLOW } });
    work = await mkdtemp(join(tmpdir(), 'sim-push-'));
  });

  afterAll(async () => {
    await sim.close();
    await receiver.close();
    await rm(work, { recursive: true, force: true });
  });

  const credentialArgs = (token: string): string[] => [
    '-c', 'credential.helper=',
    '-c', `credential.helper=!f() { echo username=x-access-token; echo password=${token}; }; f`,
  ];

  it('refuses anonymous pushes with 401 and WWW-Authenticate: Basic', async () => {
    const response = await fetch(`${sim.gitUrl('bench', 'demo')}/info/refs?service=git-receive-pack`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('runs the workflow for a pushed branch and delivers signed webhooks', async () => {
    const token = sim.installationToken(installationId);
    const clone = join(work, 'clone');
    await gitIn(work, [...credentialArgs(token), 'clone', '-q', sim.gitUrl('bench', 'demo'), clone]);
    await gitIn(clone, ['checkout', '-q', '-b', 'ci-replay/run-1/sub-1']);
    await writeFile(join(clone, 'fix.txt'), 'patched\n');
    await gitIn(clone, ['add', '.']);
    await gitIn(clone, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-m', 'Apply patch']);
    await gitIn(clone, [...credentialArgs(token), 'push', '-q', 'origin', 'HEAD']);
    const sha = (await gitIn(clone, ['rev-parse', 'HEAD'])).stdout.trim();

    const runs = [...sim.state.runs.values()].filter((r) => r.headSha === sha);
    expect(runs).toHaveLength(1);
    const simRun = runs[0]!;
    expect(simRun.id).toBeGreaterThan(2 ** 31);
    expect(simRun.headBranch).toBe('ci-replay/run-1/sub-1');

    const completed = await receiver.waitFor((d) => d.event === 'workflow_run' && d.payload.action === 'completed');
    const workflowRun = completed.payload.workflow_run as Record<string, unknown>;
    expect(workflowRun.conclusion).toBe('failure');
    expect(workflowRun.head_sha).toBe(sha);
    expect(receiver.received.every((d) => d.verified)).toBe(true);
    expect(completed.headers['user-agent']).toMatch(/^GitHub-Hookshot\//);
    expect(completed.headers['x-github-hook-installation-target-type']).toBe('integration');
    expect(completed.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);

    const events = receiver.received.map((d) => `${d.event}.${String(d.payload.action ?? '')}`);
    expect(events).toContain('push.');
    expect(events).toContain('workflow_run.requested');
    expect(events).toContain('workflow_run.in_progress');
    expect(events.filter((e) => e === 'workflow_job.completed')).toHaveLength(2);
    expect(receiver.received.some((d) => d.event === 'workflow_job' && (d.payload.workflow_job as { name: string }).name === 'never')).toBe(false);

    const api = `${sim.url}/repos/bench/demo`;
    const auth = { authorization: `token ${token}` };
    const jobs = (await (await fetch(`${api}/actions/runs/${simRun.id}/jobs`, { headers: auth })).json()) as { jobs: Record<string, unknown>[] };
    const byName = new Map(jobs.jobs.map((j) => [j.name, j]));
    expect(byName.get('test')?.conclusion).toBe('success');
    expect(byName.get('lint')?.conclusion).toBe('failure');
    expect(byName.get('never')?.conclusion).toBe('skipped');
    const steps = (byName.get('test')?.steps as { name: string }[]).map((s) => s.name);
    expect(steps[0]).toBe('Set up job');
    expect(steps[steps.length - 1]).toBe('Complete job');

    const logRedirect = await fetch(`${api}/actions/jobs/${String(byName.get('lint')?.id)}/logs`, { headers: auth, redirect: 'manual' });
    expect(logRedirect.status).toBe(302);
    const log = await (await fetch(logRedirect.headers.get('location') ?? '')).text();
    expect(log).toMatch(/^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z /);
    expect(log).toContain('##[error]Process completed with exit code 3.');

    const artifacts = (await (await fetch(`${api}/actions/runs/${simRun.id}/artifacts`, { headers: auth })).json()) as { artifacts: { id: number; name: string }[] };
    expect(artifacts.artifacts.map((a) => a.name)).toEqual(['report']);
    const zipRedirect = await fetch(`${api}/actions/artifacts/${artifacts.artifacts[0]!.id}/zip`, { headers: auth, redirect: 'manual' });
    expect(zipRedirect.status).toBe(302);
    const zip = Buffer.from(await (await fetch(zipRedirect.headers.get('location') ?? '')).arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe('PK');
  });

  it('rejects a push that changes .github/workflows without workflows: write', async () => {
    const token = sim.installationToken(installationId, { contents: 'write', metadata: 'read' });
    const clone = join(work, 'clone2');
    await gitIn(work, [...credentialArgs(token), 'clone', '-q', sim.gitUrl('bench', 'demo'), clone]);
    await mkdir(join(clone, '.github/workflows'), { recursive: true });
    await writeFile(join(clone, '.github/workflows/ci.yml'), `${WORKFLOW}\n# changed\n`);
    await gitIn(clone, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-am', 'Change workflow']);
    await expect(gitIn(clone, [...credentialArgs(token), 'push', '-q', 'origin', 'HEAD:refs/heads/ci-replay/wf'])).rejects.toThrow(/without `workflows` permission/);
    await writeFile(join(clone, 'other.txt'), 'x\n');
    await gitIn(clone, ['reset', '-q', '--hard', 'HEAD~1']);
    await writeFile(join(clone, 'other.txt'), 'x\n');
    await gitIn(clone, ['add', '.']);
    await gitIn(clone, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-m', 'Plain change']);
    await gitIn(clone, ['-c', `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`, 'push', '-q', 'origin', 'HEAD:refs/heads/ci-replay/plain']);
    await waitFor(() => [...sim.state.runs.values()].find((r) => r.headBranch === 'ci-replay/plain'));
    await sim.idle();
    expect(sim.counters.get('POST /{owner}/{repo}.git/git-receive-pack')).toBeGreaterThanOrEqual(2);
    expect(sim.counters.get('GET /{owner}/{repo}.git/info/refs?service=git-upload-pack')).toBeGreaterThanOrEqual(2);
  });

  it('starts a workflow on push only when its paths / paths-ignore filters match the changed files', async () => {
    const pathsWorkflow = (name: string, filter: string): string =>
      `name: ${name}\non:\n  push:\n    branches-ignore: [skip/**]\n${filter}\njobs:\n  one:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n`;
    await sim.createRepo({
      owner: 'bench', name: 'paths', files: {
        'README.md': '# paths\n', 'src/a.ts': 'export {};\n', 'docs/a.md': 'docs\n',
        '.github/workflows/src.yml': pathsWorkflow('Src', "    paths: ['src/**', '!src/**/*.md']"),
        '.github/workflows/no-docs.yml': pathsWorkflow('NoDocs', "    paths-ignore: ['docs/**']"),
      },
    });
    const token = sim.installationToken(installationId);
    const clone = join(work, 'clone-paths');
    await gitIn(work, [...credentialArgs(token), 'clone', '-q', sim.gitUrl('bench', 'paths'), clone]);
    await gitIn(clone, ['checkout', '-q', '-b', 'feature/x']);
    const pushChange = async (files: Record<string, string>, target = 'feature/x'): Promise<string[]> => {
      for (const [path, content] of Object.entries(files)) {
        await mkdir(join(clone, path, '..'), { recursive: true });
        await writeFile(join(clone, path), content);
      }
      if (Object.keys(files).length > 0) {
        await gitIn(clone, ['add', '.']);
        await gitIn(clone, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-m', `Change ${Object.keys(files).join(', ')}`]);
      }
      await gitIn(clone, [...credentialArgs(token), 'push', '-q', 'origin', `HEAD:refs/heads/${target}`]);
      const sha = (await gitIn(clone, ['rev-parse', 'HEAD'])).stdout.trim();
      return [...sim.state.runs.values()].filter((r) => r.headSha === sha && r.headBranch === target).map((r) => r.name).sort();
    };
    // New branch: compared with the parent of its first new commit (docs only).
    expect(await pushChange({ 'docs/a.md': 'docs v2\n' })).toEqual([]);
    // Existing branch: before..after.
    expect(await pushChange({ 'src/a.ts': 'export const a = 1;\n' })).toEqual(['NoDocs', 'Src']);
    expect(await pushChange({ 'docs/b.md': 'more docs\n' })).toEqual([]);
    expect(await pushChange({ 'src/notes.md': 'excluded by !src/**/*.md\n' })).toEqual(['NoDocs']);
    expect(await pushChange({ 'docs/c.md': 'c\n', 'README.md': '# paths v2\n' })).toEqual(['NoDocs']);
    // A new branch at a commit already on another branch changes no files: nothing runs.
    expect(await pushChange({}, 'feature/same')).toEqual([]);
    // Branch filters still apply on top of path filters.
    expect(await pushChange({ 'src/b.ts': 'export {};\n' }, 'skip/y')).toEqual([]);
    expect(await pushChange({}, 'feature/x')).toEqual(['NoDocs', 'Src']);
    await sim.idle();
  });

  it('reports only its own refs for each of several concurrent pushes: one push event and one run per branch', async () => {
    const token = sim.installationToken(installationId);
    const clone = join(work, 'clone-concurrent');
    await gitIn(work, [...credentialArgs(token), 'clone', '-q', sim.gitUrl('bench', 'demo'), clone]);
    const branches = Array.from({ length: 6 }, (_, index) => `ci-replay/concurrent/${index}`);
    const shas: string[] = [];
    for (const [index, branch] of branches.entries()) {
      await gitIn(clone, ['checkout', '-q', '-B', `local-${index}`, 'origin/main']);
      await writeFile(join(clone, 'fix.txt'), `concurrent ${index}\n`);
      await gitIn(clone, ['add', '.']);
      await gitIn(clone, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-m', `Change ${branch}`]);
      shas.push((await gitIn(clone, ['rev-parse', 'HEAD'])).stdout.trim());
    }
    const pushesBefore = receiver.received.filter((d) => d.event === 'push').length;
    await Promise.all(branches.map((branch, index) => gitIn(clone, [...credentialArgs(token), 'push', '-q', 'origin', `${shas[index]}:refs/heads/${branch}`])));
    // Before the fix, a push that ended after another had started reported that one's ref too (refs listed before/after).
    expect(shas.map((sha) => [...sim.state.runs.values()].filter((r) => r.headSha === sha).map((r) => r.headBranch))).toEqual(branches.map((branch) => [branch]));
    await sim.idle();
    const pushes = receiver.received.filter((d) => d.event === 'push').slice(pushesBefore).map((d) => String(d.payload.ref)).sort();
    expect(pushes).toEqual(branches.map((branch) => `refs/heads/${branch}`).sort());
  });

  it('accepts gzip request bodies on git-upload-pack and on the REST API', async () => {
    const token = sim.installationToken(installationId);
    const basic = `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    const sha = [...sim.state.runs.values()][0]?.headSha ?? '';
    const want = `want ${sha}\n`;
    const request = `${(want.length + 4).toString(16).padStart(4, '0')}${want}00000009done\n`;
    const pack = await fetch(`${sim.gitUrl('bench', 'demo')}/git-upload-pack`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
      body: gzipSync(request),
    });
    expect(pack.status).toBe(200);
    const bytes = Buffer.from(await pack.arrayBuffer());
    expect(bytes.includes(Buffer.from('PACK'))).toBe(true);
    const created = await fetch(`${sim.url}/repos/bench/demo/check-runs`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ name: 'gz', head_sha: sha })),
    });
    expect(created.status).toBe(201);
  });
});
