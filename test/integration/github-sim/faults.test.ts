import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { signAppJwt, startGithubSim, type GithubSim } from '../../support/github-sim/index.js';
import { planFailedJobsRerun } from '../../support/github-sim/runs/rerun-plan.js';
import { createSchemaValidator } from '../../support/github-sim/schema/assert-matches-schema.js';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../../support/github-sim/webhook-receiver.js';

const QUICK = `name: Quick
on: { push: { branches: ['ci-replay/**'] } }
jobs:
  one:
    runs-on: ubuntu-latest
    steps:
      - run: echo quick
`;
const SLOW = `name: Slow
on: { push: { branches: ['slow/**'] } }
jobs:
  wait:
    runs-on: ubuntu-latest
    steps:
      - run: sleep 30
`;
const MIXED = `name: Mixed
on: { push: { branches: ['mixed/**'] } }
jobs:
  pass:
    runs-on: ubuntu-latest
    steps:
      - run: echo "pass ran in attempt $GITHUB_RUN_ATTEMPT"
  flaky:
    runs-on: ubuntu-latest
    steps:
      - run: echo "flaky ran in attempt $GITHUB_RUN_ATTEMPT" && test "$GITHUB_RUN_ATTEMPT" -ge 2
  after:
    needs: flaky
    runs-on: ubuntu-latest
    steps:
      - run: echo "after ran in attempt $GITHUB_RUN_ATTEMPT"
`;

interface JobBody {
  id: number;
  name: string;
  run_attempt: number;
  conclusion: string | null;
}

describe('simulator fault injection', () => {
  let sim: GithubSim;
  let receiver: WebhookReceiver;
  let token: string;
  let sha: string;
  let branchNo = 0;

  const api = (method: string, path: string, body?: unknown, auth = `token ${token}`): Promise<Response> =>
    fetch(`${sim.url}${path}`, { method, redirect: 'manual', headers: { authorization: auth }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const push = async (prefix: string): Promise<number> => {
    branchNo += 1;
    const response = await api('POST', '/repos/bench/app/git/refs', { ref: `refs/heads/${prefix}/${branchNo}`, sha });
    expect(response.status).toBe(201);
    const run = [...sim.state.runs.values()].find((r) => r.headBranch === `${prefix}/${branchNo}`);
    if (!run) throw new Error('no run created');
    return run.id;
  };
  const runStatus = async (id: number): Promise<{ status: string; conclusion: string | null; run_attempt: number }> =>
    (await (await api('GET', `/repos/bench/app/actions/runs/${id}`)).json()) as { status: string; conclusion: string | null; run_attempt: number };

  beforeAll(async () => {
    sim = await startGithubSim({ forkDelayMs: 50 });
    receiver = await startWebhookReceiver(sim.webhookSecret);
    sim.setWebhookUrl(receiver.url);
    const installation = sim.createInstallation({ account: 'bench' });
    await sim.createRepo({ owner: 'bench', name: 'app', files: { '.github/workflows/quick.yml': QUICK, '.github/workflows/slow.yml': SLOW } });
    token = sim.installationToken(installation.id);
    sha = sim.state.repos.get('bench/app') ? (await (await api('GET', '/repos/bench/app/git/ref/heads/main')).json() as { object: { sha: string } }).object.sha : '';
  });

  afterAll(async () => {
    await sim.close();
    await receiver.close();
  });

  it('answers matched API calls with 500/502 N times and counts every call per endpoint', async () => {
    sim.counters.reset();
    sim.faults.api({ method: 'GET', path: '/repos/{owner}/{repo}', times: 2, response: { kind: 'status', status: 502 } });
    sim.faults.api({ path: /\/actions\/runs$/, response: { kind: 'status', status: 500 } });
    expect((await api('GET', '/repos/bench/app')).status).toBe(502);
    const second = await api('GET', '/repos/bench/app');
    expect(second.status).toBe(502);
    expect(await second.json()).toMatchObject({ message: 'Server Error', status: '502' });
    expect((await api('GET', '/repos/bench/app')).status).toBe(200);
    expect((await api('GET', '/repos/bench/app/actions/runs')).status).toBe(500);
    expect((await api('GET', '/repos/bench/app/actions/runs')).status).toBe(200);
    expect(sim.counters.get('GET /repos/{owner}/{repo}')).toBe(3);
    expect(sim.counters.get('GET /repos/{owner}/{repo}/actions/runs')).toBe(2);
  });

  it('simulates secondary limits (403 + retry-after), 429, and primary exhaustion until the reset', async () => {
    sim.faults.api({ path: '/repos/{owner}/{repo}', response: { kind: 'secondary-rate-limit', retryAfterSeconds: 7 } });
    const secondary = await api('GET', '/repos/bench/app');
    expect(secondary.status).toBe(403);
    expect(secondary.headers.get('retry-after')).toBe('7');
    expect(((await secondary.json()) as { message: string }).message).toMatch(/secondary rate limit/);
    sim.faults.api({ path: '/repos/{owner}/{repo}', response: { kind: 'too-many-requests', retryAfterSeconds: 3 } });
    const tooMany = await api('GET', '/repos/bench/app');
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('retry-after')).toBe('3');

    sim.faults.api({ path: '/repos/{owner}/{repo}', response: { kind: 'primary-rate-limit', resetInSeconds: 1 } });
    const exhausted = await api('GET', '/repos/bench/app');
    expect(exhausted.status).toBe(403);
    expect(exhausted.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(exhausted.headers.get('x-ratelimit-reset'));
    expect(reset * 1000).toBeGreaterThan(Date.now() - 1000);
    expect((await api('GET', '/repos/bench/app/actions/workflows')).status).toBe(403);
    await waitFor(() => Date.now() > reset * 1000 + 50, 5000);
    const after = await api('GET', '/repos/bench/app');
    expect(after.status).toBe(200);
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(4999);
  });

  it('authenticates like GitHub: expired tokens, foreign JWT keys and over-long JWTs are 401', async () => {
    const shortLived = await startGithubSim({ tokenTtlMs: 400 });
    try {
      const installation = shortLived.createInstallation({ account: 'org' });
      await shortLived.createRepo({ owner: 'org', name: 'r', private: true, files: { 'a.txt': 'a' } });
      const t = shortLived.installationToken(installation.id);
      expect((await fetch(`${shortLived.url}/repos/org/r`, { headers: { authorization: `token ${t}` } })).status).toBe(200);
      expect((await fetch(`${shortLived.url}/repos/org/r`)).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 450));
      const expired = await fetch(`${shortLived.url}/repos/org/r`, { headers: { authorization: `Bearer ${t}` } });
      expect(expired.status).toBe(401);
      expect(await expired.json()).toMatchObject({ message: 'Bad credentials' });
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
      expect((await fetch(`${shortLived.url}/app`, { headers: { authorization: `Bearer ${signAppJwt(shortLived.appId, other)}` } })).status).toBe(401);
      expect((await fetch(`${shortLived.url}/app`, { headers: { authorization: `Bearer ${signAppJwt(shortLived.appId, shortLived.privateKeyPem, Date.now(), 3600)}` } })).status).toBe(401);
      expect((await fetch(`${shortLived.url}/app`, { headers: { authorization: `Bearer ${signAppJwt(999, shortLived.privateKeyPem)}` } })).status).toBe(401);
      expect((await fetch(`${shortLived.url}/app`, { headers: { authorization: `Bearer ${shortLived.appJwt()}` } })).status).toBe(200);
      await shortLived.createRepo({ owner: 'org', name: 'r2', private: true });
      const narrowed = await fetch(`${shortLived.url}/app/installations/${installation.id}/access_tokens`, {
        method: 'POST', headers: { authorization: `Bearer ${shortLived.appJwt()}` }, body: JSON.stringify({ repositories: ['r'], permissions: { contents: 'read' } }),
      });
      expect(narrowed.status).toBe(201);
      const narrowedToken = ((await narrowed.json()) as { token: string; repository_selection: string }).token;
      expect((await fetch(`${shortLived.url}/repos/org/r`, { headers: { authorization: `token ${narrowedToken}` } })).status).toBe(200);
      expect((await fetch(`${shortLived.url}/repos/org/r2`, { headers: { authorization: `token ${narrowedToken}` } })).status).toBe(404);
      const tooMuch = await fetch(`${shortLived.url}/app/installations/${installation.id}/access_tokens`, {
        method: 'POST', headers: { authorization: `Bearer ${shortLived.appJwt()}` }, body: JSON.stringify({ permissions: { members: 'write' } }),
      });
      expect(tooMuch.status).toBe(422);
      const asToken = await fetch(`${shortLived.url}/app/installations/${installation.id}/access_tokens`, { method: 'POST', headers: { authorization: `token ${shortLived.installationToken(installation.id)}` } });
      expect(asToken.status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

  it('drops, duplicates and reorders webhook deliveries', async () => {
    sim.faults.webhooks.drop({ event: 'workflow_run', action: 'requested' });
    sim.faults.webhooks.duplicate({ event: 'workflow_run', action: 'completed' });
    const dropped = await push('ci-replay/drop');
    await sim.idle();
    const forRun = receiver.received.filter((d) => (d.payload.workflow_run as { id?: number } | undefined)?.id === dropped);
    expect(forRun.map((d) => String(d.payload.action)).sort()).toEqual(['completed', 'completed', 'in_progress']);
    const completedCopies = forRun.filter((d) => d.payload.action === 'completed');
    expect(completedCopies[0]?.guid).toBe(completedCopies[1]?.guid);

    sim.faults.webhooks.hold();
    const held = await push('ci-replay/held');
    await waitFor(async () => (await runStatus(held)).status === 'completed');
    const before = receiver.received.length;
    sim.faults.webhooks.release('reverse');
    await sim.idle();
    const released = receiver.received.slice(before).filter((d) => d.event === 'workflow_run').map((d) => d.payload.action);
    expect(released).toEqual(['completed', 'in_progress', 'requested']);

    sim.faults.webhooks.delay(1000, { event: 'workflow_run', action: 'requested' });
    const delayed = await push('ci-replay/delayed');
    await sim.idle();
    const order = receiver.received.filter((d) => (d.payload.workflow_run as { id?: number } | undefined)?.id === delayed).map((d) => d.payload.action);
    expect(order.indexOf('requested')).toBeGreaterThan(order.indexOf('in_progress'));
  });

  it('records failed deliveries in the App delivery log, pages it with a cursor, and redelivers the same GUID', async () => {
    sim.faults.webhooks.fail({ event: 'workflow_run', action: 'completed' });
    const runId = await push('ci-replay/fail');
    await sim.idle();
    expect(receiver.received.some((d) => d.event === 'workflow_run' && d.payload.action === 'completed' && (d.payload.workflow_run as { id: number }).id === runId)).toBe(false);
    const jwt = `Bearer ${sim.appJwt()}`;
    const failed = (await (await api('GET', '/app/hook/deliveries?status=failure', undefined, jwt)).json()) as { id: number; guid: string; status_code: number; redelivery: boolean }[];
    expect(failed).toHaveLength(1);
    expect(failed[0]?.status_code).toBe(502);
    expect((await api('POST', `/app/hook/deliveries/${failed[0]?.id}/attempts`, undefined, jwt)).status).toBe(202);
    await sim.idle();
    const redelivered = receiver.received.filter((d) => d.guid === failed[0]?.guid);
    expect(redelivered).toHaveLength(1);
    expect(redelivered[0]?.verified).toBe(true);
    const log = (await (await api('GET', '/app/hook/deliveries?per_page=100', undefined, jwt)).json()) as { guid: string; redelivery: boolean; status: string }[];
    expect(log.filter((d) => d.guid === failed[0]?.guid).map((d) => d.redelivery).sort()).toEqual([false, true]);

    const seen = new Set<number>();
    let next: string | null = `/app/hook/deliveries?per_page=7`;
    while (next) {
      const page: Response = await api('GET', next, undefined, jwt);
      for (const item of (await page.json()) as { id: number }[]) seen.add(item.id);
      const link = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '');
      next = link?.[1] ? new URL(link[1]).pathname + new URL(link[1]).search : null;
    }
    expect(seen.size).toBe(sim.state.deliveries.length);
  });

  it('keeps a fork "being created" on request (409 for the git data API, 404 for git); fork workflows run only once enabled', async () => {
    sim.faults.forkStaysCreating('bench/app');
    const other = sim.createInstallation({ account: 'forks' });
    const forkToken = sim.installationToken(other.id);
    const fork = await api('POST', '/repos/bench/app/forks', { organization: 'forks' }, `token ${forkToken}`);
    expect(fork.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await api('GET', '/repos/forks/app/git/ref/heads/main', undefined, `token ${forkToken}`)).status).toBe(409);
    expect((await fetch(`${sim.gitUrl('forks', 'app')}/info/refs?service=git-upload-pack`)).status).toBe(404);
    sim.faults.finishFork('forks/app');
    expect((await api('GET', '/repos/forks/app/git/ref/heads/main', undefined, `token ${forkToken}`)).status).toBe(200);
    const workflows = (await (await api('GET', '/repos/forks/app/actions/workflows', undefined, `token ${forkToken}`)).json()) as { workflows: { state: string }[] };
    expect(workflows.workflows.map((w) => w.state)).toEqual(['disabled_fork', 'disabled_fork']);
    const forkRuns = (): number => [...sim.state.runs.values()].filter((r) => r.repoId === sim.state.repos.get('forks/app')?.id).length;
    const asFork = `token ${forkToken}`;
    expect((await api('POST', '/repos/forks/app/git/refs', { ref: 'refs/heads/ci-replay/f/1', sha }, asFork)).status).toBe(201);
    expect(forkRuns()).toBe(0);
    expect((await api('PUT', '/repos/forks/app/actions/permissions', { enabled: true }, asFork)).status).toBe(204);
    expect((await api('POST', '/repos/forks/app/git/refs', { ref: 'refs/heads/ci-replay/f/2', sha }, asFork)).status).toBe(201);
    expect(forkRuns()).toBe(0);
    expect((await api('PUT', '/repos/forks/app/actions/workflows/quick.yml/enable', undefined, asFork)).status).toBe(204);
    expect((await api('POST', '/repos/forks/app/git/refs', { ref: 'refs/heads/ci-replay/f/3', sha }, asFork)).status).toBe(201);
    expect(forkRuns()).toBe(1);
    await sim.idle();
  });

  it('never shows a fork as ready before its initial state is set (Actions and its workflows disabled), however slow the copy', async () => {
    // No fork delay: before the fix a fork answered as ready while its copy ran, with Actions still enabled, so a
    // second job could push there before the workflows were disabled and get no run.
    const quick = await startGithubSim({ forkDelayMs: 0 });
    try {
      const owner = quick.createInstallation({ account: 'up' });
      const forks = quick.createInstallation({ account: 'copies' });
      const files: Record<string, string> = { '.github/workflows/q.yml': QUICK };
      for (let i = 0; i < 400; i += 1) files[`src/file-${i}.txt`] = `${i}\n`.repeat(50);
      await quick.createRepo({ owner: 'up', name: 'big', files });
      const auth = { authorization: `token ${quick.installationToken(forks.id)}` };
      expect(owner.id).not.toBe(forks.id);
      let created = false;
      const forking = fetch(`${quick.url}/repos/up/big/forks`, { method: 'POST', headers: auth, body: JSON.stringify({ organization: 'copies' }) }).then((response) => {
        created = true;
        return response.status;
      });
      const seen: string[] = [];
      while (!created || seen.at(-1) !== 'ready') {
        const refs = await fetch(`${quick.url}/repos/copies/big/git/matching-refs/heads`, { headers: auth });
        if (refs.status !== 200) {
          seen.push(String(refs.status));
          continue;
        }
        const permissions = (await (await fetch(`${quick.url}/repos/copies/big/actions/permissions`, { headers: auth })).json()) as { enabled: boolean };
        const workflows = (await (await fetch(`${quick.url}/repos/copies/big/actions/workflows`, { headers: auth })).json()) as { workflows: { state: string }[] };
        expect({ enabled: permissions.enabled, workflows: workflows.workflows.map((w) => w.state) }).toEqual({ enabled: false, workflows: ['disabled_fork'] });
        seen.push('ready');
      }
      expect(await forking).toBe(202);
      expect(seen.at(-1)).toBe('ready');
    } finally {
      await quick.close();
    }
  });

  it('keeps a run queued, cancels or times out a running run, and re-runs as a new attempt', async () => {
    sim.faults.runNeverStarts({ branch: 'ci-replay/stuck/' + String(branchNo + 1) });
    const stuck = await push('ci-replay/stuck');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await runStatus(stuck)).status).toBe('queued');
    sim.faults.startRun(stuck);
    await waitFor(async () => (await runStatus(stuck)).conclusion === 'success');

    const slow = await push('slow');
    await waitFor(() => [...sim.state.jobs.values()].some((j) => j.runId === slow && j.status === 'in_progress'));
    expect((await api('POST', `/repos/bench/app/actions/runs/${slow}/cancel`)).status).toBe(202);
    await waitFor(async () => (await runStatus(slow)).status === 'completed');
    expect((await runStatus(slow)).conclusion).toBe('cancelled');
    const slowJobs = (await (await api('GET', `/repos/bench/app/actions/runs/${slow}/jobs`)).json()) as { jobs: { conclusion: string }[] };
    expect(slowJobs.jobs.map((j) => j.conclusion)).toEqual(['cancelled']);

    const timed = await push('slow');
    await waitFor(() => [...sim.state.jobs.values()].some((j) => j.runId === timed && j.status === 'in_progress'));
    sim.faults.timeOutRun(timed);
    await waitFor(async () => (await runStatus(timed)).conclusion === 'timed_out');

    const requestedBefore = receiver.received.filter((d) => d.event === 'workflow_run' && d.payload.action === 'requested').length;
    sim.faults.rerun(stuck);
    await waitFor(async () => {
      const s = await runStatus(stuck);
      return s.run_attempt === 2 && s.status === 'completed';
    });
    await sim.idle();
    const all = (await (await api('GET', `/repos/bench/app/actions/runs/${stuck}/jobs?filter=all`)).json()) as { jobs: { run_attempt: number }[] };
    expect(all.jobs.map((j) => j.run_attempt).sort()).toEqual([1, 2]);
    const latest = (await (await api('GET', `/repos/bench/app/actions/runs/${stuck}/jobs?filter=latest`)).json()) as { jobs: { run_attempt: number }[] };
    expect(latest.jobs.map((j) => j.run_attempt)).toEqual([2]);
    expect(receiver.received.filter((d) => d.event === 'workflow_run' && d.payload.action === 'requested')).toHaveLength(requestedBefore);
  });

  it('re-runs only failed jobs and their dependants; passed jobs are carried into the new attempt', async () => {
    await sim.createRepo({ owner: 'bench', name: 'mixed', files: { '.github/workflows/mixed.yml': MIXED } });
    const main = (await (await api('GET', '/repos/bench/mixed/git/ref/heads/main')).json()) as { object: { sha: string } };
    expect((await api('POST', '/repos/bench/mixed/git/refs', { ref: 'refs/heads/mixed/1', sha: main.object.sha })).status).toBe(201);
    const id = [...sim.state.runs.values()].find((r) => r.headBranch === 'mixed/1')?.id ?? 0;
    const runStatus = async (): Promise<{ status: string; conclusion: string | null; run_attempt: number }> =>
      (await (await api('GET', `/repos/bench/mixed/actions/runs/${id}`)).json()) as { status: string; conclusion: string | null; run_attempt: number };
    await waitFor(async () => (await runStatus()).conclusion === 'failure');
    await sim.idle();
    const jobsOf = async (path: string): Promise<Map<string, JobBody>> =>
      new Map(((await (await api('GET', `/repos/bench/mixed/actions/runs/${id}/${path}`)).json()) as { jobs: JobBody[] }).jobs.map((j) => [j.name, j]));
    const first = await jobsOf('jobs');
    expect([...first.values()].map((j) => `${j.name}:${String(j.conclusion)}`).sort()).toEqual(['after:skipped', 'flaky:failure', 'pass:success']);

    const seenBefore = receiver.received.length;
    expect((await api('POST', `/repos/bench/mixed/actions/runs/${id}/rerun-failed-jobs`)).status).toBe(201);
    await waitFor(async () => {
      const s = await runStatus();
      return s.run_attempt === 2 && s.status === 'completed';
    });
    await sim.idle();
    expect((await runStatus()).conclusion).toBe('success');

    const second = await jobsOf('attempts/2/jobs');
    expect([...second.keys()].sort()).toEqual(['after', 'flaky', 'pass']);
    expect(second.get('pass')).toMatchObject({ id: first.get('pass')?.id, run_attempt: 1, conclusion: 'success' });
    expect(second.get('flaky')).toMatchObject({ run_attempt: 2, conclusion: 'success' });
    expect(second.get('after')).toMatchObject({ run_attempt: 2, conclusion: 'success' });
    expect(second.get('flaky')?.id).not.toBe(first.get('flaky')?.id);
    expect(second.get('after')?.id).not.toBe(first.get('after')?.id);
    expect([...(await jobsOf('jobs')).values()].map((j) => j.id).sort()).toEqual([...second.values()].map((j) => j.id).sort());
    expect(((await (await api('GET', `/repos/bench/mixed/actions/runs/${id}/jobs?filter=all`)).json()) as { total_count: number }).total_count).toBe(5);
    expect((await jobsOf('attempts/1/jobs')).get('flaky')?.conclusion).toBe('failure');

    const logOf = (jobId: number | undefined): string => sim.state.jobs.get(jobId ?? 0)?.log ?? '';
    expect(logOf(second.get('pass')?.id)).toContain('pass ran in attempt 1');
    expect(logOf(second.get('flaky')?.id)).toContain('flaky ran in attempt 2');
    expect(logOf(second.get('after')?.id)).toContain('after ran in attempt 2');
    expect([...sim.state.jobs.values()].some((j) => j.runId === id && j.log.includes('pass ran in attempt 2'))).toBe(false);

    const validator = createSchemaValidator();
    const later = receiver.received.slice(seenBefore);
    const jobEvents = later.filter((d) => d.event === 'workflow_job' && (d.payload.workflow_job as { run_id: number }).run_id === id);
    expect(new Set(jobEvents.map((d) => (d.payload.workflow_job as JobBody).name))).toEqual(new Set(['flaky', 'after']));
    expect(jobEvents.every((d) => (d.payload.workflow_job as JobBody).run_attempt === 2)).toBe(true);
    const runEvents = later.filter((d) => d.event === 'workflow_run' && (d.payload.workflow_run as { id: number }).id === id);
    expect(runEvents.map((d) => `${String(d.payload.action)}:${String((d.payload.workflow_run as { run_attempt: number }).run_attempt)}`)).toEqual(['in_progress:2', 'completed:2']);
    for (const delivery of [...jobEvents, ...runEvents]) validator.assertWebhook(delivery.event, String(delivery.payload.action), delivery.payload);

    expect((await api('POST', `/repos/bench/mixed/actions/runs/${id}/rerun-failed-jobs`)).status).toBe(403);
  });

  it('re-runs a carried-over job too when a re-run job reads its needs outputs (documented approximation)', () => {
    const workflow = `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    outputs: { version: '\${{ steps.v.outputs.version }}' }
    steps: [{ id: v, run: echo version=1 >> "$GITHUB_OUTPUT" }]
  lint:
    runs-on: ubuntu-latest
    steps: [{ run: 'true' }]
  test:
    needs: [build, lint]
    runs-on: ubuntu-latest
    steps: [{ run: exit 1 }]
  report:
    needs: [build, test]
    runs-on: ubuntu-latest
    steps: [{ run: 'echo \${{ needs.build.outputs.version }}' }]
`;
    const plan = planFailedJobsRerun(workflow, [
      { id: 1, key: 'build', conclusion: 'success' }, { id: 2, key: 'lint', conclusion: 'success' },
      { id: 3, key: 'test', conclusion: 'failure' }, { id: 4, key: 'report', conclusion: 'skipped' },
    ]);
    expect(plan?.rerunKeys).toEqual(['build', 'test', 'report']);
    expect(plan?.carriedJobIds).toEqual([2]);
    const jobsIn = (text: string | undefined): Record<string, { needs?: string[] }> => (parse(text ?? '') as { jobs: Record<string, { needs?: string[] }> }).jobs;
    expect(Object.keys(jobsIn(plan?.text))).toEqual(['build', 'test', 'report']);
    expect(jobsIn(plan?.text).test?.needs).toEqual(['build']);
    expect(jobsIn(plan?.text).report?.needs).toEqual(['build', 'test']);
    const independent = planFailedJobsRerun(workflow.replace("'echo \${{ needs.build.outputs.version }}'", 'echo done'), [
      { id: 1, key: 'build', conclusion: 'success' }, { id: 2, key: 'lint', conclusion: 'success' },
      { id: 3, key: 'test', conclusion: 'failure' }, { id: 4, key: 'report', conclusion: 'skipped' },
    ]);
    expect(independent?.rerunKeys).toEqual(['test', 'report']);
    expect(independent?.carriedJobIds).toEqual([1, 2]);
    expect(Object.keys(jobsIn(independent?.text))).toEqual(['test', 'report']);
    expect(jobsIn(independent?.text).test?.needs).toBeUndefined();
    expect(jobsIn(independent?.text).report?.needs).toEqual(['test']);
    expect(planFailedJobsRerun(workflow, [{ id: 3, key: null, conclusion: 'failure' }])).toBeNull();
  });

  it('expires signed log URLs', async () => {
    const quick = await startGithubSim({ signedUrlTtlMs: 100 });
    try {
      const installation = quick.createInstallation({ account: 'o' });
      await quick.createRepo({ owner: 'o', name: 'r', files: { '.github/workflows/q.yml': QUICK } });
      const t = quick.installationToken(installation.id);
      const main = (await (await fetch(`${quick.url}/repos/o/r/git/ref/heads/main`, { headers: { authorization: `token ${t}` } })).json()) as { object: { sha: string } };
      await fetch(`${quick.url}/repos/o/r/git/refs`, { method: 'POST', headers: { authorization: `token ${t}` }, body: JSON.stringify({ ref: 'refs/heads/ci-replay/x', sha: main.object.sha }) });
      await quick.idle();
      const job = [...quick.state.jobs.values()][0];
      const redirect = await fetch(`${quick.url}/repos/o/r/actions/jobs/${job?.id}/logs`, { redirect: 'manual', headers: { authorization: `token ${t}` } });
      const location = redirect.headers.get('location') ?? '';
      expect((await fetch(location)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await fetch(location)).status).toBe(403);
    } finally {
      await quick.close();
    }
  });
});
