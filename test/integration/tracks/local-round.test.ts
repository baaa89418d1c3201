import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../../examples/build-demo.js';
import type { InstanceInput } from '../../../src/db/index.js';
import { collectTestResults } from '../../../src/pipeline/test-results.js';
import { createTrackService, type TrackService } from '../../../src/tracks/index.js';
import { createWorkers, type Workers } from '../../../src/workers.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';
import { waitFor } from '../../support/wait-for.js';

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

/** The standardized template's shape: run pytest with a JUnit report and upload it as the `junit` artifact. */
const WORKFLOW = `name: CI
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: Run tests
        run: python -m pytest -q -p no:cacheprovider --junitxml=reports/junit.xml tests
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: junit
          path: reports/junit.xml
`;

describe('a SWE-CI round end to end on the local backend', () => {
  let env: TestEnv;
  let workers: Workers;
  let demo: Demo;
  let tracks: TrackService;

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_CONCURRENCY: '2' });
    demo = await buildDemo(join(env.dataDir, 'examples'));
    const source = demo.instances.find((instance) => instance.id === 'demo-assertion');
    if (source === undefined) throw new Error('demo-assertion missing');
    const row = source.row;
    const input: InstanceInput = {
      id: 'swe-ci-demo', dataset: 'swe-ci', language: 'Python', repoOwner: 'ci-replay-examples', repoName: 'calc', sourceRepoOwner: null,
      upstreamUrl: demo.upstreamPath, headBranch: null, workflowName: 'CI', workflowFilename: 'ci.yml', workflowPath: '.github/workflows/ci.yml',
      workflow: WORKFLOW, shaFail: String(row.sha_fail), shaSuccess: String(row.sha_success), diff: source.patch, changedFiles: [], commitDate: null,
      logs: [], labels: ['Test Failure'], rawLabels: [], protectedPaths: [], oracleSha: String(row.sha_success), subtasks: null, basePassingTests: [],
      pythonVersion: null, installCommand: null, contentHash: 'demo', metadata: {},
    };
    await env.deps.repos.instances.upsert(input);
    workers = await createWorkers(env.deps);
    tracks = createTrackService({ repos: env.deps.repos, mirrors: env.deps.mirrors, queues: env.deps.queues, logger: env.deps.logger, patchMaxBytes: env.config.limits.patchMaxBytes });
  });
  afterAll(async () => {
    await workers?.close();
    await env?.cleanup();
  });

  /** Waits for the submission to finish, then reads its JUnit artifact (what finalize will do). */
  async function finishedWithResults(id: string): Promise<number> {
    const state = await waitFor(
      async () => {
        const row = await env.deps.repos.submissions.getSummary(id);
        return row !== null && TERMINAL.includes(row.state) && (row.state !== 'completed' || row.verdict !== null) ? row.state : undefined;
      },
      { timeoutMs: 120_000 },
    );
    expect(state).toBe('completed');
    const [run] = await env.deps.repos.ci.runsOf(id);
    if (run === undefined) throw new Error('no run');
    const ref = { repoFullName: run.repoFullName, runId: run.githubRunId.toString(), runAttempt: run.runAttempt };
    return collectTestResults(env.deps, id, ref);
  }

  it('establishes p0/p* from baseline and oracle runs, then scores a round that fixes the bug', async () => {
    const created = await env.deps.submissions.create({ instanceId: 'swe-ci-demo', kind: 'baseline' });
    const oracle = await env.deps.submissions.create({ instanceId: 'swe-ci-demo', kind: 'reference' });
    expect(await finishedWithResults(created.submission.id)).toBe(3);
    expect(await finishedWithResults(oracle.submission.id)).toBe(3);

    const track = await tracks.create({ instanceId: 'swe-ci-demo' });
    expect(track).toMatchObject({ p0: 2, pStar: 3 });
    const round = await tracks.submitRound(track.id, demo.instances.find((instance) => instance.id === 'demo-assertion')?.patch ?? '');
    expect(round).toMatchObject({ roundNumber: 1, state: 'queued' });
    expect(await finishedWithResults(round.submissionId)).toBe(3);
    const view = await tracks.get(track.id);
    expect(view.rounds[0]).toMatchObject({ status: 'valid', passed: 3, normalizedChange: 1, verdict: 'passed' });
    expect(view.score).toMatchObject({ evoScore: 1, solved: true, zeroRegression: true });
  }, 240_000);
});
