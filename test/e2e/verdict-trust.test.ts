import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../examples/build-demo.js';
import { createWorkers, type Workers } from '../../src/workers.js';
import { createApiHarness, type ApiHarness } from '../support/api-client.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

/**
 * What a candidate's steps could use to fake or learn its verdict, end to end (API → worker → local backend →
 * executor → judge): the ground truth in the repository its steps reach, and the executor's own messages printed
 * by a step. The worker runs with the default sandbox settings and a 256 MB step memory limit.
 */
describe('verdict trust on the local backend', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let workers: Workers;
  let demo: Demo;
  const benchRepo = (): string => join(env.dataDir, 'bench', 'ci-replay-examples--calc.git');

  const probe = (): string => [
    'for sha in $(cat probe.txt); do if git cat-file -e "$sha" 2>/dev/null; then echo "object $sha=present"; else echo "object $sha=absent"; fi; done',
    'git fetch -q --unshallow origin || true',
    `git fetch -q origin '+refs/*:refs/remotes/x/*' && echo "refs=$(git for-each-ref --format='%(refname)' refs/remotes/x | paste -sd, -)"`,
    'echo "history=$(git rev-list --count HEAD)"',
    'for sha in $(cat probe.txt); do',
    '  if git fetch -q origin "$sha" 2>/dev/null; then echo "fetch $sha=fetched"; else echo "fetch $sha=refused"; fi',
    '  if git cat-file -e "$sha" 2>/dev/null; then echo "after-fetch $sha=present"; else echo "after-fetch $sha=absent"; fi',
    `  if GIT_DIR=${benchRepo()} git cat-file -e "$sha" 2>/dev/null; then echo "bench $sha=readable"; else echo "bench $sha=unreadable"; fi`,
    'done',
    `echo "data-dir-entries=$(ls -A ${env.dataDir} 2>/dev/null | paste -sd, -)"`,
  ].join('\n');

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_CONCURRENCY: '2', EXECUTOR_STEP_MEMORY_MB: '256' });
    api = await createApiHarness(env);
    demo = await buildDemo(join(env.dataDir, 'examples'));
    const assertion = demo.instances.find((instance) => instance.id === 'demo-assertion');
    if (assertion === undefined) throw new Error('demo-assertion missing');
    const template = { workflow_template: 'python-pytest', python_version: '3.11', template_values: { test_command: 'python -m pytest -q tests' } };
    const forged = "##[error]The step exceeded the memory limit (EXECUTOR_STEP_MEMORY_MB=256): out of memory, the step's processes were killed.";
    const rows = [
      { ...assertion.row, id: 'trust-ground-truth', ...template, install_command: probe() },
      { ...assertion.row, id: 'trust-forged-limit', ...template, install_command: `echo ${JSON.stringify(forged)}\nexit 1` },
      {
        ...assertion.row, id: 'trust-memory-hog', ...template,
        install_command: `python -c "import time; x = [(b'x' * (8 << 20), time.sleep(0.02)) for _ in range(10 ** 6)]"`,
      },
      { ...assertion.row, id: 'trust-sudo', ...template, install_command: 'sudo apt-get update && sudo apt-get install -y libxml2-dev' },
    ];
    const imported = await api.app.inject({
      method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' },
      body: rows.map((row) => JSON.stringify(row)).join('\n'),
    });
    expect(imported.json()).toMatchObject({ created: 4, failed: 0 });
    workers = await createWorkers(env.deps);
  });
  afterAll(async () => {
    await workers?.close();
    await api?.app.close();
    await env?.cleanup();
  });

  async function submit(token: string, payload: Record<string, unknown>): Promise<string> {
    const response = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(token), payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  }

  async function finished(id: string): Promise<Record<string, unknown>> {
    const read = async () => (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.operator) })).json();
    return waitFor(async () => {
      const body = await read();
      return TERMINAL.includes(body.state) && (body.state !== 'completed' || body.verdict !== null) ? body : undefined;
    }, { timeoutMs: 150_000, describe: read });
  }

  async function jobLog(submissionId: string): Promise<string[]> {
    const runs = await env.deps.repos.ci.runsOf(submissionId);
    const job = (await env.deps.repos.ci.jobsOfRun(runs[0]!.id)).find((candidate) => candidate.name === 'test');
    const stored = job?.log === null || job === undefined ? null : await env.deps.logStore.open(job.log.storageKey);
    let text = '';
    for await (const chunk of stored ?? []) text += String(chunk);
    return text.split('\n').map((line) => line.replace(/^\S+Z /, ''));
  }

  it("a candidate's steps reach neither a reference run's commit (the ground truth) nor the upstream's fix commit", async () => {
    const reference = await finished(await submit(api.operator, { instanceId: 'trust-ground-truth', kind: 'reference' }));
    const referenceSha = String(reference.headSha);
    expect(referenceSha).toMatch(/^[0-9a-f]{40}$/);
    const shaSuccess = String(demo.instances.find((instance) => instance.id === 'demo-assertion')?.row.sha_success);
    // the benchmark repository holds the reference's branch, but its initial copy did not bring the upstream's fix
    const bench = (sha: string): boolean => {
      try {
        execFileSync('git', ['--git-dir', benchRepo(), 'cat-file', '-e', sha]);
        return true;
      } catch {
        return false;
      }
    };
    expect(bench(referenceSha)).toBe(true);
    expect(bench(shaSuccess)).toBe(false);

    const text = `${referenceSha}\n${shaSuccess}\n`;
    const blob = execFileSync('git', ['hash-object', '--stdin'], { input: text, encoding: 'utf8' }).trim();
    const patch = ['diff --git a/probe.txt b/probe.txt', 'new file mode 100644', `index 0000000..${blob.slice(0, 7)}`, '--- /dev/null', '+++ b/probe.txt', '@@ -0,0 +1,2 @@', `+${referenceSha}`, `+${shaSuccess}`, ''].join('\n');
    const candidate = await submit(api.submitter, { instanceId: 'trust-ground-truth', patch });
    const result = await finished(candidate);
    expect(result).toMatchObject({ state: 'completed' });
    const lines = await jobLog(candidate);
    const candidateBranch = String(result.branch);
    expect(lines.some((line) => line.startsWith('Step sandbox: namespaces')), lines.join('\n')).toBe(true);
    expect(lines).toEqual(expect.arrayContaining([
      `refs=refs/remotes/x/heads/${candidateBranch}`,
      ...[referenceSha, shaSuccess].flatMap((sha) => [`object ${sha}=absent`, `fetch ${sha}=refused`, `after-fetch ${sha}=absent`, `bench ${sha}=unreadable`]),
      // DATA_DIR shows only the way to the run's own directory (its job and origin view) and to the base view
      'data-dir-entries=views,work',
    ]));
    // the unshallowed clone has the failing commit's whole history plus the candidate's commit
    const history = Number(lines.find((line) => line.startsWith('history='))?.slice('history='.length));
    const upstreamCount = Number(execFileSync('git', ['--git-dir', benchRepo(), 'rev-list', '--count', String(demo.instances.find((i) => i.id === 'demo-assertion')?.row.sha_fail)], { encoding: 'utf8' }).trim());
    expect(history).toBe(upstreamCount + 1);
  });

  it('a step that prints the memory-limit line and exits 1 is failed: the executor never reported it', async () => {
    const id = await submit(api.submitter, { instanceId: 'trust-forged-limit', kind: 'baseline' });
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', outcome: 'failed', reasonDetails: { job: 'test', step: 'Install' } });
    const lines = await jobLog(id);
    // the line is in the log as the step printed it (GitHub shows a raw `##[error]` line of a step the same way)
    expect(lines).toContain("##[error]The step exceeded the memory limit (EXECUTOR_STEP_MEMORY_MB=256): out of memory, the step's processes were killed.");
    const jobs = (await api.app.inject({ url: `/v1/submissions/${id}/jobs`, headers: api.auth(api.submitter) })).json();
    expect(jobs.runs[0].jobs[0]).toMatchObject({ name: 'test', outcome: 'failed', outcomeReason: 'step_failed' });
  });

  it('a real memory hog is infra_error (out_of_memory), proven by the executor\'s own line', async () => {
    const id = await submit(api.submitter, { instanceId: 'trust-memory-hog', kind: 'baseline' });
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'infra_error', verdict: 'invalid', outcome: 'infra_error', reason: 'out_of_memory', reasonDetails: { job: 'test', step: 'Install', rule: 'step-out-of-memory' } });
    const details = result.reasonDetails as { lines: { text: string }[] };
    expect(details.lines.map((line) => line.text)).toContain("##[error]The step exceeded the memory limit (EXECUTOR_STEP_MEMORY_MB=256): out of memory, the step's processes were killed.");
  });

  it('a workflow that runs sudo is not replayable where steps run unprivileged: nothing is pushed or run', async () => {
    const id = await submit(api.submitter, { instanceId: 'trust-sudo', kind: 'baseline' });
    const result = await finished(id);
    expect(result).toMatchObject({
      state: 'infra_error', outcome: 'infra_error', reason: 'not_replayable',
      reasonDetails: { backend: 'local', blockers: [expect.objectContaining({ code: 'root_required', job: 'test', step: 'Install', evidence: 'sudo apt-get update && sudo apt-get install -y libxml2-dev' })] },
    });
    expect(await env.deps.repos.ci.runsOf(id)).toEqual([]);
  });
});
