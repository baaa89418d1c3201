import { CMD } from './commands.js';
import { headerFinding, LOCATION_LINE, locationFinding, PY_FILE_HEADER } from './rule-helpers.js';
import { fileLineFinding, type Rule } from './rule.js';

/** Python syntax errors, missing modules, resolver conflicts and failed installs (pip, uv, poetry, conda). */
export const PYTHON_BUILD_RULES: Rule[] = [
  // Syntax errors, whoever reports them.
  {
    id: 'python-syntax-error',
    type: 'Syntax Error',
    tool: 'python',
    // Not Node's ES-module linking errors, which it also names SyntaxError (see js-runtime-error).
    linePattern: /^(?:E\s+)?(?:SyntaxError|IndentationError|TabError): (?!.*\bis not valid JSON$|Unexpected token .* in JSON|Unexpected end of JSON|Named export '[^']*' not found|The requested module '[^']*' does not provide an export named)(.*)$/,
    headerPattern: PY_FILE_HEADER,
    findingParser: headerFinding(1),
    context: { before: 4 },
    example: { command: 'python -m pytest', lines: ['  File "/w/app/a.py", line 3', '    def f(:', '          ^', 'SyntaxError: invalid syntax'] },
  },
  {
    id: 'flake8-e999',
    type: 'Syntax Error',
    tool: 'flake8',
    linePattern: /^(\S+?):(\d+):(\d+): (E999) (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'flake8 .', lines: ['./app/a.py:3:11: E999 SyntaxError: invalid syntax'] },
  },
  {
    id: 'ruff-syntax-error',
    type: 'Syntax Error',
    tool: 'ruff',
    commandPattern: CMD.ruff,
    // `SyntaxError:` up to ruff 0.12.8 (concise, and the header line of the old full format); `invalid-syntax:` from 0.12.9.
    linePattern: /^(\S+?):(\d+):(\d+): (SyntaxError|E999|invalid-syntax):? (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 5 }),
    example: { command: 'ruff check .', lines: ['app/a.py:3:7: SyntaxError: Expected a parameter name'] },
  },
  {
    id: 'ruff-full-syntax-error',
    type: 'Syntax Error',
    tool: 'ruff',
    commandPattern: CMD.ruff,
    // Ruff >= 0.12.9's default (`full`) output: `invalid-syntax: <message>`, then ` --> path:line:col`
    // (crates/ruff/tests/snapshots/lint__output_format_full.snap at tag 0.12.9).
    linePattern: LOCATION_LINE,
    previousPattern: /^(?:invalid-syntax|SyntaxError|E999):? (.*)$/,
    findingParser: locationFinding({ message: 1 }),
    context: { before: 1, after: 3 },
    example: {
      command: 'ruff check .',
      lines: ['invalid-syntax: Expected a parameter or the end of the parameter list', ' --> app/a.py:3:7', '  |', '3 | def f(:', '  |       ^'],
    },
  },
  {
    id: 'black-cannot-parse',
    type: 'Syntax Error',
    tool: 'black',
    linePattern: /^error: cannot format (\S+): Cannot parse(?: for target version [^:]+)?: (\d+):(\d+): (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'black --check .', lines: ['error: cannot format app/a.py: Cannot parse: 3:6: def f(:'] },
  },
  {
    id: 'mypy-syntax',
    type: 'Syntax Error',
    tool: 'mypy',
    commandPattern: CMD.mypy,
    linePattern: /^(\S+?):(\d+):(?:(\d+):)? error: (.*)\[syntax\]$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'mypy app', lines: ['app/a.py:3: error: invalid syntax  [syntax]'] },
  },
  {
    id: 'pylint-syntax',
    type: 'Syntax Error',
    tool: 'pylint',
    linePattern: /^(\S+?):(\d+):(\d+): (E0001): (.*) \(syntax-error\)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'pylint app', lines: ["app/a.py:3:7: E0001: Parsing failed: 'invalid syntax (a, line 3)' (syntax-error)"] },
  },
  // Imports of modules that are not installed.
  {
    id: 'python-module-not-found',
    type: 'Dependency Issues',
    tool: 'python',
    linePattern: /^(?:E\s+)?(?:ModuleNotFoundError: No module named |ImportError: cannot import name |ImportError: No module named )(.*)$/,
    headerPattern: PY_FILE_HEADER,
    findingParser: headerFinding(1),
    context: { before: 2 },
    example: { command: 'python -m pytest', lines: ['app/client.py:1: in <module>', '    import requests', "E   ModuleNotFoundError: No module named 'requests'"] },
  },
  // Resolver conflicts.
  {
    id: 'pip-resolution-impossible',
    type: 'Dependency Issues',
    tool: 'pip',
    linePattern: /^ERROR: (?:ResolutionImpossible|Cannot install .* because these package versions have conflicting dependencies)/,
    context: { before: 6 },
    example: { command: 'pip install -r requirements.txt', lines: ['ERROR: Cannot install alpha==1.0 and beta==2.0 because these package versions have conflicting dependencies.'] },
  },
  {
    id: 'pip-check-conflict',
    type: 'Dependency Issues',
    tool: 'pip',
    linePattern: /^(\S+) \S+ (?:has requirement .*, but you have|requires .*, but you have|has requirement .*, which is not installed)/,
    example: { command: 'pip check', lines: ['alpha 1.0 has requirement beta==1.0, but you have beta 2.0.'] },
  },
  {
    id: 'uv-poetry-conda-resolver',
    type: 'Dependency Issues',
    tool: 'resolver',
    linePattern: /No solution found when resolving dependencies|SolverProblemError|version solving failed|UnsatisfiableError|LibMambaUnsatisfiableError|Found conflicts!/,
    context: { after: 4 },
    example: { command: 'uv sync', lines: ['  × No solution found when resolving dependencies:'] },
  },
  // Installation failures.
  {
    id: 'pip-no-matching-distribution',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /^ERROR: (?:No matching distribution found for|Could not find a version that satisfies the requirement) (.*)$/,
    example: { command: 'pip install nonexistent-pkg==1.0', lines: ['ERROR: No matching distribution found for nonexistent-pkg==1.0'] },
  },
  {
    id: 'pip-requires-python',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /^ERROR: Package '[^']+' requires a different Python: /,
    example: { command: 'pip install .', lines: ["ERROR: Package 'kiteml' requires a different Python: 3.9.25 not in '>=3.10'"] },
  },
  {
    id: 'pip-build-failed',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /error: subprocess-exited-with-error|Failed building wheel for|Failed to build installable wheels|Could not build wheels for|error: metadata-generation-failed|error: legacy-install-failure|did not run successfully\.|THESE PACKAGES DO NOT MATCH THE HASHES|^ERROR: Failed to build /,
    context: { after: 2 },
    example: { command: 'pip install ./pkg', lines: ['  error: subprocess-exited-with-error'] },
  },
  {
    id: 'pip-invalid-requirement',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /^ERROR: Invalid requirement: /,
    example: { command: 'pip install -r requirements.txt', lines: ["ERROR: Invalid requirement: 'foo=1.0' (from line 1 of requirements.txt)"] },
  },
  {
    id: 'pip-unsupported-wheel',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /^ERROR: (\S+\.whl) is not a supported wheel on this platform/,
    example: { command: 'pip install dist/pkg-1.0-cp27-cp27m-win32.whl', lines: ['ERROR: gamma-1.0-cp27-cp27m-win32.whl is not a supported wheel on this platform.'] },
  },
];
