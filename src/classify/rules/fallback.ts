import type { ErrorType } from '../../domain/error-types.js';
import { CMD } from './commands.js';
import type { Rule } from './rule.js';

/** The runner's closing line of a failed step; benchmark datasets store it without the `##[error]` marker. */
const EXIT = /^(?:##\[error\])?Process completed with exit code (?!0\.)\d+\.$/;
/**
 * pytest exits 1 when tests ran and failed; 2 (interrupted: collection errors), 3 (internal error), 4 (usage) and
 * 5 (no tests collected) say no test failed, so those exits prove no Test Failure.
 */
const EXIT_TESTS_FAILED = /^(?:##\[error\])?Process completed with exit code 1\.$/;
/** An installer's closing line on success: an exit code after it is a later command's. */
const PIP_INSTALLED = /^Successfully installed \S/;
const NPM_INSTALLED = /^(?:added|removed|changed|up to date)\b.* in \d+(?:\.\d+)?m?s$|^Done in \d+(?:\.\d+)?m?s\.?$/;
/** pytest's closing summary when nothing failed: an exit code after it is another command's (a coverage threshold). */
const PYTEST_ALL_PASSED = /^=+ (?!.*\b(?:failed|errors?)\b)[^=]{0,300}\b\d{1,7} passed\b[^=]{0,300} in [\d.]+m?s(?: \([\d:]+\))? =+$/;

const byCommand = (id: string, type: ErrorType, tool: string, commandPattern: RegExp, command: string, linePattern = EXIT, disarmPattern?: RegExp): Rule => ({
  id,
  type,
  tool,
  commandPattern,
  linePattern,
  ...(disarmPattern === undefined ? {} : { disarmPattern }),
  fallback: true,
  example: { command, lines: ['##[error]Process completed with exit code 1.'] },
});

/**
 * When a failed step printed nothing any other rule knows, its command still says which tool failed. These count
 * only when no other rule matched in the step; the first whose command matches wins.
 */
export const FALLBACK_RULES: Rule[] = [
  {
    id: 'ruff-found-errors',
    type: 'Code Linting',
    tool: 'ruff',
    linePattern: /^Found \d+ errors?\.$/,
    fallback: true,
    example: { command: 'make lint', lines: ['Found 3 errors.'] },
  },
  {
    id: 'pylint-rating',
    type: 'Code Linting',
    tool: 'pylint',
    linePattern: /^Your code has been rated at /,
    fallback: true,
    example: { command: 'make lint', lines: ['Your code has been rated at 5.00/10'] },
  },
  {
    // pytest stops before running anything when a test module fails to import; the summary's bare `ERROR path`
    // lines (the traceback cut away, as in a benchmark tail) mostly mean a module that is not installed.
    id: 'pytest-collection-errors',
    type: 'Dependency Issues',
    tool: 'pytest',
    linePattern: /^!+ Interrupted: \d+ errors? during collection !+$/,
    fallback: true,
    example: { command: 'make test', lines: ['ERROR tests/test_api.py', '!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!'] },
  },
  {
    // A test script's own summary (Maven Surefire 2 prints the same heading): a list of the tests that failed.
    id: 'failed-tests-heading',
    type: 'Test Failure',
    tool: 'test-runner',
    linePattern: /^\s*Failed tests?:\s*(?!(?:none|None|NONE|N\/A|-)\s*$)(?:$|\\n|[A-Za-z_])/,
    fallback: true,
    example: { command: './scripts/run_tests.sh', lines: ['Failed tests:', '  - tests/test_api.py'] },
  },
  {
    // A pre-commit hook that rewrote files and failed for it is a fixer (trailing whitespace, end of file, a
    // formatter), whatever its id; the hook rules of python-quality.ts name the known ones first.
    id: 'pre-commit-files-modified',
    type: 'Code Formatting',
    tool: 'pre-commit',
    linePattern: /^(?:- )?[Ff]iles were modified by this hook/,
    fallback: true,
    example: { command: 'pre-commit run --all-files', lines: ['Sort imports in notebooks...........................................Failed', '- hook id: nbqa-isort', '- files were modified by this hook'] },
  },
  {
    // A Dockerfile `RUN` whose last command is an installer (a clean-up after it aside) that failed with no message
    // another rule reads (BuildKit prints the command it ran): the install failed. The installer starts its command
    // (after `&&`/`;`, environment assignments, sudo, `python -m`): a lazy scan for it anywhere backtracked
    // quadratically on a long command naming installers many times.
    id: 'docker-run-install-failed',
    type: 'Package Installation Error',
    tool: 'docker',
    linePattern: /failed to solve: process "\/bin\/(?:ba)?sh -c (?:[^"]*(?:&&|;|\|\|) *)?(?:\w+=\S* +)*(?:sudo +)?(?:python3? -m +)?(?:apt-get (?:-\S+ )*install|apt (?:-\S+ )*install|apk (?:-\S+ )*add|yum (?:-\S+ )*install|dnf (?:-\S+ )*install|pip3? install|npm (?:ci|install)|yarn install|pnpm install)\b[^"&;|]*(?:&&\s*(?:rm -rf|apt-get clean|apt-get autoclean)[^"&;|]*)*" did not complete successfully/,
    fallback: true,
    example: { command: 'docker/build-push-action@v6', lines: ['ERROR: failed to build: failed to solve: process "/bin/sh -c apt-get update -qq && apt-get install -qq -y dumb-init" did not complete successfully: exit code: 100'] },
  },
  {
    // npm echoes a dependency's install script (`> nslog@3.0.0 install /w/node_modules/nslog`, `> node-gyp rebuild`):
    // a step that failed after it with nothing else a rule reads failed installing that dependency.
    id: 'npm-install-script-echo',
    type: 'Package Installation Error',
    tool: 'npm',
    linePattern: /^> (?:@[\w.-]+\/)?[\w.-]+@[^\s@]+ (?:pre|post)?install \S*node_modules[\\/]\S+$/,
    fallback: true,
    example: { command: 'npm install', lines: ['> nslog@3.0.0 install C:\\projects\\app\\node_modules\\nslog', '> node-gyp rebuild', "c1xx : fatal error C1083: Cannot open source file: 'win_delay_load_hook.cc'"] },
  },
  {
    // node-gyp's own failure without npm's prefix (run by an install script, TeamCity's or yarn's output): a fallback,
    // since npm 6 and yarn 1 print the same lines for an optional dependency whose build failed harmlessly.
    id: 'node-gyp-bare',
    type: 'Package Installation Error',
    tool: 'node-gyp',
    linePattern: /^gyp ERR! (?:(?:build|configure|rebuild|install) error\s*$|not ok$)/,
    fallback: true,
    example: { command: 'npm install', lines: ['gyp ERR! build error ', 'gyp ERR! not ok'] },
  },
  {
    // pytest could not import a test module and the report was cut before the exception's name.
    id: 'pytest-import-error-cut',
    type: 'Dependency Issues',
    tool: 'pytest',
    linePattern: /^ImportError while importing test module '/,
    fallback: true,
    example: { command: 'make test', lines: ['______________________ ERROR collecting tests/test_ssm.py ______________________', "ImportError while importing test module '/w/tests/test_ssm.py'.", 'Hint: make sure your test modules/packages have valid Python names.'] },
  },
  byCommand('exit-pre-commit', 'Code Linting', 'pre-commit', CMD.preCommit, 'pre-commit run --all-files'),
  byCommand('exit-pytest', 'Test Failure', 'pytest', CMD.pytest, 'python -m pytest', EXIT_TESTS_FAILED, PYTEST_ALL_PASSED),
  byCommand('exit-jest', 'Test Failure', 'jest', CMD.jest, 'npm test'),
  byCommand('exit-go-test', 'Test Failure', 'go', CMD.goTest, 'go test ./...'),
  byCommand('exit-formatter', 'Code Formatting', 'formatter', /\bblack\b|\bisort\b|\bruff format\b|\bprettier\b|\bgofmt\b|\bcargo fmt\b|\byapf\b|\bautopep8\b/, 'black --check .'),
  byCommand('exit-type-checker', 'Type Checking', 'type-checker', /\bmypy\b|\bpyright\b|\btsc\b|\bpytype\b|\bpyre\b/, 'mypy app'),
  byCommand('exit-doc-tool', 'Doc/Docstring', 'docs', /\bpydocstyle\b|\bdarglint\b|\binterrogate\b|\bsphinx-build\b|\bmkdocs\b|\bnumpydoc\b/, 'pydocstyle app'),
  byCommand('exit-linter', 'Code Linting', 'linter', /\bflake8\b|\bruff\b|\bpylint\b|\beslint\b|\bgolangci-lint\b|\bclippy\b|\bgo vet\b|\bpycodestyle\b|\bbandit\b/, 'flake8 .'),
  byCommand('exit-installer', 'Package Installation Error', 'installer', CMD.pip, 'pip install -r requirements.txt', EXIT, PIP_INSTALLED),
  byCommand('exit-npm-install', 'Package Installation Error', 'npm', /\bnpm (?:ci|install|i)\b|\byarn(?: install)?$|\bpnpm install\b/, 'npm ci', EXIT, NPM_INSTALLED),
];
