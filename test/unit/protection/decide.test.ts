import { describe, expect, it } from 'vitest';
import { decideProtection, defaultRuleOf, validateProtectedPaths, type DecideInput, type Side } from '../../../src/protection/index.js';

const WORKFLOW = 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pip install -e .\n      - name: Run tests\n        run: pytest\n';
const SETUP_CFG = '[options]\ninstall_requires =\n    requests\n\n[tool:pytest]\naddopts = -q\n';

/** Files on each side; a path absent from a side's map is read from the base. */
type Files = Partial<Record<Side, Record<string, string | null>>>;

function input(files: Files, overrides: Partial<DecideInput> = {}): DecideInput {
  const candidate = files.candidate ?? {};
  const truth = files.groundTruth ?? {};
  return {
    policy: { dataset: 'ci-repair-bench', protection: 'ground-truth', protectedPaths: [] },
    instancePaths: [],
    touched: Object.keys(candidate),
    groundTruth: { touched: new Set(Object.keys(truth)), applies: true },
    async read(side, path) {
      const own = files[side] ?? {};
      if (path in own) return own[path] ?? null;
      return files.base?.[path] ?? null;
    },
    ...overrides,
  };
}

describe('defaultRuleOf', () => {
  it.each([
    ['.github/workflows/ci.yml', 'file'], ['.github/actions/setup/action.yml', 'file'], ['.github/dependabot.yml', 'file'],
    ['tests/test_app.py', 'file'], ['test/data.json', 'file'], ['pkg/sub/tests/helpers.py', 'file'], ['src/pkg/test/x.py', 'file'], ['testing/util.py', 'file'],
    ['test_root.py', 'file'], ['src/pkg/core_test.py', 'file'], ['src/pkg/core_tests.py', 'file'],
    ['conftest.py', 'file'], ['src/pkg/conftest.py', 'file'], ['pytest.ini', 'file'], ['tox.ini', 'file'], ['noxfile.py', 'file'], ['.coveragerc', 'file'],
    ['setup.cfg', 'sections'], ['pkg/pyproject.toml', 'sections'],
  ])('%s is protected (%s)', (path, kind) => {
    expect(defaultRuleOf(path)?.kind).toBe(kind);
  });

  it.each(['src/pkg/core.py', 'requirements.txt', 'setup.py', 'docs/testing.md', 'src/pkg/testing.py', 'src/contest.py', 'README.md'])('%s is not protected', (path) => {
    expect(defaultRuleOf(path)).toBeNull();
  });
});

describe('decideProtection', () => {
  it('ground-truth policy: protected edits the ground truth does not make are reverted, code edits kept, each with why', async () => {
    const decisions = await decideProtection(input({
      base: { 'conftest.py': null, 'tests/test_app.py': 'def test_add(): assert add(1, 2) == 3\n' },
      candidate: { 'src/app.py': 'fixed', 'conftest.py': 'def pytest_runtest_makereport(item, call): ...\n', 'tests/test_app.py': 'def test_add(): pass\n' },
      groundTruth: { 'src/app.py': 'fixed' },
    }));
    expect(decisions).toEqual([
      { path: 'conftest.py', action: 'revert', why: 'pytest configuration (conftest.py): the ground truth does not edit this file' },
      { path: 'src/app.py', action: 'keep', why: null },
      { path: 'tests/test_app.py', action: 'revert', why: 'a test folder (tests/**, test/**, testing/**): the ground truth does not edit this file' },
    ]);
  });

  it('a test file the ground truth edits too is kept', async () => {
    const decisions = await decideProtection(input({ candidate: { 'tests/test_app.py': 'new' }, groundTruth: { 'tests/test_app.py': 'other' } }));
    expect(decisions).toEqual([{ path: 'tests/test_app.py', action: 'keep', why: 'a test folder (tests/**, test/**, testing/**): the ground truth edits this file too' }]);
  });

  it('a workflow edit is kept only when it runs what the ground truth runs', async () => {
    const sanctioned = WORKFLOW.replace('      - run: pip install -e .\n', '      - run: pip install -e .\n      - run: pip install x\n');
    const kept = await decideProtection(input({ base: { '.github/workflows/ci.yml': WORKFLOW }, candidate: { '.github/workflows/ci.yml': sanctioned }, groundTruth: { '.github/workflows/ci.yml': sanctioned } }));
    expect(kept).toEqual([{ path: '.github/workflows/ci.yml', action: 'keep', why: "the ground truth edits this file too, and the candidate's version runs the same checks under the same conditions" }]);
    const neutered = sanctioned.replace('run: pytest', 'run: echo skip && true');
    const reverted = await decideProtection(input({ base: { '.github/workflows/ci.yml': WORKFLOW }, candidate: { '.github/workflows/ci.yml': neutered }, groundTruth: { '.github/workflows/ci.yml': sanctioned } }));
    expect(reverted).toEqual([{ path: '.github/workflows/ci.yml', action: 'revert', why: "step 'Run tests' of job test runs `echo skip && true` where the ground truth runs `pytest`" }]);
    const untouched = await decideProtection(input({ base: { '.github/workflows/ci.yml': WORKFLOW }, candidate: { '.github/workflows/ci.yml': sanctioned } }));
    expect(untouched).toEqual([{ path: '.github/workflows/ci.yml', action: 'revert', why: 'CI configuration (.github/**): the ground truth does not edit this file' }]);
  });

  it('a ground truth that does not apply cannot sanction a workflow edit', async () => {
    const decisions = await decideProtection(input(
      { base: { '.github/workflows/ci.yml': WORKFLOW }, candidate: { '.github/workflows/ci.yml': `${WORKFLOW}# x\n` } },
      { groundTruth: { touched: new Set(['.github/workflows/ci.yml']), applies: false } },
    ));
    expect(decisions[0]).toMatchObject({ action: 'revert', why: expect.stringContaining('does not apply') });
  });

  it('setup.cfg: the pytest section is restored, the dependency edit kept (merge)', async () => {
    const candidate = SETUP_CFG.replace('    requests\n', '    requests\n    urllib3<2\n').replace('addopts = -q', 'addopts = -q -p no:forge');
    const [decision] = await decideProtection(input({ base: { 'setup.cfg': SETUP_CFG }, candidate: { 'setup.cfg': candidate } }));
    expect(decision).toEqual({
      path: 'setup.cfg',
      action: 'merge',
      why: 'restored [tool:pytest]: the ground truth does not edit this section',
      content: SETUP_CFG.replace('    requests\n', '    requests\n    urllib3<2\n'),
    });
  });

  it('explicit paths (instance, dataset) are reverted whatever the ground truth does; policies paths and off skip the default rules', async () => {
    const files = { candidate: { 'tests/test_app.py': 'x', 'conftest.py': 'y', 'data/fixture.json': 'z' }, groundTruth: { 'tests/test_app.py': 'x' } };
    const groundTruth = await decideProtection(input(files, { instancePaths: ['tests/**'], policy: { dataset: 'd', protection: 'ground-truth', protectedPaths: ['data/**'] } }));
    expect(groundTruth.map((decision) => [decision.path, decision.action, decision.why])).toEqual([
      ['conftest.py', 'revert', 'pytest configuration (conftest.py): the ground truth does not edit this file'],
      ['data/fixture.json', 'revert', 'matches the protected path `data/**` of dataset d'],
      ['tests/test_app.py', 'revert', 'matches the protected path `tests/**` of the instance'],
    ]);
    const paths = await decideProtection(input(files, { policy: { dataset: 'd', protection: 'paths', protectedPaths: ['data/**'] } }));
    expect(paths.map((decision) => decision.action)).toEqual(['keep', 'revert', 'keep']);
    const off = await decideProtection(input(files, { instancePaths: ['conftest.py'], policy: { dataset: 'd', protection: 'off', protectedPaths: ['data/**'] } }));
    expect(off.map((decision) => decision.action)).toEqual(['revert', 'keep', 'keep']);
  });

  it('a SWE-sweep subtask test patch is sanctioned', async () => {
    const decisions = await decideProtection(input({ candidate: { 'tests/test_hidden.py': 'x' } }, { sanctioned: new Map([['tests/test_hidden.py', 'the subtask adds it']]) }));
    expect(decisions).toEqual([{ path: 'tests/test_hidden.py', action: 'keep', why: 'the subtask adds it' }]);
  });
});

describe('validateProtectedPaths', () => {
  it('accepts relative globs (trimmed, deduplicated) and refuses absolute, `..`, .git and unbalanced ones with 422', () => {
    expect(validateProtectedPaths([' tests/** ', 'tests/**', '{a,b}/*.py'])).toEqual(['tests/**', '{a,b}/*.py']);
    for (const bad of ['/etc/passwd', 'a/../b', '.git/config', '', 'src/[abc.py']) {
      expect(() => validateProtectedPaths([bad])).toThrow(expect.objectContaining({ code: 'invalid_protected_path', status: 422 }));
    }
  });
});
