import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainerSettings } from '../../../src/executor/container/index.js';
import { createActionRepos, dockerAction, tagRepo } from '../../support/action-repos.js';
import { requireContainerRuntime } from '../../support/container-runtime.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';
import type { GithubSim } from '../../support/github-sim/index.js';
import { startGithubSim } from '../../support/github-sim/index.js';

let sim: GithubSim;
let repo: FixtureRepo;
let scratch: string;
let container: ContainerSettings;
let runtimeBin = 'docker';

beforeAll(async () => {
  const runtime = await requireContainerRuntime();
  container = runtime.settings;
  runtimeBin = runtime.runtime.bin;
  sim = await startGithubSim();
  await createActionRepos(sim);
  await sim.createRepo({ owner: 'acme', name: 'docker-greet', files: dockerAction(runtime.runnerImage) });
  tagRepo(sim, 'acme/docker-greet', 'v1');
  repo = createFixtureRepo({ 'src/a.py': 'x = 1\n' });
  scratch = mkdtempSync(join(tmpdir(), 'actions-container-'));
}, 180_000);
afterAll(async () => {
  // the Docker action images this file built (one per action commit: the simulator's commits differ per run)
  const images = execFileSync(runtimeBin, ['images', '-q', '--filter', 'reference=ci-replay-action/*'], { encoding: 'utf8' }).split('\n').filter((l) => l !== '');
  if (images.length > 0) execFileSync(runtimeBin, ['rmi', '-f', ...new Set(images)], { stdio: 'ignore' });
  await sim?.close();
  repo?.cleanup();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('marketplace actions in a job container', () => {
  it('runs a JavaScript action with the container node and a Docker action built from its Dockerfile', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  ctr:
    runs-on: ubuntu-latest
    steps:
      - uses: acme/js-action@v1
        with:
          who: Container
      - id: d
        uses: acme/docker-greet@v1
        with:
          who: ada
      - run: echo "docker said \${{ steps.d.outputs.greeting }}"
`,
      { actions: { baseUrl: sim.url, mode: 'online', cacheDir: join(scratch, 'cache') }, container },
    );
    const job = result.jobs[0];
    const text = log('ctr');
    const lines = logLines(text);
    expect(job?.conclusion, text).toBe('success');
    expect(lines).toContain('Hello, Container!');
    expect(lines).toContain('post cleanup=Container pre=ran legacy=kept');
    expect(lines.some((l) => l.startsWith('##[group]Build container for action use:'))).toBe(true);
    expect(lines).toContain('hello from docker ada input=ada env=set');
    expect(lines).toContain('docker said hi-ada');
    expect(lines).toContain('##[group]Run acme/docker-greet@v1');
  }, 300_000);
});
