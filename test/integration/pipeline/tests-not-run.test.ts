/**
 * checkTestsRun against real pytest: a small project is run by pytest with hostile root conftest.py files (tests
 * deselected, failures rewritten as xfail or skips, setup errors), their JUnit reports stored as TestResult rows and
 * their output as job logs (archived, or where the local executor leaves a run's logs), and each candidate is
 * compared with a reference run of the fixed code. The conftest.py files would also be reverted by the default
 * protection policy; here they are run as-is (as under policy `off`) to prove the check on its own.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeResults, parseJunitXml } from '../../../src/pipeline/test-results.js';
import { checkTestsRun } from '../../../src/pipeline/tests-not-run.js';
import { decideProtection } from '../../../src/protection/index.js';
import { pythonTools } from '../../support/python-tools.js';
import { instanceInput } from '../../support/instance-input.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const exec = promisify(execFile);

const FIXED = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';
const BROKEN = FIXED.replace('return a + b', 'return a - b');
const TESTS = [
  'from calc import add, sub',
  '', '',
  'def test_add():', '    assert add(1, 2) == 3',
  '', '',
  'def test_add_negative():', '    assert add(-1, -2) == -3',
  '', '',
  'def test_sub():', '    assert sub(3, 2) == 1',
  '', '',
  'def test_sub_zero():', '    assert sub(3, 0) == 3',
  '',
].join('\n');

/** Root conftest.py files a candidate could add to make a broken change look green. */
const HOOKS = {
  deselect: [
    'def pytest_collection_modifyitems(config, items):',
    '    hidden = [item for item in items if "add" in item.name]',
    '    config.hook.pytest_deselected(items=hidden)',
    '    items[:] = [item for item in items if item not in hidden]',
    '',
  ].join('\n'),
  xfail: [
    'import pytest', '', '',
    '@pytest.hookimpl(hookwrapper=True)',
    'def pytest_runtest_makereport(item, call):',
    '    outcome = yield',
    '    report = outcome.get_result()',
    '    if report.failed:',
    '        report.outcome = "skipped"',
    '        report.wasxfail = "forged"',
    '',
  ].join('\n'),
  skip: [
    'import pytest', '', '',
    '@pytest.hookimpl(hookwrapper=True)',
    'def pytest_runtest_makereport(item, call):',
    '    outcome = yield',
    '    report = outcome.get_result()',
    '    if report.failed:',
    '        report.outcome = "skipped"',
    '        report.longrepr = (str(item.path), 1, "Skipped: not relevant")',
    '',
  ].join('\n'),
  error: ['def pytest_runtest_setup(item):', '    if "add" in item.name:', '        raise RuntimeError("fixture unavailable")', ''].join('\n'),
  pass: [
    'import pytest', '', '',
    '@pytest.hookimpl(hookwrapper=True)',
    'def pytest_runtest_makereport(item, call):',
    '    outcome = yield',
    '    report = outcome.get_result()',
    '    if report.failed:',
    '        report.outcome = "passed"',
    '',
  ].join('\n'),
} as const;

interface PytestRun {
  log: string;
  junit: string;
}

let env: TestEnv;
let work: string;
let runCounter = 1000;

/** Runs real pytest on the project with `code` and an optional root conftest.py. */
async function pytest(name: string, code: string, conftest?: string, extraTests = ''): Promise<PytestRun> {
  const dir = path.join(work, name);
  await mkdir(path.join(dir, 'tests'), { recursive: true });
  await writeFile(path.join(dir, 'calc.py'), code);
  await writeFile(path.join(dir, 'tests', 'test_calc.py'), TESTS + extraTests);
  if (conftest !== undefined) await writeFile(path.join(dir, 'conftest.py'), conftest);
  const junit = path.join(dir, 'junit.xml');
  const args = ['-m', 'pytest', '-p', 'no:cacheprovider', '-o', 'junit_family=xunit1', `--junitxml=${junit}`, 'tests'];
  const result = await exec(pythonTools.python3, args, { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: dir } }).then(
    (ok) => ok.stdout,
    (failed: { stdout: string }) => failed.stdout,
  );
  // The job log as the executor writes it: GitHub's timestamps, the step group.
  const stamp = '2024-06-01T00:00:00.0000000Z ';
  const log = ['##[group]Run python -m pytest', 'python -m pytest', '##[endgroup]', ...result.split('\n')].map((line) => `${stamp}${line}`).join('\n');
  return { log, junit: await readFile(junit, 'utf8') };
}

async function instance(id: string): Promise<void> {
  await env.deps.repos.instances.upsert(instanceInput(id));
}

/**
 * A finished submission with one run and one job: its JUnit results stored (`junit`), its log archived
 * (`archive`) or left where the local executor leaves a run's logs (`runs`), as a passing run would be.
 */
async function submission(instanceId: string, kind: 'reference' | 'candidate', run: PytestRun, options: { junit: boolean; log: 'archive' | 'runs' }): Promise<string> {
  const [id = ''] = await env.deps.repos.submissions.createMany([
    { instanceId, runId: null, kind, patch: '', patchSha256: createHash('sha256').update('').digest('hex'), idempotencyKey: null, requestHash: null },
  ]);
  runCounter += 1;
  const runId = String(runCounter);
  const jobId = String(runCounter * 10);
  const common = { repoFullName: 'local/acme--calc', runId, runAttempt: 1, headSha: 'b'.repeat(40), headBranch: `ci-replay/${kind}/${id}` };
  await env.deps.repos.ci.applyRunEvent(id, { kind: 'workflow_run', ...common, name: 'CI', path: '.github/workflows/ci.yml', event: 'push', status: 'completed', conclusion: 'success', htmlUrl: null, runStartedAt: null, updatedAt: null });
  const { job } = await env.deps.repos.ci.applyJobEvent(id, {
    kind: 'workflow_job', ...common, jobId, name: 'test', status: 'completed', conclusion: 'success', startedAt: null, completedAt: null, runnerName: null, labels: [], htmlUrl: null,
    steps: [{ number: 1, name: 'Run tests', status: 'completed', conclusion: 'success', startedAt: null, completedAt: null }],
  });
  if (options.junit) await env.deps.repos.ci.saveTestResults(id, mergeResults(parseJunitXml(run.junit)));
  if (options.log === 'archive') {
    const key = `logs/${id}/${jobId}.log`;
    await env.deps.repos.ci.saveJobLog(job.id, { storageKey: key, ...(await env.deps.logStore.put(key, Readable.from([run.log]))) });
  } else {
    await mkdir(path.join(env.config.dataDir, 'runs', runId, 'logs'), { recursive: true });
    await writeFile(path.join(env.config.dataDir, 'runs', runId, 'logs', `${jobId}.log`), run.log);
  }
  await env.deps.repos.submissions.transition(id, ['queued'], 'completed', { verdict: 'passed', completedAt: new Date() });
  return id;
}

const deps = () => ({ repos: env.deps.repos, logStore: env.deps.logStore, backend: env.deps.backend });

beforeAll(async () => {
  env = await createTestEnv();
  work = await mkdtemp(path.join(tmpdir(), 'ci-replay-pytest-'));
});

afterAll(async () => {
  await env?.cleanup();
  await rm(work, { recursive: true, force: true });
});

describe('checkTestsRun with JUnit results (TestResult rows)', () => {
  let reference: string;

  beforeAll(async () => {
    await instance('junit');
    reference = await submission('junit', 'reference', await pytest('reference', FIXED), { junit: true, log: 'archive' });
  });

  it('catches a collection hook that deselects the failing tests', async () => {
    const run = await pytest('deselect', BROKEN, HOOKS.deselect);
    expect(run.log).toMatch(/2 passed, 2 deselected/);
    const id = await submission('junit', 'candidate', run, { junit: true, log: 'runs' });
    expect(await checkTestsRun(deps(), { id, instanceId: 'junit' })).toEqual({
      ok: false,
      basis: 'junit',
      referenceSubmissionId: reference,
      missing: ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_add_negative'],
      candidateOutcomes: { 'tests/test_calc.py::test_add': 'absent', 'tests/test_calc.py::test_add_negative': 'absent' },
      summary: '2 of the 4 tests the reference run executed did not run here: tests/test_calc.py::test_add (not run: missing or deselected), tests/test_calc.py::test_add_negative (not run: missing or deselected)',
    });
  });

  it.each([
    ['xfail', 'xfailed'],
    ['skip', 'skipped'],
    ['error', 'error'],
  ] as const)('catches a hook that rewrites failing tests as %s', async (hook, outcome) => {
    const run = await pytest(hook, BROKEN, HOOKS[hook]);
    const id = await submission('junit', 'candidate', run, { junit: true, log: 'runs' });
    const check = await checkTestsRun(deps(), { id, instanceId: 'junit' });
    expect(check).toMatchObject({ ok: false, basis: 'junit', missing: ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_add_negative'] });
    expect(check.ok ? {} : check.candidateOutcomes).toEqual({ 'tests/test_calc.py::test_add': outcome, 'tests/test_calc.py::test_add_negative': outcome });
  });

  it('passes an honest fix that also adds a test', async () => {
    const run = await pytest('honest', FIXED, undefined, '\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n');
    const id = await submission('junit', 'candidate', run, { junit: true, log: 'runs' });
    expect(await checkTestsRun(deps(), { id, instanceId: 'junit' })).toEqual({ ok: true, basis: 'junit', referenceSubmissionId: reference, summary: 'this run executed all 4 tests the reference run executed' });
  });

  it('a hook that reports failures as passed leaves the same results (not seen here); the default policy reverts its conftest.py', async () => {
    const run = await pytest('pass', BROKEN, HOOKS.pass);
    expect(run.log).toMatch(/4 passed/);
    const id = await submission('junit', 'candidate', run, { junit: true, log: 'runs' });
    expect(await checkTestsRun(deps(), { id, instanceId: 'junit' })).toMatchObject({ ok: true, basis: 'junit' });
    const [decision] = await decideProtection({
      policy: { dataset: 'ci-repair-bench', protection: 'ground-truth', protectedPaths: [] },
      instancePaths: [],
      touched: ['conftest.py'],
      groundTruth: { touched: new Set(['calc.py']), applies: true },
      read: async (side) => (side === 'candidate' ? HOOKS.pass : null),
    });
    expect(decision).toMatchObject({ path: 'conftest.py', action: 'revert' });
  });

  it('a candidate without JUnit results, compared with a reference that has them, misses every test', async () => {
    const id = await submission('junit', 'candidate', await pytest('no-report', FIXED), { junit: false, log: 'runs' });
    expect(await checkTestsRun(deps(), { id, instanceId: 'junit' })).toMatchObject({ ok: false, basis: 'junit', missing: expect.arrayContaining(['tests/test_calc.py::test_sub']) });
  });
});

describe('checkTestsRun from log summaries', () => {
  it('without any reference run it says so', async () => {
    await instance('lonely');
    const id = await submission('lonely', 'candidate', await pytest('lonely', FIXED), { junit: false, log: 'runs' });
    expect(await checkTestsRun(deps(), { id, instanceId: 'lonely' })).toEqual({
      ok: true, basis: 'no_reference', referenceSubmissionId: null, summary: 'no completed reference run of this instance to compare the executed tests with',
    });
  });

  it('compares pytest summaries: fewer executed tests fail with both counts; as many pass', async () => {
    await instance('logs');
    const reference = await submission('logs', 'reference', await pytest('logs-reference', FIXED), { junit: false, log: 'archive' });
    const deselected = await submission('logs', 'candidate', await pytest('logs-deselect', BROKEN, HOOKS.deselect), { junit: false, log: 'runs' });
    const check = await checkTestsRun(deps(), { id: deselected, instanceId: 'logs' });
    expect(check).toMatchObject({ ok: false, basis: 'logs', referenceSubmissionId: reference, counts: { reference: 4, candidate: 2 } });
    expect(check.ok ? '' : check.summary).toMatch(/^2 of the 4 tests the reference run executed did not run here \(reference: test: 4 passed in [\d.]+s; this run: test: 2 passed, 2 deselected in [\d.]+s\)$/);
    const xfailed = await submission('logs', 'candidate', await pytest('logs-xfail', BROKEN, HOOKS.xfail), { junit: false, log: 'runs' });
    expect(await checkTestsRun(deps(), { id: xfailed, instanceId: 'logs' })).toMatchObject({ ok: false, counts: { reference: 4, candidate: 2 } });
    const replaced = await submission('logs', 'candidate', { log: '2024-06-01T00:00:00.0000000Z ##[group]Run echo skip && true\n2024-06-01T00:00:00.0000000Z skip\n', junit: '' }, { junit: false, log: 'runs' });
    expect(await checkTestsRun(deps(), { id: replaced, instanceId: 'logs' })).toMatchObject({
      ok: false, basis: 'logs', counts: { reference: 4, candidate: 0, candidateSummaries: ['no test summary in its logs'] }, summary: expect.stringContaining('this run: no test summary in its logs'),
    });
    const honest = await submission('logs', 'candidate', await pytest('logs-honest', FIXED), { junit: false, log: 'runs' });
    expect(await checkTestsRun(deps(), { id: honest, instanceId: 'logs' })).toMatchObject({ ok: true, basis: 'logs', summary: 'this run executed 4 tests, the reference run 4 (log summaries)' });
  });

  it('a reference whose logs hold no test summary is no reference; unreadable candidate logs are said so', async () => {
    await instance('silent');
    const silent = { log: '2024-06-01T00:00:00.0000000Z flake8 calc.py\n', junit: '' };
    const reference = await submission('silent', 'reference', silent, { junit: false, log: 'archive' });
    const id = await submission('silent', 'candidate', await pytest('silent-candidate', FIXED), { junit: false, log: 'runs' });
    expect(await checkTestsRun(deps(), { id, instanceId: 'silent' })).toMatchObject({ ok: true, basis: 'no_reference', referenceSubmissionId: reference });

    await instance('unread');
    await submission('unread', 'reference', await pytest('unread-reference', FIXED), { junit: false, log: 'archive' });
    const [candidate = ''] = await env.deps.repos.submissions.createMany([
      { instanceId: 'unread', runId: null, kind: 'candidate', patch: '', patchSha256: 'x', idempotencyKey: null, requestHash: null },
    ]);
    expect(await checkTestsRun(deps(), { id: candidate, instanceId: 'unread' })).toMatchObject({ ok: true, basis: 'no_candidate_logs' });
  });
});
