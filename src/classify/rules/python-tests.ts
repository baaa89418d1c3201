import { CMD } from './commands.js';
import { fileLineFinding, type Rule } from './rule.js';

/** pytest and unittest: failed tests, assertion errors, exceptions. */
export const PYTHON_TEST_RULES: Rule[] = [
  // Tests.
  {
    id: 'pytest-import-error-location',
    type: 'Dependency Issues',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^(\S+\.py):(\d+): (ModuleNotFoundError|ImportError)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
    example: { command: 'python -m pytest', lines: ['tests/test_dates.py:2: ModuleNotFoundError'] },
  },
  {
    id: 'pytest-syntax-error-location',
    type: 'Syntax Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^(\S+\.py):(\d+): (SyntaxError|IndentationError|TabError)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
    example: { command: 'python -m pytest', lines: ['tests/test_eval.py:4: SyntaxError'] },
  },
  {
    id: 'pytest-assert-location',
    type: 'Assertion Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^(\S+\.py):(\d+): (AssertionError)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
    example: { command: 'python -m pytest', lines: ['tests/test_calc.py:5: AssertionError'] },
  },
  {
    id: 'pytest-error-location',
    type: 'Runtime Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^(\S+\.py):(\d+): (\w+(?:\.\w+)*(?:Error|Exception|Exit|Interrupt))$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
    example: { command: 'python -m pytest', lines: ['app/calc.py:9: ZeroDivisionError'] },
  },
  {
    // The source line pytest marks with `>` in a failure's report, when it is an assertion (a report cut before its
    // `E` lines, as a log quoted or stored in part is). An assert whose expression raised has an `E` line another
    // rule reads: the marked line yields to it.
    id: 'pytest-failing-assert-line',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'pytest',
    yieldsTo: ['Runtime Error', 'Dependency Issues', 'Syntax Error', 'Type Checking', 'Environment Error', 'Configuration Error'],
    commandPattern: CMD.pytest,
    linePattern: /^>\s+(?:assert\b|self\.assert[A-Z]\w*\()/,
    context: { before: 2 },
    example: { command: 'python -m pytest', lines: ['    def test_default(self) -> None:', '>       self.assertIn(\'setdefault("x", False)\', content)'] },
  },
  {
    // pytest's explanation of a failed assert (`+  where False = <built-in method all …>()`), shown even when the
    // `E` markers are lost in a copy; right under the `assert` line or another explanation line (a diff's added
    // `where` clause is not one).
    id: 'pytest-assert-explanation',
    type: 'Assertion Error',
    tool: 'pytest',
    previousPattern: /^\s*(?:E\s+)?(?:assert\b|\+\s+(?:where|and)\b)/,
    linePattern: /^\s*(?:E\s+)?\+\s+where \S.* = \S/,
    context: { before: 2 },
    example: { command: 'make test', lines: ['assert (watt2dbm(si.signal) == target).all()', 'assert False', ' +  where False = <built-in method all of numpy.ndarray object at 0x7f01c0ca94d0>()'] },
  },
  {
    id: 'pytest-assertion',
    type: 'Assertion Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^E\s+(?:AssertionError\b|assert )/,
    context: { after: 2 },
    example: { command: 'python -m pytest', lines: ['E       assert 4 == 5'] },
  },
  {
    // An import that failed inside a test module or conftest (`ImportError while loading conftest`): the guide's
    // Dependency Issues, not an exception of the code under test.
    id: 'pytest-import-exception',
    type: 'Dependency Issues',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^E\s+(?:ModuleNotFoundError|ImportError)(?::|$)/,
    example: { command: 'python -m pytest', lines: ['E   ImportError: Error importing numpy: you should not try to import numpy from'] },
  },
  {
    id: 'pytest-exception',
    type: 'Runtime Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^E\s+(\w+(?:\.\w+)*(?:Error|Exception|Exit|Interrupt|Warning))(?::|$)/,
    example: { command: 'python -m pytest', lines: ['E       ZeroDivisionError: division by zero'] },
  },
  {
    // A test module that failed to import, as the short test summary names it (`ERROR path.py - Exception: …`).
    id: 'pytest-collection-syntax',
    type: 'Syntax Error',
    tool: 'pytest',
    linePattern: /^ERROR [^\s:]+\.py - (?:SyntaxError|IndentationError|TabError)\b/,
    example: { command: 'python -m pytest', lines: ['ERROR tests/test_api.py - SyntaxError: invalid syntax'] },
  },
  {
    id: 'pytest-collection-import',
    type: 'Dependency Issues',
    tool: 'pytest',
    linePattern: /^ERROR [^\s:]+\.py - (?:ModuleNotFoundError|ImportError)\b/,
    example: { command: 'python -m pytest', lines: ["ERROR tests/test_api.py - ModuleNotFoundError: No module named 'numpy'"] },
  },
  {
    id: 'pytest-collection-exception',
    type: 'Runtime Error',
    tool: 'pytest',
    linePattern: /^ERROR [^\s:]+\.py - (?!AssertionError)(?:\w+\.)*\w+(?:Error|Exception)\b/,
    example: { command: 'python -m pytest', lines: ["ERROR tests/test_api.py - NameError: name 'client' is not defined"] },
  },
  {
    // The short test summary names the exception when the rest of the log is cut.
    id: 'pytest-summary-exception',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^(?:FAILED|ERROR) [^\s:]+(?:::[^\s:]+)+ - (?!AssertionError|assert |ModuleNotFoundError|ImportError)(?:\w+\.)*\w+(?:Error|Exception)\b/,
    example: { command: 'python -m pytest', lines: ["FAILED tests/test_app.py::test_metrics - KeyError: 'token'"] },
  },
  {
    // A test that could not import what it needs: the summary line names the ImportError the exception rule leaves out.
    id: 'pytest-summary-import',
    type: 'Dependency Issues',
    also: 'Test Failure',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^(?:FAILED|ERROR) [^\s:]+(?:::[^\s:]+)+ - (?:ModuleNotFoundError: No module named |ImportError: )/,
    example: { command: 'python -m pytest', lines: ["FAILED tests/test_manip.py::test_rotation - ModuleNotFoundError: No module named 'pydivsufsort'"] },
  },
  {
    id: 'pytest-summary-assertion',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^FAILED [^\s:]+(?:::[^\s:]+)+ - (?:AssertionError\b|assert )/,
    example: { command: 'python -m pytest', lines: ['FAILED tests/test_app.py::test_auth - assert 400 == 201'] },
  },
  {
    id: 'pytest-failed',
    type: 'Test Failure',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    // `(?=\S+::\S)\S+` is `\S+::\S+` without its quadratic backtracking on a long word of colons.
    linePattern: /^FAILED (\S+)|^((?=\S+::\S)\S+) FAILED\b|^=+ (?:.*, )?\d+ failed\b|^ERROR (\S+::\S+)/,
    example: { command: 'python -m pytest', lines: ['FAILED tests/test_calc.py::test_add'] },
  },
  {
    id: 'unittest-assertion',
    type: 'Assertion Error',
    tool: 'unittest',
    commandPattern: CMD.pytest,
    linePattern: /^AssertionError\b/,
    context: { before: 3 },
    example: { command: 'python -m unittest', lines: ['AssertionError: 4 != 5'] },
  },
  {
    // pytest collected nothing and exited 5: the workflow points it at no tests (a path, a pattern, a marker).
    id: 'pytest-no-tests',
    type: 'Configuration Error',
    tool: 'pytest',
    linePattern: /^=+ no tests ran in [\d.]+m?s(?: \([\d:]+\))? =+$/,
    yieldsTo: ['Test Failure', 'Assertion Error'],
    example: { command: 'poetry run pytest tests/', lines: ['collecting ... collected 0 items', '', '============================ no tests ran in 0.01s ============================='] },
  },
  {
    id: 'unittest-failed',
    type: 'Test Failure',
    tool: 'unittest',
    commandPattern: CMD.pytest,
    // nose names a test it could not load or generate `Failure: ExceptionName (…)`.
    linePattern: /^(?:FAIL|ERROR): (?:Failure: )?\w+ \(|^FAILED \((?:failures|errors)=\d+/,
    example: { command: 'python -m unittest', lines: ['FAIL: test_add (tests.test_calc.CalcTest.test_add)'] },
  },
];
