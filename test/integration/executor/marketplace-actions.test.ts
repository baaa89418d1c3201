import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionSettings } from '../../../src/executor/index.js';
import { createActionRepos, JS_ACTION, tagRepo } from '../../support/action-repos.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';
import type { GithubSim } from '../../support/github-sim/index.js';
import { startGithubSim } from '../../support/github-sim/index.js';

let sim: GithubSim;
let repo: FixtureRepo;
let scratch: string;
let shas: { jsSha: string; compositeSha: string; dockerSha: string };

beforeAll(async () => {
  sim = await startGithubSim();
  shas = await createActionRepos(sim);
  repo = createFixtureRepo({ 'src/a.py': 'x = 1\n' });
  scratch = mkdtempSync(join(tmpdir(), 'actions-cache-'));
});
afterAll(async () => {
  await sim.close();
  repo.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

const settings = (name: string, extra: Partial<ActionSettings> = {}): ActionSettings => ({ baseUrl: sim.url, mode: 'online', cacheDir: join(scratch, name), ...extra });
const gitRequests = (): number => Object.entries(sim.counters.snapshot()).filter(([k]) => k.includes('.git/')).reduce((n, [, v]) => n + v, 0);

const JS_WORKFLOW = `
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - id: greet
        name: first greeting
        uses: acme/js-action@v1
        with:
          who: Ada
      - run: echo "out=\${{ steps.greet.outputs.message }} legacy=\${{ steps.greet.outputs.legacy }} env=$GREETED"
      - name: second greeting
        uses: acme/js-action@v1
        with:
          who: Bob
          colour: blue
`;

/** One JavaScript action step (its pre, main and post stages). */
const SMALL_WORKFLOW = 'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/js-action@v1\n        with:\n          who: Cy\n';

describe('marketplace actions from the simulator git server', () => {
  it('runs a JavaScript action with pre/post stages, inputs, outputs, state and workflow commands', async () => {
    const { result, log } = await runFixtureWorkflow(repo, JS_WORKFLOW, { actions: settings('js') });
    const job = result.jobs[0];
    const text = log('build');
    const lines = logLines(text);
    expect(job?.conclusion, text).toBe('success');
    expect(job?.steps.map((s) => s.name)).toEqual([
      'Set up job', 'Pre first greeting', 'Pre second greeting', 'first greeting',
      'Run echo "out=Hello Ada legacy=old-style env=$GREETED"',
      'second greeting', 'Post second greeting', 'Post first greeting', 'Complete job',
    ]);
    expect(lines).toContain(`Download action repository 'acme/js-action@v1' (SHA:${shas.jsSha})`);
    expect(lines).toContain('##[group]Run acme/js-action@v1');
    expect(lines).toContain('  greeting: Hello');
    expect(lines).toContain('Hello, Ada!');
    expect(lines).toContain('out=Hello Ada legacy=old-style env=Ada');
    expect(lines).toContain('the secret is ***');
    expect(text).not.toContain('s3cr3t-value');
    expect(lines).toContain('action path ok');
    expect(lines).toContain('pre state in main: ran');
    expect(lines).toContain("##[warning]Unexpected input(s) 'colour', valid inputs are ['who', 'greeting']");
    // post stages in reverse order, each with its own step's state
    const posts = lines.filter((l) => l.startsWith('post cleanup='));
    expect(posts).toEqual(['post cleanup=Bob pre=ran legacy=kept', 'post cleanup=Ada pre=ran legacy=kept']);
    expect(job?.annotations).toContainEqual(expect.objectContaining({ level: 'warning', message: 'careful here', file: 'src/a.py', line: 3 }));
  });

  it('runs a composite action calling another action, with inputs and outputs mapped', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  comp:
    runs-on: ubuntu-latest
    steps:
      - id: c
        uses: acme/composite/greet@v1
        with:
          who: bob
      - run: echo "combined=\${{ steps.c.outputs.combined }} env=$COMPOSITE_ENV"
`,
      { actions: settings('composite') },
    );
    const job = result.jobs[0];
    const text = log('comp');
    const lines = logLines(text);
    expect(job?.conclusion, text).toBe('success');
    expect(lines).toContain(`Download action repository 'acme/composite@v1' (SHA:${shas.compositeSha})`);
    expect(lines).toContain(`Download action repository 'acme/js-action@v1' (SHA:${shas.jsSha})`);
    expect(lines).toContain('composite action path ok');
    expect(lines).toContain('Hi, bob!');
    expect(lines, text).toContain('inner said Hi bob env=set-by-composite');
    expect(lines).toContain('combined=Hi bob|BOB env=set-by-composite');
    expect(lines).not.toContain('never printed');
    // the nested JavaScript action's post stage runs at the end of the job
    expect(job?.steps.map((s) => s.name)).toContain('Post Run acme/js-action@v1');
    expect(lines).toContain('post cleanup=bob pre=undefined legacy=kept');
  });

  it('caches actions: a second run makes no network call', async () => {
    const actions = settings('warm');
    await runFixtureWorkflow(repo, SMALL_WORKFLOW, { actions });
    sim.counters.reset();
    const { result } = await runFixtureWorkflow(repo, SMALL_WORKFLOW, { actions });
    expect(result.jobs[0]?.conclusion).toBe('success');
    expect(gitRequests()).toBe(0);
  });

  it('a step cannot change the cached action through its copy in the job', async () => {
    const actions = settings('tamper');
    const workflow = `${SMALL_WORKFLOW}      - run: echo tampered >> "$GITHUB_WORKSPACE/../../_actions/acme/js-action/${shas.jsSha}/action.yml" || true\n`;
    const { result, log } = await runFixtureWorkflow(repo, workflow, { actions });
    expect(result.jobs[0]?.conclusion, log('build')).toBe('success');
    const cached = readFileSync(join(actions.cacheDir, 'acme', 'js-action', shas.jsSha, 'action.yml'), 'utf8');
    expect(cached).toBe(JS_ACTION['action.yml']);
  });

  it('offline: a cold cache fails at Set up job naming the action; a warm cache runs without network', async () => {
    const cold = await runFixtureWorkflow(repo, SMALL_WORKFLOW, { actions: settings('offline-cold', { mode: 'offline' }) });
    const job = cold.result.jobs[0];
    expect(job?.conclusion).toBe('failure');
    expect(job?.steps[0]).toMatchObject({ name: 'Set up job', conclusion: 'failure' });
    expect(job?.infraError).toMatchObject({ reason: 'action_unavailable', stepNumber: 1 });
    expect(job?.infraError?.message).toContain('acme/js-action@v1');
    expect(cold.log('build')).toContain("##[error]Unable to resolve action `acme/js-action@v1`: it is not in the action cache and LOCAL_ACTIONS=offline");

    await runFixtureWorkflow(repo, SMALL_WORKFLOW, { actions: settings('offline-warm') });
    sim.counters.reset();
    const warm = await runFixtureWorkflow(repo, SMALL_WORKFLOW, { actions: settings('offline-warm', { mode: 'offline' }) });
    expect(warm.result.jobs[0]?.conclusion).toBe('success');
    expect(gitRequests()).toBe(0);
  });

  it('pins: a tag moved after caching does not change the commit a run uses', async () => {
    await sim.createRepo({ owner: 'acme', name: 'moving', files: { 'action.yml': 'name: m\nruns:\n  using: node20\n  main: main.js\n', 'main.js': "console.log('version one')\n" } });
    const first = tagRepo(sim, 'acme/moving', 'v1');
    const workflow = 'on: push\njobs:\n  m:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/moving@v1\n';
    const actions = settings('pinning');
    expect(logLines((await runFixtureWorkflow(repo, workflow, { actions })).log('m'))).toContain('version one');
    await sim.commit('acme/moving', { branch: 'main', message: 'v2', files: { 'main.js': "console.log('version two')\n" } });
    const moved = tagRepo(sim, 'acme/moving', 'v1');
    expect(moved).not.toBe(first);
    const again = logLines((await runFixtureWorkflow(repo, workflow, { actions })).log('m'));
    expect(again).toContain(`Download action repository 'acme/moving@v1' (SHA:${first})`);
    expect(again).toContain('version one');
    // a fresh cache resolves the moved tag
    const fresh = logLines((await runFixtureWorkflow(repo, workflow, { actions: settings('pinning-fresh') })).log('m'));
    expect(fresh).toContain(`Download action repository 'acme/moving@v1' (SHA:${moved})`);
    expect(fresh).toContain('version two');
  });

  it('fetches a private action with a token that never reaches the log', async () => {
    sim.createInstallation({ account: 'secretco' });
    await sim.createRepo({ owner: 'secretco', name: 'private-action', private: true, files: { 'action.yml': 'name: p\nruns:\n  using: node20\n  main: main.js\n', 'main.js': "console.log('private ok')\n" } });
    tagRepo(sim, 'secretco/private-action', 'v1');
    const installation = [...sim.state.installations.values()].find((i) => i.account.login === 'secretco');
    const token = sim.installationToken(installation?.id ?? 0);
    const workflow = 'on: push\njobs:\n  p:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: secretco/private-action@v1\n';
    const anonymous = await runFixtureWorkflow(repo, workflow, { actions: settings('private-anon') });
    expect(anonymous.result.jobs[0]?.infraError?.reason).toBe('action_unavailable');
    const { result, log } = await runFixtureWorkflow(repo, workflow, { actions: settings('private', { token }), secretValues: [token] });
    expect(result.jobs[0]?.conclusion, log('p')).toBe('success');
    expect(log('p')).toContain('private ok');
    expect(log('p')).not.toContain(token);
  });

  it('uses the built-in stand-ins for their names and says so', async () => {
    sim.counters.reset();
    const { result, log } = await runFixtureWorkflow(
      repo,
      'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: test -f src/a.py\n',
      { actions: settings('builtin') },
    );
    expect(result.jobs[0]?.conclusion).toBe('success');
    expect(logLines(log('b'))).toContain("Using the built-in stand-in for 'actions/checkout@v4' (ci-replay's local executor; the action is not downloaded)");
    expect(gitRequests()).toBe(0);
  });

  it('fails a Docker action at Set up job in host mode', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      'on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/docker-action@v1\n      - uses: docker://alpine:3.20\n',
      { actions: settings('docker') },
    );
    const job = result.jobs[0];
    expect(job?.steps[0]).toMatchObject({ name: 'Set up job', conclusion: 'failure' });
    expect(job?.infraError).toMatchObject({ reason: 'unsupported_feature', stepNumber: 1 });
    expect(log('d')).toContain('##[error]Docker container actions are not supported by the local executor here: the job runs on the host (no container runtime) (acme/docker-action@v1)');
  });

  it('fails at Set up job for an unknown repository or version', async () => {
    const workflow = (uses: string): string => `on: push\njobs:\n  u:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ${uses}\n`;
    const missingRepo = await runFixtureWorkflow(repo, workflow('acme/nope@v1'), { actions: settings('unknown') });
    expect(missingRepo.result.jobs[0]?.infraError?.reason).toBe('action_unavailable');
    expect(missingRepo.log('u')).toContain('##[error]Unable to resolve action `acme/nope@v1`');
    const missingTag = await runFixtureWorkflow(repo, workflow('acme/js-action@v9'), { actions: settings('unknown') });
    expect(missingTag.result.jobs[0]?.infraError?.reason).toBe('action_unavailable');
    expect(missingTag.log('u')).toContain('##[error]Unable to resolve action `acme/js-action@v9`, unable to find version `v9`');
  });
});
