import type { CorpusCase } from '../case.js';

const calc = 'def add(a, b):\n    return a + b + 1\n\n\ndef div(a, b):\n    return a / b\n\n\ndef parse(s):\n    return int(s)\n';
const project = (tests: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'app/__init__.py': '',
  'app/calc.py': calc,
  'tests/__init__.py': '',
  'tests/test_calc.py': tests,
  ...extra,
});

/** Test failures, assertion errors and runtime errors. */
export const TEST_CASES: CorpusCase[] = [
  // Test Failure + Assertion Error
  {
    slug: 'assertion-error', name: 'pytest-assert-equal', labels: ['Test Failure', 'Assertion Error'], job: 'test',
    files: project('from app.calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n\n\ndef test_ok():\n    assert True\n'),
    steps: [{ run: 'python3 -m pytest -q' }],
  },
  {
    slug: 'assertion-error', name: 'pytest-verbose-color', labels: ['Test Failure', 'Assertion Error'], job: 'test',
    files: project('from app.calc import add\n\n\ndef test_add():\n    assert add(1, 1) == 2, "adding is broken"\n\n\ndef test_list():\n    assert [1, 2, 3] == [1, 2, 4]\n'),
    steps: [{ run: 'python3 -m pytest -v --color=yes tests' }],
  },
  {
    slug: 'assertion-error', name: 'unittest-assert-equal', labels: ['Test Failure', 'Assertion Error'], job: 'test',
    files: project('import unittest\n\nfrom app.calc import add\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 2), 4)\n\n    def test_true(self):\n        self.assertTrue(True)\n'),
    steps: [{ run: 'python3 -m unittest discover -v' }],
  },
  {
    slug: 'assertion-error', name: 'pytest-raise-assertion', labels: ['Test Failure', 'Assertion Error'], job: 'test',
    files: project('def check(x):\n    if x != 3:\n        raise AssertionError(f"expected 3, got {x}")\n\n\ndef test_check():\n    check(4)\n'),
    steps: [{ run: 'pip install -e . --no-build-isolation --no-deps 2>/dev/null || true\npython3 -m pytest' }],
  },
  {
    slug: 'assertion-error', name: 'pytest-approx', labels: ['Test Failure', 'Assertion Error'], job: 'test',
    files: project('import pytest\n\nfrom app.calc import div\n\n\n@pytest.mark.parametrize("a,b,want", [(1, 3, 0.3), (1, 2, 0.5)])\ndef test_div(a, b, want):\n    assert div(a, b) == pytest.approx(want)\n'),
    steps: [{ run: 'python3 -m pytest -rA' }],
  },
  {
    slug: 'assertion-error', name: 'node-test-assert', labels: ['Test Failure', 'Assertion Error'], job: 'test',
    files: { 'package.json': '{"name":"demo","type":"module","scripts":{"test":"node --test"}}\n', 'test/calc.test.js': "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\ntest('adds', () => {\n  assert.equal(1 + 1, 3);\n});\n" },
    steps: [{ run: 'npm test' }],
  },
  // Test Failure only
  {
    slug: 'test-failure', name: 'pytest-fail-call', labels: ['Test Failure'], job: 'test',
    files: project('import pytest\n\n\ndef test_feature():\n    pytest.fail("feature flag not wired up")\n'),
    steps: [{ run: 'python3 -m pytest' }],
  },
  {
    slug: 'test-failure', name: 'pytest-did-not-raise', labels: ['Test Failure'], job: 'test',
    files: project('import pytest\n\nfrom app.calc import parse\n\n\ndef test_parse_rejects():\n    with pytest.raises(ValueError):\n        parse("12")\n'),
    steps: [{ run: 'python3 -m pytest -q tests/' }],
  },
  {
    slug: 'test-failure', name: 'pytest-xpass-strict', labels: ['Test Failure'], job: 'test',
    files: project('import pytest\n\n\n@pytest.mark.xfail(strict=True, reason="bug 12")\ndef test_known_bug():\n    assert 1 + 1 == 2\n\n\ndef test_fine():\n    pass\n'),
    steps: [{ run: 'python3 -m pytest -v' }],
  },
  {
    slug: 'test-failure', name: 'pytest-multi-step', labels: ['Test Failure'], job: 'test',
    files: project('import pytest\n\n\n@pytest.mark.parametrize("n", [1, 2, 3])\ndef test_numbers(n):\n    if n == 2:\n        pytest.fail(f"{n} is not allowed")\n'),
    steps: [{ run: 'python3 -m flake8 --version >/dev/null && echo lint ok' }, { name: 'Run tests', run: 'python3 -m pytest -q' }],
  },
  {
    slug: 'test-failure', name: 'cargo-test-panic', labels: ['Test Failure'], job: 'test',
    files: { 'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n', 'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn adds() {\n        if add(1, 1) != 3 { panic!("add is wrong"); }\n    }\n}\n' },
    steps: [{ run: 'cargo test --offline -q 2>&1' }],
  },
  // Runtime Error
  {
    slug: 'runtime-error', name: 'pytest-zero-division', labels: ['Test Failure', 'Runtime Error'], job: 'test',
    files: project('from app.calc import div\n\n\ndef test_div():\n    assert div(1, 0) == 0\n'),
    steps: [{ run: 'python3 -m pytest' }],
  },
  {
    slug: 'runtime-error', name: 'pytest-value-error', labels: ['Test Failure', 'Runtime Error'], job: 'test',
    files: project('from app.calc import parse\n\n\ndef test_parse():\n    assert parse("x1") == 1\n'),
    steps: [{ run: 'python3 -m pytest -q -p no:cacheprovider' }],
  },
  {
    slug: 'runtime-error', name: 'script-traceback', labels: ['Runtime Error'], job: 'build',
    files: { 'scripts/build.py': 'import json\n\n\ndef main():\n    config = json.loads("{}")\n    return config["version"]\n\n\nif __name__ == "__main__":\n    main()\n' },
    steps: [{ run: 'python3 scripts/build.py' }],
  },
  {
    slug: 'runtime-error', name: 'unittest-type-error', labels: ['Test Failure', 'Runtime Error'], job: 'test',
    files: project('import unittest\n\nfrom app.calc import add\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add_str(self):\n        self.assertEqual(add("a", 1), "a1")\n'),
    steps: [{ run: 'python3 -m unittest' }],
  },
  {
    slug: 'runtime-error', name: 'node-type-error', labels: ['Runtime Error'], job: 'build',
    files: { 'index.js': 'const cfg = undefined;\nconsole.log("starting");\nconsole.log(cfg.name);\n' },
    steps: [{ run: 'node index.js' }],
  },
  {
    slug: 'runtime-error', name: 'pytest-fixture-error', labels: ['Test Failure', 'Runtime Error'], job: 'test',
    files: project('import pytest\n\n\n@pytest.fixture\ndef db():\n    raise RuntimeError("database not reachable at init")\n\n\ndef test_query(db):\n    assert db\n', { 'pytest.ini': '[pytest]\n' }),
    steps: [{ run: 'python3 -m pytest' }],
  },
  // Syntax Error
  {
    slug: 'syntax-error', name: 'pytest-collection-syntax', labels: ['Syntax Error'], job: 'test',
    files: project('from app.calc import add\n\n\ndef test_add(:\n    assert add(1, 2) == 4\n'),
    steps: [{ run: 'python3 -m pytest' }],
  },
  {
    slug: 'syntax-error', name: 'flake8-e999', labels: ['Syntax Error'], job: 'lint',
    files: { 'app/__init__.py': '', 'app/core.py': 'def f(x)\n    return x\n' },
    steps: [{ run: 'flake8 app' }],
  },
  {
    slug: 'syntax-error', name: 'black-cannot-parse', labels: ['Syntax Error'], job: 'format',
    files: { 'app/__init__.py': '', 'app/core.py': 'print "hello"\n' },
    steps: [{ run: 'black --check app' }],
  },
  {
    slug: 'syntax-error', name: 'python-indentation', labels: ['Syntax Error'], job: 'build',
    files: { 'main.py': 'def main():\n    x = 1\n      return x\n\nmain()\n' },
    steps: [{ run: 'python3 main.py' }],
  },
  {
    slug: 'syntax-error', name: 'ruff-syntax', labels: ['Syntax Error'], job: 'lint',
    files: { 'app/__init__.py': '', 'app/core.py': 'def f(:\n    pass\n' },
    steps: [{ run: 'ruff check --output-format concise app' }],
  },
  {
    slug: 'syntax-error', name: 'mypy-syntax', labels: ['Syntax Error'], job: 'typecheck',
    files: { 'app/__init__.py': '', 'app/core.py': 'x = [1, 2\ny = 3\n' },
    steps: [{ run: 'mypy app' }],
  },
  {
    slug: 'syntax-error', name: 'tsc-syntax', labels: ['Syntax Error'], job: 'build',
    files: { 'src/a.ts': 'export const x = {\n  a: 1\n  b: 2\n};\n', 'tsconfig.json': '{"compilerOptions":{"noEmit":true},"include":["src"]}\n' },
    steps: [{ run: 'tsc -p tsconfig.json' }],
  },
];
