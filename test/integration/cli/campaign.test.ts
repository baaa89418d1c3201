import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../../examples/build-demo.js';
import { createCliSandbox, type CliResult, type CliRunOptions, type CliSandbox } from '../../support/cli-process.js';
import { waitFor } from '../../support/wait-for.js';
import { serviceEntry } from '../../support/service-entry.js';

/** Campaigns from the command line (issue 18): submit a predictions file, resume it, watch the run, show a submission. */
describe('ci-replay submit / watch / show (real processes, real database)', () => {
  let sandbox: CliSandbox;
  let dataDir: string;
  let demo: Demo;
  let env: Record<string, string>;
  let db: pg.Client;
  const workers: ChildProcess[] = [];

  const cli = (args: string[], options: CliRunOptions = {}): Promise<CliResult> => sandbox.cli(args, options);

  const countSubmissions = async (label: string): Promise<number> =>
    Number((await db.query('SELECT count(*) AS n FROM "Submission" s JOIN "Run" r ON r.id = s."runId" WHERE r.label = $1', [label])).rows[0].n);

  const prediction = (instanceId: string, patch: string): string => JSON.stringify({ instance_id: instanceId, model_patch: patch, model_name_or_path: 'test-agent' });

  beforeAll(async () => {
    sandbox = await createCliSandbox({ prefix: 'campaign' });
    ({ dir: dataDir, env } = sandbox);
    demo = await buildDemo(join(dataDir, 'examples'));
    expect((await cli(['migrate'])).code).toBe(0);
    expect((await cli(['import', join(dataDir, 'examples', 'instances.jsonl')])).stdout).toContain('created 4');
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
  }, 600_000);

  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await db?.end();
    await sandbox?.destroy();
  });

  it('lists invalid predictions with their line and submits nothing, unless --skip-invalid', { timeout: 600_000 }, async () => {
    const [first, second] = demo.instances;
    const file = join(dataDir, 'mixed.jsonl');
    await writeFile(
      file,
      [
        prediction(first!.id, first!.candidate),
        prediction('no-such-instance', first!.candidate),
        prediction(second!.id, ''),
        '{"instance_id": "broken',
        prediction(first!.id, 'not a diff at all\n'),
        prediction(demo.instances[2]!.id, 'not a diff at all\n'),
        '',
      ].join('\n'),
    );
    const refused = await cli(['submit', '--run', 'mixed', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('5 of 6 predictions are invalid');
    expect(refused.stderr).toContain('line 2 (no-such-instance): unknown_instance');
    expect(refused.stderr).toContain(`line 3 (${second!.id}): empty_patch`);
    expect(refused.stderr).toMatch(/line 4: invalid_json/);
    expect(refused.stderr).toContain(`line 5 (${first!.id}): duplicate_instance`);
    expect(refused.stderr).toContain(`line 6 (${demo.instances[2]!.id}): patch_invalid: not a unified diff`);
    expect(refused.stderr).toContain('nothing was submitted');
    expect(await countSubmissions('mixed')).toBe(0);

    const skipped = await cli(['submit', '--run', 'mixed', file, '--skip-invalid', '--json']);
    expect(skipped.code).toBe(0);
    const summary = JSON.parse(skipped.stdout) as { submitted: number; invalid: unknown[]; runCreated: boolean };
    expect(summary).toMatchObject({ submitted: 1, runCreated: true });
    expect(summary.invalid).toHaveLength(5);
    expect(await countSubmissions('mixed')).toBe(1);

  });

  it('submits a campaign in batches and resumes on a re-run instead of duplicating (JSONL, JSON array, directory, stdin)', { timeout: 600_000 }, async () => {
    const jsonl = join(dataDir, 'predictions.jsonl');
    await writeFile(jsonl, `${demo.instances.map((instance) => prediction(instance.id, instance.candidate)).join('\n')}\n`);
    const once = await cli(['submit', '--run', 'resume', jsonl, '--batch-size', '3']);
    expect(once.code).toBe(0);
    expect(once.stdout).toMatch(/^run resume \([0-9a-f-]{36}, new\): 4 submitted, 0 already submitted earlier/);
    expect(await countSubmissions('resume')).toBe(4);
    const twice = await cli(['submit', '--run', 'resume', jsonl, '--batch-size', '3', '--json']);
    expect(twice.code).toBe(0);
    expect(JSON.parse(twice.stdout)).toMatchObject({ submitted: 0, alreadySubmitted: 4, batches: [{ index: 0, created: false, accepted: 3 }, { index: 1, created: false, accepted: 1 }] });
    expect(await countSubmissions('resume')).toBe(4);
    const models = (await db.query('SELECT metadata FROM "Run" WHERE label = $1', ['resume'])).rows[0].metadata as { models?: string[] };
    expect(models.models).toEqual(['test-agent']);

    const array = join(dataDir, 'predictions.json');
    await writeFile(array, JSON.stringify(demo.instances.slice(0, 2).map((instance) => ({ instance_id: instance.id, model_patch: instance.candidate })), null, 2));
    expect((await cli(['submit', '--run', 'as-array', array])).stdout).toContain('2 submitted');
    expect(await countSubmissions('as-array')).toBe(2);

    const dir = join(dataDir, 'patches');
    await mkdir(dir);
    for (const instance of demo.instances.slice(0, 3)) await writeFile(join(dir, `${instance.id}.${instance.id.length % 2 === 0 ? 'patch' : 'diff'}`), instance.candidate);
    await writeFile(join(dir, 'README.txt'), 'not a patch');
    expect((await cli(['submit', '--run', 'from-dir', dir])).stdout).toContain('3 submitted');
    expect(await countSubmissions('from-dir')).toBe(3);

    const stdin = `${prediction(demo.instances[0]!.id, demo.instances[0]!.candidate)}\n`;
    expect((await cli(['submit', '--run', 'from-stdin', '-'], { stdin })).stdout).toContain('1 submitted');
    expect(await countSubmissions('from-stdin')).toBe(1);

    const noRun = await cli(['submit', jsonl]);
    expect(noRun.code).toBe(2);
    expect(noRun.stderr).toContain('needs --run');
  });

  it('watch ends with the report and an exit code per ending: complete 0, incomplete 3, --timeout 4', { timeout: 600_000 }, async () => {
    const file = join(dataDir, 'watched.jsonl');
    await writeFile(file, `${demo.instances.slice(0, 3).map((instance) => prediction(instance.id, instance.candidate)).join('\n')}\n`);
    expect((await cli(['submit', '--run', 'watched', file])).code).toBe(0);

    const timedOut = await cli(['watch', 'watched', '--interval', '0.2', '--timeout', '0.5']);
    expect(timedOut.code).toBe(4);
    expect(timedOut.stdout).toMatch(/0\/3 finished; states: queued 3/);
    expect(timedOut.stdout).toContain('stopped by --timeout: 0 of 3 finished');

    // A worker's work, written as the finalize step writes it: two verdicts now, the third while watch polls.
    const finish = async (instanceId: string, outcome: string, state: string, verdict: string | null): Promise<void> => {
      await db.query(
        `UPDATE "Submission" s SET state = $3, outcome = $2, verdict = $4, reason = $5, "observedLabels" = $6, "completedAt" = now(), "updatedAt" = now()
           FROM "Run" r WHERE r.id = s."runId" AND r.label = 'watched' AND s."instanceId" = $1`,
        [instanceId, outcome, state, verdict, outcome === 'passed' ? null : 'ci_failed', outcome === 'failed' ? ['Code Linting'] : []],
      );
    };
    await finish(demo.instances[0]!.id, 'passed', 'completed', 'passed');
    await finish(demo.instances[1]!.id, 'failed', 'completed', 'failed');
    const child = spawn(process.execPath, [...serviceEntry(), 'watch', 'watched', '--interval', '0.2'], { env, cwd: dataDir });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waitFor(async () => (stdout.includes('2/3 finished') ? true : undefined), { timeoutMs: 300_000 });
    expect(stdout).toMatch(/outcomes: failed 1 · passed 1/);
    await finish(demo.instances[2]!.id, 'infra_error', 'infra_error', null);
    expect(await exited).toBe(3);
    expect(stdout).toContain('3/3 finished');
    expect(stdout).toContain('1 without a verdict (infra_error 1)');
    expect(stdout).toContain('Success % strict');

    await db.query(`UPDATE "Submission" s SET state = 'completed', outcome = 'passed', verdict = 'passed' FROM "Run" r WHERE r.id = s."runId" AND r.label = 'watched' AND s.outcome = 'infra_error'`);
    const complete = await cli(['watch', 'watched', '--json']);
    expect(complete.code).toBe(0);
    const result = JSON.parse(complete.stdout) as { watch: { status: string; progress: { byOutcome: Record<string, number>; latestFailures: { errorTypes: string[] }[] }; report: unknown } };
    expect(result.watch.status).toBe('complete');
    expect(result.watch.progress.byOutcome).toEqual({ passed: 2, failed: 1 });
    expect(result.watch.progress.latestFailures[0]!.errorTypes).toEqual(['Code Linting']);
    expect(result.watch.report).toBeTypeOf('object');

  });

  it('submit --watch runs a campaign end to end with a real worker, then show explains a failure', { timeout: 900_000 }, async () => {
    const failing = demo.instances.find((instance) => instance.expected.candidate === 'failed');
    const passing = demo.instances.find((instance) => instance.expected.candidate === 'passed');
    expect(passing).toBeDefined();
    expect(failing).toBeDefined();
    const rows = [passing!, failing!];
    const file = join(dataDir, 'live.jsonl');
    await writeFile(file, `${rows.map((instance) => prediction(instance.id, instance.candidate)).join('\n')}\n`);
    // The earlier tests' submissions are still queued: cancelled (as the REST cancel records it), so the worker ends
    // them without replaying them and this test times only its own two.
    await db.query('UPDATE "Submission" SET "cancelRequestedAt" = now() WHERE "cancelRequestedAt" IS NULL');
    const worker = spawn(process.execPath, [...serviceEntry(), 'worker'], { env: { ...env, WORKER_CONCURRENCY: '2' }, cwd: dataDir, stdio: 'ignore' });
    workers.push(worker);
    const live = await cli(['submit', '--run', 'live', file, '--watch', '--interval', '0.5']);
    worker.kill('SIGTERM');
    expect(live.stdout).toContain(`run live (`);
    expect(live.stdout).toContain(`${rows.length}/${rows.length} finished`);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain(`all ${rows.length} submissions finished with a verdict`);

    const ids = (await db.query(`SELECT s.id, s."instanceId", s.outcome FROM "Submission" s JOIN "Run" r ON r.id = s."runId" WHERE r.label = 'live'`)).rows as { id: string; instanceId: string; outcome: string }[];
    const target = ids.find((row) => row.outcome === 'failed')!;
    expect(target.instanceId).toBe(failing!.id);
    const shown = await cli(['show', target.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`submission ${target.id} (candidate) instance ${target.instanceId}`);
    expect(shown.stdout).toMatch(/CI run \d+ attempt 1: completed/);
    expect(shown.stdout).toContain('Standardization report:');
    expect(shown.stdout).toContain(`/ui/#/submissions/${target.id}`);
    expect(shown.stdout).not.toContain('\u001b[');
    const json = JSON.parse((await cli(['show', target.id, '--json'])).stdout) as { submission: { outcome: string }; runs: { jobs: { name: string; failingSteps: string[]; errorTypes: { type: string; evidence: unknown }[] }[] }[]; logSegments: { segments: unknown[] } | null };
    expect(json.submission.outcome).toBe(target.outcome);
    expect(json.runs[0]!.jobs.length).toBeGreaterThan(0);
    const failedJob = json.runs[0]!.jobs.find((job) => job.failingSteps.length > 0);
    expect(failedJob?.errorTypes.map((label) => label.type)).toContain('Test Failure');
    expect(shown.stdout).toContain('failing steps:');
    expect(json.logSegments?.segments.length).toBeGreaterThan(0);
    expect(shown.stdout).toContain('Log segments (');
    const missing = await cli(['show', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('is not a submission id');
  });
});
