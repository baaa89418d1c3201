import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { mintToken } from '../../src/auth/tokens.js';
import type { TestEnv } from './test-env.js';

/**
 * A realistic campaign for the dashboard tests: 24 instances over four repositories with the released labels, two
 * runs of one submitter (`agent-v1` still running, `agent-v2` finished), a run of another submitter, one failed
 * submission with its workflow run, jobs, steps, failure labels with evidence and an archived log, and
 * re-validation records with the instances' health.
 */
export interface DashboardFixture {
  operator: string;
  submitterA: string;
  submitterB: string;
  runV1: string;
  runV2: string;
  runOther: string;
  /** The failed submission of agent-v1 with jobs, labels, a log and a check run. */
  failedSubmission: string;
  instances: number;
}

const REPOS = [
  { owner: 'scrapy', name: 'scrapy' },
  { owner: 'pylint-dev', name: 'astroid' },
  { owner: 'python-poetry', name: 'poetry' },
  { owner: 'Textualize', name: 'rich' },
];
const LABELS = [['Code Formatting'], ['Code Linting'], ['Test Failure'], ['Type Checking'], ['Dependency Issues', 'Test Failure'], ['Code Linting', 'Code Formatting']];
const WORKFLOW = 'name: CI\non: [push, pull_request]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: flake8 src\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: pytest -q\n';
const LINT_LOG = [
  '2024-05-02T10:00:00.0000000Z ##[group]Run flake8 src',
  '2024-05-02T10:00:00.1000000Z flake8 src',
  '2024-05-02T10:00:00.2000000Z ##[endgroup]',
  '2024-05-02T10:00:01.0000000Z src/pkg/request.py:41:80: E501 line too long (97 > 79 characters)',
  '2024-05-02T10:00:01.1000000Z src/pkg/request.py:88:1: F401 \'typing.Any\' imported but unused',
  '2024-05-02T10:00:01.2000000Z ##[error]Process completed with exit code 1.',
  '',
].join('\n');

const patchOf = (path: string): string => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-x = 1\n+x = 2\n`;

export async function seedDashboardFixture(env: TestEnv, app: FastifyInstance): Promise<DashboardFixture> {
  const { deps } = env;
  const operator = (await mintToken(deps.repos.tokens, { name: 'ops', role: 'operator' })).token;
  const a = await mintToken(deps.repos.tokens, { name: 'team-a', role: 'submitter' });
  const b = await mintToken(deps.repos.tokens, { name: 'team-b', role: 'submitter' });

  const rows = Array.from({ length: 24 }, (_, index) => {
    const repo = REPOS[index % REPOS.length]!;
    return {
      id: `${repo.owner}__${repo.name}-${1000 + index}`,
      language: 'Python',
      repo_owner: repo.owner,
      repo_name: repo.name,
      head_branch: 'main',
      workflow_name: 'CI',
      workflow_filename: 'ci.yml',
      workflow_path: '.github/workflows/ci.yml',
      workflow: WORKFLOW,
      sha_fail: createHash('sha1').update(`fail-${index}`).digest('hex'),
      sha_success: createHash('sha1').update(`ok-${index}`).digest('hex'),
      diff: patchOf(`src/module_${index}.py`),
      changed_files: [`src/module_${index}.py`],
      commit_date: `2024-0${1 + (index % 9)}-1${index % 10}T12:00:00Z`,
      logs: [{ step_name: 'lint', log: LINT_LOG }],
      error_type: LABELS[index % LABELS.length]!,
    };
  });
  const imported = await app.inject({ method: 'POST', url: '/v1/instances:import', headers: { authorization: `Bearer ${operator}` }, payload: rows });
  if (imported.statusCode >= 300) throw new Error(`fixture import failed: ${imported.body}`);

  const createRun = async (token: string, label: string): Promise<string> => {
    const response = await app.inject({ method: 'POST', url: '/v1/runs', headers: { authorization: `Bearer ${token}` }, payload: { label, metadata: { model: label } } });
    return response.json().id as string;
  };
  const runV1 = await createRun(a.token, 'agent-v1');
  const runV2 = await createRun(a.token, 'agent-v2');
  const runOther = await createRun(b.token, 'team-b-secret-model');

  const client = new pg.Client({ connectionString: env.config.databaseUrl, options: `-c search_path=${env.schema}` });
  await client.connect();
  try {
    const insertSubmission = async (runId: string, ownerTokenId: string, instanceId: string, fields: { state: string; outcome: string | null; verdict: string | null; reason: string | null; observed?: string[]; minutesAgo: number }) => {
      const id = randomUUID();
      const patch = patchOf(`src/fix_${instanceId}.py`);
      const created = new Date(Date.now() - fields.minutesAgo * 60_000);
      const completed = fields.outcome === null ? null : new Date(created.getTime() + 4 * 60_000);
      await client.query(
        `INSERT INTO "Submission" ("id","runId","instanceId","kind","patch","patchSha256","state","verdict","outcome","reason","ownerTokenId","branch","headSha","observedLabels","revertedFiles","createdAt","updatedAt","completedAt","attempt")
         VALUES ($1,$2,$3,'candidate',$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,'{}',$14,$14,$15,1)`,
        [id, runId, instanceId, patch, createHash('sha256').update(patch).digest('hex'), fields.state, fields.verdict, fields.outcome, fields.reason, ownerTokenId, `ci-replay/${runId.slice(0, 8)}/${id}`, createHash('sha1').update(id).digest('hex'), fields.observed ?? [], created, completed],
      );
      return id;
    };
    // agent-v1: 20 of 24 submitted, 16 finished (mixed outcomes), 4 still running.
    const v1Plan = ['passed', 'failed', 'passed', 'infra_error', 'passed', 'failed', 'patch_failed', 'passed', 'timed_out', 'passed', 'failed', 'passed', 'no_run', 'passed', 'failed', 'passed', 'running', 'running', 'queued', 'preparing'];
    let failedSubmission = '';
    for (const [index, plan] of v1Plan.entries()) {
      const instanceId = rows[index]!.id;
      const finished = !['running', 'queued', 'preparing'].includes(plan);
      const state = !finished ? plan : plan === 'passed' || plan === 'failed' ? 'completed' : plan === 'infra_error' ? 'infra_error' : plan;
      const reason = { failed: 'step_failed', infra_error: 'runner_lost', patch_failed: 'patch_does_not_apply', timed_out: 'timed_out', no_run: 'no_run' }[plan] ?? null;
      const id = await insertSubmission(runV1, a.id, instanceId, {
        state,
        outcome: finished ? plan : null,
        verdict: plan === 'passed' ? 'passed' : plan === 'failed' ? 'failed' : null,
        reason,
        observed: plan === 'failed' ? rows[index]!.error_type : [],
        minutesAgo: 60 - index,
      });
      if (plan === 'failed' && failedSubmission === '') failedSubmission = id;
    }
    // agent-v2: all 24 finished, better on linting.
    for (const [index, row] of rows.entries()) {
      const outcome = index % 3 === 2 ? 'failed' : index === 7 ? 'infra_error' : 'passed';
      await insertSubmission(runV2, a.id, row.id, {
        state: outcome === 'infra_error' ? 'infra_error' : 'completed',
        outcome,
        verdict: outcome === 'infra_error' ? null : outcome,
        reason: outcome === 'failed' ? 'step_failed' : outcome === 'infra_error' ? 'runner_lost' : null,
        observed: outcome === 'failed' ? row.error_type : [],
        minutesAgo: 240 - index,
      });
    }
    for (const row of rows.slice(0, 5)) await insertSubmission(runOther, b.id, row.id, { state: 'completed', outcome: 'passed', verdict: 'passed', reason: null, minutesAgo: 300 });

    // The failed submission's CI records: one workflow run, a failed lint job with evidence, a passing test job.
    const standardization = { template: 'python-flake8-pytest', matrix: { strategy: 'from-logs', chosen: { 'python-version': '3.11' } }, removedSteps: ['codecov upload'], pinned: false };
    await client.query(`UPDATE "Submission" SET "checkRunId" = 29876543210, "standardization" = $2, "startedAt" = "createdAt", "publishedAt" = "createdAt" WHERE "id" = $1`, [failedSubmission, standardization]);
    const runRowId = randomUUID();
    await client.query(
      `INSERT INTO "WorkflowRun" ("id","submissionId","githubRunId","runAttempt","repoFullName","headSha","status","conclusion","outcome","outcomeReason","htmlUrl","updatedAt")
       VALUES ($1,$2,9123456789,1,'ci-replay-bench/scrapy--scrapy','abc','completed','failure','failed','step_failed','https://github.com/ci-replay-bench/scrapy--scrapy/actions/runs/9123456789',now())`,
      [runRowId, failedSubmission],
    );
    const lintJob = randomUUID();
    const testJob = randomUUID();
    await client.query(
      `INSERT INTO "Job" ("id","workflowRunId","githubJobId","name","status","conclusion","failedStep","outcome","outcomeReason","updatedAt","startedAt","completedAt")
       VALUES ($1,$3,31000000001,'lint','completed','failure','Run flake8 src','failed','step_failed',now(),now() - interval '3 minutes',now()),
              ($2,$3,31000000002,'test','completed','success',NULL,'passed',NULL,now(),now() - interval '3 minutes',now())`,
      [lintJob, testJob, runRowId],
    );
    for (const [job, steps] of [[lintJob, [['Set up job', 'success'], ['Run actions/checkout@v4', 'success'], ['Run flake8 src', 'failure']]], [testJob, [['Set up job', 'success'], ['Run actions/checkout@v4', 'success'], ['Run pytest -q', 'success']]]] as const) {
      for (const [index, [name, conclusion]] of steps.entries()) {
        await client.query(`INSERT INTO "Step" ("id","jobId","number","name","status","conclusion") VALUES ($1,$2,$3,$4,'completed',$5)`, [randomUUID(), job, index + 1, name, conclusion]);
      }
    }
    const evidence = (line: number, text: string, rule: string) => ({ startLine: line, endLine: line, text, tool: 'flake8', rule });
    await client.query(
      `INSERT INTO "FailureLabel" ("id","submissionId","jobId","type","tool","stepName","evidence") VALUES ($1,$2,$3,'Code Linting','flake8','Run flake8 src',$4), ($5,$2,$3,'Code Formatting','flake8','Run flake8 src',$6)`,
      [
        randomUUID(),
        failedSubmission,
        lintJob,
        JSON.stringify([evidence(5, "src/pkg/request.py:88:1: F401 'typing.Any' imported but unused", 'F401')]),
        randomUUID(),
        JSON.stringify([evidence(4, 'src/pkg/request.py:41:80: E501 line too long (97 > 79 characters)', 'E501')]),
      ],
    );
    const storageKey = `submissions/${failedSubmission}/jobs/31000000001`;
    const stored = await deps.logStore.put(storageKey, Readable.from([LINT_LOG]));
    await client.query(`INSERT INTO "JobLog" ("id","jobId","storageKey","sizeBytes","sha256","compressed") VALUES ($1,$2,$3,$4,$5,true)`, [randomUUID(), lintJob, storageKey, stored.sizeBytes, stored.sha256]);

    // Re-validation records and the health they set.
    const health = ['healthy', 'healthy', 'flaky', 'healthy', 'drifted', 'healthy', 'flaky', 'unreplayable', 'healthy', 'healthy', 'flaky', 'healthy'];
    for (const [index, result] of health.entries()) {
      const instanceId = rows[index]!.id;
      const counts = {
        baselineFailed: result === 'drifted' || result === 'unreplayable' ? 0 : 2,
        baselinePassed: result === 'drifted' ? 2 : 0,
        referencePassed: result === 'flaky' ? 1 : result === 'unreplayable' ? 0 : 2,
        referenceFailed: result === 'flaky' ? 1 : 0,
        infra: result === 'unreplayable' ? 4 : 0,
        invalid: 0,
      };
      const completed = new Date(Date.now() - (index + 1) * 3600_000);
      await client.query(
        `INSERT INTO "Revalidation" ("id","instanceId","status","result","submissionIds","details","startedAt","completedAt") VALUES ($1,$2,'completed',$3,$4,$5,$6,$7)`,
        [randomUUID(), instanceId, result, [randomUUID()], { counts, backend: 'local', repeats: 2 }, new Date(completed.getTime() - 600_000), completed],
      );
      await client.query(`UPDATE "Instance" SET "health" = $2, "healthCheckedAt" = $3 WHERE "id" = $1`, [instanceId, result, completed]);
    }
    return { operator, submitterA: a.token, submitterB: b.token, runV1, runV2, runOther, failedSubmission, instances: rows.length };
  } finally {
    await client.end();
  }
}
