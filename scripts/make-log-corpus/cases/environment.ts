import type { CorpusCase } from '../case.js';

/** Runner and host failures, other ecosystems, and successful jobs that print error-looking text. */
export const ENVIRONMENT_CASES: CorpusCase[] = [
  {
    slug: 'environment-error', name: 'disk-full', labels: ['Environment Error'], job: 'build',
    files: {},
    steps: [{ run: 'echo "Writing build cache"\ndd if=/dev/zero of=/dev/full bs=1k count=4' }],
  },
  {
    slug: 'environment-error', name: 'oom-killed', labels: ['Environment Error'], job: 'test',
    files: { 'train.py': 'import os\nimport signal\n\nprint("loading 12 GB dataset into memory", flush=True)\nos.kill(os.getpid(), signal.SIGKILL)\n' },
    steps: [{ run: 'python3 train.py' }],
  },
  {
    slug: 'environment-error', name: 'command-not-found', labels: ['Environment Error'], job: 'install',
    files: {},
    steps: [{ run: 'poetry install --no-root' }],
  },
  {
    slug: 'environment-error', name: 'step-timed-out', labels: ['Environment Error'], job: 'test',
    files: { 'tests/test_slow.py': 'import time\n\n\ndef test_slow():\n    time.sleep(6)\n' },
    steps: [{ run: 'python3 -m pytest -v', killAfterSeconds: 2 }],
  },
  {
    slug: 'environment-error', name: 'job-cancelled', labels: ['Environment Error'], job: 'test',
    files: {},
    steps: [{ run: 'echo "waiting for service"\nsleep 6', killAfterSeconds: 1, killedBy: 'cancel' }],
  },
  {
    slug: 'environment-error', name: 'service-unreachable', labels: ['Environment Error'], job: 'test',
    files: {},
    steps: [{ run: 'curl -sS --fail http://127.0.0.1:9/health' }],
  },
  {
    slug: 'environment-error', name: 'git-clone-unreachable', labels: ['Environment Error'], job: 'build',
    files: {},
    steps: [{ run: 'git clone --depth 1 http://127.0.0.1:9/org/submodule.git vendor/submodule' }],
  },
  // Other ecosystems.
  {
    slug: 'code-linting', name: 'eslint-no-unused-vars', labels: ['Code Linting'], job: 'lint',
    files: { 'eslint.config.js': 'export default [{ rules: { "no-unused-vars": "error", "no-undef": "error" }, languageOptions: { sourceType: "module" } }];\n', 'package.json': '{"type":"module"}\n', 'src/a.js': 'const unused = 1;\nexport function f() {\n  return missing + 1;\n}\n' },
    steps: [{ run: 'eslint src' }],
  },
  {
    slug: 'type-checking', name: 'rustc-mismatched-types', labels: ['Type Checking'], job: 'build',
    files: { 'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n', 'src/main.rs': 'fn main() {\n    let x: i32 = "five";\n    println!("{}", x);\n}\n' },
    steps: [{ run: 'cargo build --offline 2>&1' }],
  },
  {
    slug: 'type-checking', name: 'javac-incompatible-types', labels: ['Type Checking'], job: 'build',
    files: { 'src/Main.java': 'public class Main {\n    public static void main(String[] args) {\n        int n = "five";\n        System.out.println(n);\n    }\n}\n' },
    steps: [{ run: 'javac -d out src/Main.java' }],
  },
  {
    slug: 'syntax-error', name: 'gcc-expected-semicolon', labels: ['Syntax Error'], job: 'build',
    files: { 'src/a.c': '#include <stdio.h>\nint main(void) {\n    printf("hi\\n")\n    return 0;\n}\n', Makefile: 'all:\n\tgcc -Wall -o a src/a.c\n' },
    steps: [{ run: 'make' }],
  },
  // Successful jobs that print error-looking text: no labels.
  {
    slug: 'success', name: 'pytest-pass-error-names', labels: [], job: 'test',
    files: { 'tests/test_errors.py': 'import pytest\n\n\ndef test_raises_assertion_error():\n    print("AssertionError: expected in this test")\n    with pytest.raises(AssertionError):\n        assert 1 == 2\n\n\ndef test_error_message():\n    print("ModuleNotFoundError: No module named \'fake\'")\n    print("Traceback (most recent call last):")\n    assert "error" in "an error"\n' },
    steps: [{ run: 'python3 -m pytest -v -s' }],
  },
  {
    slug: 'success', name: 'lint-ignored-then-tests-pass', labels: [], job: 'ci',
    files: { 'app/__init__.py': '', 'app/core.py': 'import os\n\ndef f():\n    return 1\n', 'tests/test_core.py': 'from app.core import f\n\n\ndef test_f():\n    assert f() == 1\n' },
    steps: [{ run: 'flake8 app || echo "lint failures ignored"' }, { run: 'black --check app || true' }, { run: 'python3 -m pytest -q' }],
  },
  {
    slug: 'success', name: 'handled-traceback', labels: [], job: 'build',
    files: { 'run.py': 'import logging\n\nlogging.basicConfig()\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n    logging.exception("retrying after error")\nprint("error: none, all good")\nprint("No space left on device? no: 40 GB free")\n' },
    steps: [{ run: 'python3 run.py' }],
  },
  {
    slug: 'success', name: 'type-check-clean', labels: [], job: 'typecheck',
    files: { 'app/__init__.py': '', 'app/core.py': 'def add(a: int, b: int) -> int:\n    return a + b\n' },
    steps: [{ run: 'mypy app' }, { run: 'echo "ERROR: this line is only a message"\necho "FAILED tests/test_x.py::test_y - is an example"' }],
  },
  {
    slug: 'success', name: 'pip-warning-ok', labels: [], job: 'install',
    files: {}, setup: 'python3 -m venv .venv',
    steps: [{ run: '.venv/bin/pip install --no-index nonexistent-pkg || echo "optional extra not available, continuing"' }],
  },
];

/** Mixed and multi-step jobs added after the first corpus. */
export const MIXED_CASES: CorpusCase[] = [
  {
    slug: 'dependency-issues', name: 'pytest-import-inside-test', labels: ['Test Failure', 'Dependency Issues'], job: 'test',
    files: { 'tests/test_dates.py': 'def test_today():\n    import pendulum\n\n    assert pendulum.today()\n\n\ndef test_ok():\n    assert 1\n' },
    steps: [{ run: 'python3 -m pytest -q' }],
  },
  {
    slug: 'code-formatting', name: 'flake8-passes-black-fails', labels: ['Code Formatting'], job: 'lint',
    files: { 'app/__init__.py': '', 'app/core.py': "def f(a, b):\n    return {'a': a,\n            'b': b}\n" },
    steps: [{ name: 'flake8', run: 'flake8 app' }, { name: 'black', run: 'black --check app' }],
  },
  {
    slug: 'success', name: 'black-diff-without-check', labels: [], job: 'format',
    files: { 'app/__init__.py': '', 'app/core.py': "x = {  'a':1 }\n" },
    steps: [{ run: 'black --diff app' }, { run: 'python3 -c "print(\'Traceback (most recent call last): just text\')"' }],
  },
];
