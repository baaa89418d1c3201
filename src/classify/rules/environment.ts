import type { ErrorType } from '../../domain/error-types.js';
import type { Rule } from './rule.js';

/** An uncaught exception explains less than a specific diagnostic of another kind in the same step. */
export const EXCEPTION_YIELDS: ErrorType[] = ['Code Formatting', 'Code Linting', 'Syntax Error', 'Type Checking', 'Dependency Issues', 'Package Installation Error', 'Configuration Error', 'Environment Error', 'Doc/Docstring'];
/** A network error explains an install or resolution failure, not a failed test or a compiler error. */
export const NETWORK_YIELDS: ErrorType[] = ['Code Formatting', 'Code Linting', 'Syntax Error', 'Type Checking', 'Test Failure', 'Assertion Error', 'Runtime Error', 'Configuration Error', 'Doc/Docstring'];

/** Runner and host problems, and invalid configuration: they apply to every step. */
export const ENVIRONMENT_RULES: Rule[] = [
  {
    id: 'runner-oom-exit-137',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /^(?:##\[error\])?Process completed with exit code 137\.|^Killed$|(?:^|\D)\d+ Killed\s|Out of memory: Killed process|JavaScript heap out of memory|ERR_WORKER_OUT_OF_MEMORY|JVM garbage collector is thrashing|^MemoryError\b/,
    context: { before: 2 },
    example: { command: 'python train.py', lines: ['##[error]Process completed with exit code 137.'] },
  },
  {
    id: 'disk-full',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /No space left on device|: no space left on device(?!")|\bENOSPC\b|System\.IO\.IOException: No space left/,
    example: { command: 'make', lines: ["dd: error writing '/dev/full': No space left on device"] },
  },
  {
    id: 'command-not-found',
    type: 'Environment Error',
    tool: 'shell',
    linePattern: /^(?:\S+: )?(?:line )?(?:\d+: )?(\S+): (?:command not found|not found)$/,
    example: { command: 'poetry install', lines: ['/home/runner/work/_temp/1b2c.sh: line 1: poetry: command not found'] },
  },
  {
    // A tool's own search for a program it needs (Homebrew's actions on a runner without brew).
    id: 'program-not-on-path',
    type: 'Environment Error',
    tool: 'shell',
    linePattern: /^Could not find '[\w.-]+' command in PATH\b/,
    example: { command: 'Homebrew/actions/setup-homebrew@main', lines: ["Could not find 'brew' command in PATH or standard locations."] },
  },
  {
    // A matrix sibling failed (fail-fast) or someone cancelled the run: see classifyJob.
    id: 'job-cancelled',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /^(?:##\[error\])?The operation was canceled\.$/,
    example: { command: 'pytest', lines: ['##[error]The operation was canceled.'] },
  },
  {
    id: 'runner-cancelled-or-timed-out',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /^(?:##\[error\])?(?:The action (?:'[^']*' )?has timed out|The job running on runner .* has exceeded the maximum execution time|The runner has received a shutdown signal|.*lost communication with the server|The hosted runner encountered an error)|^(?:##\[error\])?Process completed with exit code 124\.|^No output has been received in the last \d+m\d+s, this potentially indicates a stalled build|^\s*ERROR: Job failed: canceled$/,
    example: { command: 'pytest', lines: ['##[error]The action has timed out.'] },
  },
  {
    id: 'network-failure',
    type: 'Environment Error',
    tool: 'network',
    yieldsTo: NETWORK_YIELDS,
    linePattern: /Connection refused|Temporary failure in name resolution|Could not resolve host|Name or service not known|Network is unreachable|Connection timed out|Failed to establish a new connection|ConnectTimeoutError|\bConnect Timeout Error\b|ReadTimeoutError|\bECONNRESET\b|HttpClient\.Timeout of \d+ seconds elapsing|^warning: spurious network error|\bcurl: \((?:6|7|28|35|52|56)\) |There appears to be trouble with your network connection|^Request timeout: \/|Failed to download version \S+: Error: Unexpected HTTP response: (?:403|5\d\d)\b|\bHTTP 000+(?!\d|\.\d)|\bHTTP (?:status|code) 000+(?!\d|\.\d)|\bECONNREFUSED\b|\bETIMEDOUT\b|\bEAI_AGAIN\b|getaddrinfo ENOTFOUND|Failed to connect to \S+ port|API rate limit exceeded|\b50[234] (?:Bad Gateway|Service Unavailable|Gateway Time-?out)\b|kex_exchange_identification: |^Connection closed by (?:remote host|\S+ port \d+)$|\/ssh\] exited with return code \[255\]/,
    example: { command: 'pip install requests', lines: ["WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError(': Failed to establish a new connection: [Errno 111] Connection refused')'"] },
  },
  {
    // As the other setup actions' missing versions (sourced/environment.ts): a version the workflow asks for that
    // cannot be installed.
    id: 'python-version-unavailable',
    type: 'Package Installation Error',
    also: 'Configuration Error',
    tool: 'setup-python',
    // Not `Version 3.9 was not found in the local cache`: setup-python prints that, then downloads the version.
    linePattern: /^\s*(?:##\[error\]|Error: )?(?:The version '[^']+' with architecture '[^']+' was not found|Version \S+ with arch \S+ not found)/,
    example: { command: 'actions/setup-python@v5', lines: ["##[error]The version '3.6' with architecture 'x64' was not found for Ubuntu 24.04."] },
  },
  // Configuration.
  {
    id: 'workflow-invalid',
    type: 'Configuration Error',
    tool: 'actions',
    // `Error: ` is how the web page and copied logs render the runner's `##[error]`.
    linePattern: /Invalid workflow file|The workflow is not valid|Unrecognized named-value|^(?:##\[error\]|(?:Unhandled error: )?Error: )?Input required and not supplied: |^(?:##\[error\]|Error: )?(?:Failed to resolve action download info\. Error: )?Unable to resolve action|^(?:##\[error\]|Error: )?Can't find 'action\.ya?ml'|is not present in repository \S+\.\s+Typo\?/,
    example: { command: 'actions/setup-python@v5', lines: ['##[error]Input required and not supplied: python-version'] },
  },
  {
    id: 'config-file-parse',
    type: 'Configuration Error',
    tool: 'config',
    linePattern: /^(?:E\s+)?(?:\w+\.)*(?:TOMLDecodeError|TomlDecodeError|ScannerError|ParserError|ComposerError|ParsingError|MissingSectionHeaderError|DuplicateSectionError|DuplicateOptionError|InterpolationError)\b(?! \(\d{4}\):)|^(?:\S+: )?yaml: line \d+:|configuration error: `[^`]+` must|^ERROR: (?:\S+ )?does not appear to be a Python project|is not installable\. Neither 'setup\.py' nor 'pyproject\.toml' found|^(?:ERROR: )?Could not open requirements file: \[Errno 2\]|^ERROR: Could not open requirements file:/,
    context: { before: 2 },
    example: { command: 'python -m pytest', lines: ['tomllib.TOMLDecodeError: Expected \'=\' after a key in a key/value pair (at line 2, column 6)'] },
  },
  {
    id: 'pytest-usage-error',
    type: 'Configuration Error',
    tool: 'pytest',
    linePattern: /^ERROR: \S+\.(?:toml|ini|cfg): |^ERROR: usage: |^\S+: error: unrecognized arguments: |^ERROR: file or directory not found: |^ERROR: \S+: '[^']+' not found in `markers` configuration option|^INTERNALERROR> .*(?:Usage|Config)Error/,
    context: { after: 2 },
    example: { command: 'python -m pytest', lines: ['ERROR: usage: __main__.py [options] [file_or_dir] [file_or_dir] [...]'] },
  },
  {
    id: 'tool-config-invalid',
    type: 'Configuration Error',
    tool: 'config',
    linePattern: /error TS5\d{3}: |error TS18003: |ESLint couldn't find (?:a|an|the) (?:eslint\.config|config)|Configuration for rule "[^"]+" is invalid|^Error: Cannot find module '[^']*eslint[^']*config|There was a problem loading formatter|errors parsing go\.mod|failed to parse manifest at|Non-resolvable parent POM|Malformed POM|A problem occurred evaluating (?:root )?project|Composer could not find a composer\.json file in |^> Could not read script '[^']+' as it does not exist\.|^\S+\.(?:ini|cfg|toml): (?:\[\S+\]: )?(?:Unrecognized option|Invalid)|^There was an error parsing|invalid configuration/,
    example: { command: 'npx tsc --noEmit', lines: ["tsconfig.json(3,5): error TS5023: Unknown compiler option 'strictest'."] },
  },
];

/** Uncaught exceptions in any step (the line a traceback ends with): after every tool-specific rule. */
export const RUNTIME_RULES: Rule[] = [
  {
    id: 'python-traceback-exception',
    type: 'Runtime Error',
    tool: 'python',
    yieldsTo: EXCEPTION_YIELDS,
    // Python's closing line (`ValueError: …`, `pkg.mod.CustomError`, a bare `Exception: …`); not JVM stack frames, not
    // melos's `ScriptException` (a script's exit status, not an exception in the code), not setuptools too old for
    // Python 3.12's pkgutil (an installer failure, output-signatures.ts).
    linePattern: /^(?!AssertionError\b|AttributeError: module 'pkgutil' has no attribute 'ImpImporter'|ScriptException: The script \S+ failed to execute|org\.gradle\.|java\.|javax\.|kotlin\.|kotlinx\.|com\.android\.)((?:\w+\.)*(?:\w+(?:Error|Exception|Exit|Interrupt)|Exception))(?:: .*|$)/,
    headerPattern: /^\s*File "([^"]+)", line (\d+)/,
    // Python prints it right under a traceback frame (an indented source or caret line); a JavaScript error a test
    // runner echoes from captured stderr (`stderr | …` then `TypeError: fetch failed`) follows no frame.
    previousPattern: /^\s+\S|^Traceback \(most recent call last\):$/,
    findingParser: (m, state) =>
      state.header === undefined ? undefined : { path: state.header.path, line: state.header.line ?? 1, message: m[0].trim() },
    context: { before: 4 },
    example: { command: 'python scripts/build.py', lines: ['Traceback (most recent call last):', '  File "/w/scripts/build.py", line 3, in <module>', '    main()', 'ValueError: bad value'] },
  },
  {
    id: 'node-uncaught',
    type: 'Runtime Error',
    tool: 'node',
    yieldsTo: EXCEPTION_YIELDS,
    linePattern: /^Uncaught \w+Error|^panic: |^Exception in thread "|^thread 'main' panicked at /,
    context: { after: 2 },
    example: { command: 'node index.js', lines: ['panic: runtime error: index out of range [3] with length 3'] },
  },
];
