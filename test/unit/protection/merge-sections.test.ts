import { describe, expect, it } from 'vitest';
import { mergeProtectedSections } from '../../../src/protection/index.js';

const SETUP_CFG = `[metadata]
name = demo

[options]
install_requires =
    requests

[tool:pytest]
testpaths = tests
addopts = -q

[coverage:run]
branch = true
`;

const PYPROJECT = `[project]
name = "demo"
dependencies = [
    "requests",
]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-q"

[tool.coverage.run]
branch = true

[tool.black]
line-length = 100
`;

describe('mergeProtectedSections: setup.cfg', () => {
  it('restores an edited [tool:pytest] and keeps the dependency fix in the same file', () => {
    const candidate = SETUP_CFG.replace('    requests\n', '    requests\n    urllib3<2\n').replace('addopts = -q', 'addopts = -q -k "not slow and not test_add"');
    const result = mergeProtectedSections('ini', { base: SETUP_CFG, candidate, groundTruth: SETUP_CFG });
    expect(result).toEqual({ kind: 'merged', restored: ['[tool:pytest]'], kept: [], text: SETUP_CFG.replace('    requests\n', '    requests\n    urllib3<2\n') });
  });

  it('keeps a section the ground truth edits too, restores the one it does not', () => {
    const truth = SETUP_CFG.replace('branch = true', 'branch = false');
    const candidate = SETUP_CFG.replace('branch = true', 'branch = false\nomit = src/*').replace('testpaths = tests', 'testpaths = docs');
    const result = mergeProtectedSections('ini', { base: SETUP_CFG, candidate, groundTruth: truth });
    expect(result).toMatchObject({ kind: 'merged', restored: ['[tool:pytest]'], kept: ['[coverage:run]'] });
    expect(result.kind === 'merged' ? result.text : '').toBe(SETUP_CFG.replace('branch = true', 'branch = false\nomit = src/*'));
  });

  it('removes a protected section the candidate adds and restores one it deletes', () => {
    const added = `${SETUP_CFG}\n[coverage:report]\nfail_under = 0\n`;
    expect(mergeProtectedSections('ini', { base: SETUP_CFG, candidate: added, groundTruth: SETUP_CFG })).toMatchObject({ kind: 'merged', restored: ['[coverage:report]'], text: `${SETUP_CFG}\n` });
    const deleted = SETUP_CFG.replace('[tool:pytest]\ntestpaths = tests\naddopts = -q\n\n', '');
    const restored = mergeProtectedSections('ini', { base: SETUP_CFG, candidate: deleted, groundTruth: SETUP_CFG });
    expect(restored).toMatchObject({ kind: 'merged', restored: ['[tool:pytest]'] });
    expect(restored.kind === 'merged' ? restored.text : '').toContain('[tool:pytest]\ntestpaths = tests\naddopts = -q\n');
  });

  it('edits outside the protected sections leave nothing to do; an all-sanctioned edit is kept', () => {
    const candidate = SETUP_CFG.replace('name = demo', 'name = demo2');
    expect(mergeProtectedSections('ini', { base: SETUP_CFG, candidate, groundTruth: SETUP_CFG })).toEqual({ kind: 'unchanged' });
    const truth = SETUP_CFG.replace('addopts = -q', 'addopts = -q -p no:cacheprovider');
    expect(mergeProtectedSections('ini', { base: SETUP_CFG, candidate: truth, groundTruth: truth })).toEqual({ kind: 'kept', sections: ['[tool:pytest]'] });
  });
});

describe('mergeProtectedSections: pyproject.toml', () => {
  it('restores [tool.pytest.ini_options] and keeps the dependency edit and other tools', () => {
    const candidate = PYPROJECT.replace('    "requests",\n', '    "requests",\n    "urllib3<2",\n').replace('addopts = "-q"', 'addopts = "-q --deselect tests/test_app.py::test_add"').replace('line-length = 100', 'line-length = 120');
    const result = mergeProtectedSections('toml', { base: PYPROJECT, candidate, groundTruth: PYPROJECT });
    expect(result).toEqual({ kind: 'merged', restored: ['[tool.pytest.ini_options]'], kept: [], text: PYPROJECT.replace('    "requests",\n', '    "requests",\n    "urllib3<2",\n').replace('line-length = 100', 'line-length = 120') });
  });

  it('quoted and spaced headers name the same table', () => {
    const candidate = PYPROJECT.replace('[tool.pytest.ini_options]\ntestpaths = ["tests"]', '[ tool . "pytest" . ini_options ]\ntestpaths = ["docs"]');
    expect(mergeProtectedSections('toml', { base: PYPROJECT, candidate, groundTruth: PYPROJECT })).toMatchObject({ kind: 'merged', restored: ['[tool.pytest.ini_options]'] });
  });

  it('a bracketed line inside a multi-line string or array is not a header', () => {
    const base = 'description = """\n[tool.pytest.ini_options]\n"""\nextras = [\n  "[x]",\n]\n';
    const candidate = base.replace('"[x]"', '"[y]"');
    expect(mergeProtectedSections('toml', { base, candidate, groundTruth: base })).toEqual({ kind: 'unchanged' });
  });

  it('test settings written as dotted keys or inline tables outside their table revert the whole file', () => {
    const dotted = `${PYPROJECT}\n[tool]\npytest.ini_options.addopts = "-k nothing"\n`;
    expect(mergeProtectedSections('toml', { base: PYPROJECT, candidate: dotted, groundTruth: PYPROJECT })).toMatchObject({ kind: 'revert', why: expect.stringContaining('pytest.ini_options.addopts') });
    const root = `tool.coverage.report.fail_under = 0\n${PYPROJECT}`;
    expect(mergeProtectedSections('toml', { base: PYPROJECT, candidate: root, groundTruth: PYPROJECT })).toMatchObject({ kind: 'revert' });
    const inline = `${PYPROJECT}\n[project.entry-points]\npytest11 = { forge = "demo.forge" }\n`;
    expect(mergeProtectedSections('toml', { base: PYPROJECT, candidate: inline, groundTruth: PYPROJECT })).toMatchObject({ kind: 'revert' });
    const multiline = `${PYPROJECT}\n[tool]\ntox = {\n  legacy_tox_ini = "[tox]"\n}\n`;
    expect(mergeProtectedSections('toml', { base: PYPROJECT, candidate: multiline, groundTruth: PYPROJECT })).toMatchObject({ kind: 'revert', why: expect.stringContaining('tox = {') });
  });

  it('a pytest plugin registered through entry points is protected like the pytest table', () => {
    const candidate = `${PYPROJECT}\n[project.entry-points.pytest11]\nforge = "demo.forge"\n`;
    expect(mergeProtectedSections('toml', { base: PYPROJECT, candidate, groundTruth: PYPROJECT })).toMatchObject({ kind: 'merged', restored: ['[project.entry-points.pytest11]'], text: `${PYPROJECT}\n` });
  });
});
