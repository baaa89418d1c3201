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
    id: 'pytest-assertion',
    type: 'Assertion Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^E\s+(?:AssertionError\b|assert )/,
    context: { after: 2 },
    example: { command: 'python -m pytest', lines: ['E       assert 4 == 5'] },
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
    id: 'pytest-failed',
    type: 'Test Failure',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    // `(?=\S+::\S)\S+` is `\S+::\S+` without its quadratic backtracking on a long word of colons.
    linePattern: /^FAILED (\S+)|^((?=\S+::\S)\S+) FAILED\b|^=+ (?:.*, )?\d+ failed\b|^ERROR (\S+::\S+)/,
    example: { command: 'python -m pytest', lines: ['FAILED tests/test_calc.py::test_add - assert 4 == 5'] },
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
    id: 'unittest-failed',
    type: 'Test Failure',
    tool: 'unittest',
    commandPattern: CMD.pytest,
    linePattern: /^(?:FAIL|ERROR): \w+ \(|^FAILED \((?:failures|errors)=\d+/,
    example: { command: 'python -m unittest', lines: ['FAIL: test_add (tests.test_calc.CalcTest.test_add)'] },
  },
];
