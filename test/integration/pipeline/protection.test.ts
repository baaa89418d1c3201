/**
 * Anti-tampering through buildBenchmarkCommit: generated repositories, a ground-truth patch, hostile and
 * sanctioned candidates, the dataset policy from Postgres, and the commit's tree read back with git.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceInput, InstanceRow } from '../../../src/db/index.js';
import { readFileAt } from '../../../src/git/index.js';
import type { PipelineDeps } from '../../../src/pipeline/context.js';
import { buildBenchmarkCommit, type PreparedCommit } from '../../../src/pipeline/prepare.js';
import { pipelineDeps } from '../../../src/workers.js';
import { appendCommits, createFixtureRepo, makePatch, type FixtureCommit, type FixtureRepo } from '../../support/git-fixtures.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const WORKFLOW = `name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: pip install -e .
      - name: Run tests
        run: python -m pytest -q
`;
/** The ground truth's workflow fix: a missing dependency installed in its own step. */
const WORKFLOW_FIXED = WORKFLOW.replace('        run: pip install -e .\n', '        run: pip install -e .\n      - name: Install x\n        run: pip install x\n');
const SETUP_CFG = '[metadata]\nname = calc\n\n[options]\ninstall_requires =\n    requests\n\n[tool:pytest]\naddopts = -q\n';
const BROKEN = 'def add(a, b):\n    return a - b\n';
const FIXED = 'def add(a, b):\n    return a + b\n';
const TEST = 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n';

let env: TestEnv;
let deps: PipelineDeps;
let upstream: FixtureRepo;
let shaFail: string;
let scratch = 0;

/** `git diff sha_fail..(sha_fail + files)`: a patch as a candidate (or the ground truth) would send it. */
async function patchOf(files: FixtureCommit['files']): Promise<string> {
  scratch += 1;
  const [sha = ''] = await appendCommits(upstream.gitDir, [{ files }], `scratch-${scratch}`, shaFail);
  return makePatch(upstream.gitDir, shaFail, sha);
}

async function instance(id: string, dataset: string, extra: Partial<InstanceInput> = {}): Promise<InstanceRow> {
  const diff = await patchOf({ 'calc/__init__.py': FIXED, '.github/workflows/ci.yml': WORKFLOW_FIXED, 'setup.cfg': SETUP_CFG.replace('    requests\n', '    requests\n    x\n') });
  await env.deps.repos.instances.upsert({
    id, dataset, language: 'Python', repoOwner: 'acme', repoName: 'calc', sourceRepoOwner: null, upstreamUrl: upstream.url, headBranch: null,
    workflowName: 'CI', workflowFilename: 'ci.yml', workflowPath: '.github/workflows/ci.yml', workflow: WORKFLOW, shaFail, shaSuccess: null, diff,
    changedFiles: [], commitDate: null, logs: [], labels: ['Dependency Issues'], rawLabels: [], protectedPaths: [], oracleSha: null, subtasks: null,
    basePassingTests: [], pythonVersion: null, installCommand: null, contentHash: id, metadata: {}, ...extra,
  });
  const row = await env.deps.repos.instances.get(id);
  if (row === null) throw new Error('instance not stored');
  return row;
}

async function prepare(row: InstanceRow, patch: string, kind: 'candidate' | 'reference' = 'candidate'): Promise<PreparedCommit> {
  const prepared = await buildBenchmarkCommit(deps, row, { id: `s-${kind}`, patch, kind, createdAt: new Date('2024-06-01T00:00:00Z') });
  if (!prepared.ok) throw new Error(prepared.message);
  return prepared;
}

const fileAt = async (prepared: PreparedCommit, file: string): Promise<string | null> => (await readFileAt(prepared.gitDir, prepared.commitSha, file))?.toString('utf8') ?? null;

beforeAll(async () => {
  env = await createTestEnv();
  deps = await pipelineDeps(env.deps);
  upstream = await createFixtureRepo(path.join(env.dataDir, 'upstream.git'), [
    { message: 'initial', files: { 'calc/__init__.py': FIXED, 'tests/test_calc.py': TEST, '.github/workflows/ci.yml': WORKFLOW, 'setup.cfg': SETUP_CFG } },
    { message: 'break add', files: { 'calc/__init__.py': BROKEN } },
  ]);
  shaFail = upstream.shas[1] ?? '';
});

afterAll(async () => {
  await env?.cleanup();
});

describe('buildBenchmarkCommit with the default ground-truth policy', () => {
  it('reverts a neutered test step even though the ground truth edits the same workflow, and says why', async () => {
    const row = await instance('neutered', 'gt-default');
    const patch = await patchOf({ 'calc/__init__.py': FIXED, '.github/workflows/ci.yml': WORKFLOW_FIXED.replace('python -m pytest -q', 'echo skip && true') });
    const prepared = await prepare(row, patch);
    expect(prepared.revertedFiles).toEqual(['.github/workflows/ci.yml']);
    expect(prepared.standardization.protection).toEqual({
      policy: 'ground-truth',
      reverted: [{ path: '.github/workflows/ci.yml', why: "step 'Run tests' of job test runs `echo skip && true` where the ground truth runs `python -m pytest -q`" }],
      kept: [],
    });
    const installed = await fileAt(prepared, '.github/workflows/ci.yml');
    expect(installed).toContain('python -m pytest -q');
    expect(installed).not.toContain('echo skip');
    expect(installed).not.toContain('pip install x');
    expect(prepared.standardization.markdown).toContain("| `.github/workflows/ci.yml` | step 'Run tests' of job test runs `echo skip && true` where the ground truth runs `python -m pytest -q` |");
    expect(prepared.standardization.report).not.toContainEqual(expect.objectContaining({ reason: expect.stringContaining('the patched workflow was standardized') }));
  });

  it('keeps a workflow edit the ground truth makes too (same commands, other formatting), and standardizes it', async () => {
    const row = await instance('sanctioned', 'gt-default');
    const candidateWorkflow = WORKFLOW.replace('        run: pip install -e .\n', '        run: pip install -e .\n      - { name: "add the missing dependency", run: "pip install x" }\n');
    const patch = await patchOf({ 'calc/__init__.py': FIXED, '.github/workflows/ci.yml': candidateWorkflow });
    const prepared = await prepare(row, patch);
    expect(prepared.revertedFiles).toEqual([]);
    expect(prepared.standardization.protection).toMatchObject({ policy: 'ground-truth', reverted: [], kept: [{ path: '.github/workflows/ci.yml', why: expect.stringContaining('runs the same checks') }] });
    const installed = await fileAt(prepared, '.github/workflows/ci.yml');
    expect(installed).toContain('pip install x');
    expect(installed).toContain('ci-replay/**');
    expect(prepared.standardization.report).toContainEqual(expect.objectContaining({ target: '.github/workflows/ci.yml', reason: expect.stringContaining('the patched workflow was standardized') }));
    expect(await fileAt(prepared, 'calc/__init__.py')).toBe(FIXED);
  });

  it('reverts a root conftest.py and test edits the ground truth does not make, keeps the code fix', async () => {
    const row = await instance('conftest', 'gt-default');
    const hook = 'import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    report = outcome.get_result()\n    if report.failed:\n        report.outcome = "passed"\n';
    const patch = await patchOf({ 'conftest.py': hook, 'tests/test_calc.py': TEST.replace('== 3', '== -1'), 'calc/util.py': 'X = 1\n' });
    const prepared = await prepare(row, patch);
    expect(prepared.revertedFiles).toEqual(['conftest.py', 'tests/test_calc.py']);
    expect(await fileAt(prepared, 'conftest.py')).toBeNull();
    expect(await fileAt(prepared, 'tests/test_calc.py')).toBe(TEST);
    expect(await fileAt(prepared, 'calc/util.py')).toBe('X = 1\n');
    expect(prepared.changes.map((change) => change.path)).not.toContain('conftest.py');
    expect(prepared.standardization.protection.reverted).toEqual([
      { path: 'conftest.py', why: 'pytest configuration (conftest.py): the ground truth does not edit this file' },
      { path: 'tests/test_calc.py', why: 'a test folder (tests/**, test/**, testing/**): the ground truth does not edit this file' },
    ]);
  });

  it('restores the [tool:pytest] section of setup.cfg and keeps the dependency fix in it', async () => {
    const row = await instance('setup-cfg', 'gt-default');
    const candidate = SETUP_CFG.replace('    requests\n', '    requests\n    x\n').replace('addopts = -q', 'addopts = -q -p no:randomly --deselect tests/test_calc.py::test_add');
    const prepared = await prepare(row, await patchOf({ 'setup.cfg': candidate }));
    expect(await fileAt(prepared, 'setup.cfg')).toBe(SETUP_CFG.replace('    requests\n', '    requests\n    x\n'));
    expect(prepared.revertedFiles).toEqual(['setup.cfg']);
    expect(prepared.standardization.protection.reverted).toEqual([{ path: 'setup.cfg', why: 'restored [tool:pytest]: the ground truth does not edit this section' }]);
  });

  it('does not filter the reference (the ground truth itself)', async () => {
    const row = await instance('reference', 'gt-default');
    const prepared = await prepare(row, row.diff, 'reference');
    expect(prepared.revertedFiles).toEqual([]);
    expect(prepared.standardization.protection).toMatchObject({ reverted: [], notApplied: 'reference submissions are not filtered' });
    expect(await fileAt(prepared, '.github/workflows/ci.yml')).toContain('pip install x');
  });
});

describe('buildBenchmarkCommit with stored dataset policies', () => {
  it('off: the candidate keeps its conftest.py and workflow edit; the instance paths still apply', async () => {
    await env.deps.repos.datasetPolicies.save('lenient', { protection: 'off', protectedPaths: ['calc/**'] });
    const row = await instance('off', 'lenient', { protectedPaths: ['tests/**'] });
    const patch = await patchOf({ 'conftest.py': 'X = 1\n', 'tests/test_calc.py': '', '.github/workflows/ci.yml': WORKFLOW.replace('python -m pytest -q', 'python -m pytest -q -x'), 'calc/__init__.py': FIXED });
    const prepared = await prepare(row, patch);
    expect(prepared.revertedFiles).toEqual(['tests/test_calc.py']);
    expect(prepared.standardization.protection).toEqual({ policy: 'off', reverted: [{ path: 'tests/test_calc.py', why: 'matches the protected path `tests/**` of the instance' }], kept: [] });
    expect(await fileAt(prepared, 'conftest.py')).toBe('X = 1\n');
    expect(await fileAt(prepared, 'calc/__init__.py')).toBe(FIXED);
    expect(await fileAt(prepared, '.github/workflows/ci.yml')).toContain('python -m pytest -q -x');
  });

  it('paths: only the dataset and instance globs are reverted', async () => {
    await env.deps.repos.datasetPolicies.save('listed', { protection: 'paths', protectedPaths: ['conftest.py'] });
    const row = await instance('paths', 'listed');
    const patch = await patchOf({ 'conftest.py': 'X = 1\n', 'tests/test_calc.py': `${TEST}\n# note\n` });
    const prepared = await prepare(row, patch);
    expect(prepared.revertedFiles).toEqual(['conftest.py']);
    expect(prepared.standardization.protection.reverted).toEqual([{ path: 'conftest.py', why: 'matches the protected path `conftest.py` of dataset listed' }]);
    expect(await fileAt(prepared, 'tests/test_calc.py')).toBe(`${TEST}\n# note\n`);
  });
});
