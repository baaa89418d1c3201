import { isRunnerTool } from '../runner-tools.js';
import { lines, MAX_MATCHES, type OutcomeRule } from './rule.js';

/** Network or registry unreachable, as pip/urllib3, curl, git, apt, npm/node, Go, Maven and cargo print it. */
export const NETWORK_ERROR =
  /Temporary failure in name resolution|Name or service not known|nodename nor servname provided|Temporary failure resolving '|Could not resolve (?:host|proxy|')|Couldn't resolve host|Failed to establish a new connection|NewConnectionError|NameResolutionError|Network is unreachable|No route to host|Connection refused|[Cc]onnection timed out|ConnectTimeoutError|ReadTimeoutError|Read timed out\.|Could not fetch URL|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|\b(?:ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH)\b|Unable to connect to \S+:|Could not connect to \S+:\d+|Failed to connect to \S+ port \d+|dial tcp[^:]*: lookup \S+|UnknownHostException|java\.net\.ConnectException|spurious network error|\b50[234] (?:Bad Gateway|Service Unavailable|Gateway Time-?out)\b/;

/** Name resolution or routing failed: what a test can only print when the machine has no network. */
const DNS_FAILURE =
  /gaierror|NameResolutionError|Temporary failure in name resolution|Name or service not known|Network is unreachable|No route to host|Could not resolve host|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)/;

/** pytest's short test summary: `FAILED tests/x.py::test_y - ExceptionType: message`. */
const PYTEST_SUMMARY = /^(?:FAILED|ERROR) \S+(?: - (.*))?$/;

/** Every test pytest reports as failed or errored failed on name resolution (and none on an assertion). */
const everyFailedTestLostTheNetwork: OutcomeRule['match'] = (input) => {
  const summary = input.filter((line) => PYTEST_SUMMARY.test(line.text));
  if (summary.length === 0) return undefined;
  const network = summary.every((line) => {
    const message = PYTEST_SUMMARY.exec(line.text)?.[1] ?? '';
    return DNS_FAILURE.test(message) && !/^AssertionError\b/.test(message);
  });
  return network ? summary.slice(0, MAX_MATCHES) : undefined;
};

/** A shell that could not find a command: bash (`…: line 3: docker: command not found`), dash (`sh: 1: docker: not found`), the executor's shells. */
const COMMAND_NOT_FOUND = /^(?:##\[error\])?(?:\S+: )?(?:line \d+: )?(?:\d+: )?([\w.+-]+): (?:command )?not found(?: \(shell '[^']*'\))?$/;

/** The output of the step whose failure ended the job (scope `step`), in precedence order. */
export const STEP_RULES: OutcomeRule[] = [
  {
    id: 'step-unsupported-by-local-executor',
    outcome: 'infra_error',
    reason: 'unsupported_feature',
    scope: 'step',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/^##\[error\](?:action not supported by the local executor: |shell '[^']+' is not supported by the local executor|checkout of another repository is not supported by the local executor: )/),
    example: {
      command: 'docker/setup-buildx-action@v3',
      lines: ['##[error]action not supported by the local executor: docker/setup-buildx-action@v3'],
      source: "ci-replay's local executor (src/executor/builtin-actions/index.ts)",
    },
  },
  {
    id: 'local-interpreter-missing',
    outcome: 'infra_error',
    reason: 'runner_tooling_missing',
    scope: 'step',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/^##\[error\](?:python|node)-version \S+ requested; available: /),
    example: {
      command: 'actions/setup-python@v5',
      lines: ['##[error]python-version 3.8 requested; available: 3.11.7, 3.12.1'],
      source: "ci-replay's local executor (src/executor/builtin-actions/setup-actions.ts); GitHub's runner would download the version",
    },
  },
  {
    id: 'disk-full',
    outcome: 'infra_error',
    reason: 'out_of_disk',
    scope: 'step',
    precedence: 'always',
    issuer: 'step',
    match: lines(/No space left on device|\bENOSPC\b/),
    example: {
      command: 'cargo build --release',
      lines: [
        '   Compiling tokio v1.36.0',
        'error: failed to write /home/runner/work/app/app/target/release/deps/libtokio-6a1d.rlib: No space left on device (os error 28)',
        'error: could not compile `tokio` (lib) due to 1 previous error',
      ],
      exitCode: 101,
      source: 'https://github.com/shadowsocks/shadowsocks-rust/pull/1920 and https://github.com/actions/runner-images/issues/1860 ("No space left on device" on ubuntu-latest)',
    },
  },
  {
    id: 'oom-killed',
    outcome: 'infra_error',
    reason: 'out_of_memory',
    scope: 'step',
    precedence: 'exit-137',
    issuer: 'step',
    match: lines(/(?:^|\s)Killed(?:\s|$)|Out of memory: Killed process|oom-kill/),
    example: {
      command: 'pytest --cov=. --cov-report=xml',
      lines: [
        'collected 30 items',
        '',
        '/home/runner/work/_temp/0dbe16bb-3052-4a6e-9755-00561fed9f22.sh: line 1:  2930 Killed                  pytest --cov=. --cov-report=xml',
        'testing/test_full.py .......',
      ],
      exitCode: 137,
      source: 'https://github.com/actions/setup-python/issues/350 (CBICA/GaNDLF CI log)',
    },
  },
  {
    id: 'cannot-allocate-memory',
    outcome: 'infra_error',
    reason: 'out_of_memory',
    scope: 'step',
    precedence: 'always',
    issuer: 'step',
    match: lines(/Cannot allocate memory|Out of memory: Killed process/),
    example: {
      command: 'python -m pytest tests',
      lines: ['INTERNALERROR> OSError: [Errno 12] Cannot allocate memory'],
      exitCode: 3,
      source: 'ENOMEM as Python reports it (errno 12) when a fork or allocation fails on a runner short of memory',
    },
  },
  {
    id: 'runner-tool-not-found',
    outcome: 'infra_error',
    reason: 'runner_tooling_missing',
    scope: 'step',
    precedence: 'exit-127',
    issuer: 'step',
    match: lines(COMMAND_NOT_FOUND, (m) => isRunnerTool(m[1] ?? '')),
    example: {
      command: 'xvfb-run -a npm test',
      lines: ['/home/runner/work/_temp/5e2b1c9a-8f43-4d1e-9a1b-3c6f1e0d2a77.sh: line 1: xvfb-run: command not found'],
      exitCode: 127,
      source: 'https://github.com/travis-ci/travis-ci/issues/9351 (xvfb-run: command not found); GitHub ubuntu images ship xvfb (https://github.com/coactions/setup-xvfb/issues/21)',
    },
  },
  {
    id: 'runner-executable-not-located',
    outcome: 'infra_error',
    reason: 'runner_tooling_missing',
    scope: 'step',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/Unable to locate executable file: ([\w.+-]+)\./, (m) => isRunnerTool(m[1] ?? '')),
    example: {
      command: 'GabrielBB/xvfb-action@v1',
      lines: [
        '##[error]Unable to locate executable file: sudo. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable. Also check the file mode to verify the file is executable.',
      ],
      source: 'https://github.com/GabrielBB/xvfb-action/issues/27',
    },
  },
  {
    id: 'sudo-no-new-privileges',
    outcome: 'infra_error',
    reason: 'root_required',
    scope: 'step',
    precedence: 'unexplained',
    issuer: 'step',
    match: lines(/^sudo: The "no new privileges" flag is set/),
    example: {
      command: 'sudo apt-get update && sudo apt-get install -y libxml2-dev',
      lines: [
        'sudo: The "no new privileges" flag is set, which prevents sudo from running as root.',
        'sudo: If sudo is running in a container, you may need to adjust the container configuration to disable the flag.',
      ],
      exitCode: 1,
      source:
        "sudo 1.9.13 run by a step of ci-replay's sandbox (setpriv --no-new-privs, an unprivileged uid); the same lines in https://github.com/topgrade-rs/topgrade/issues/1006. GitHub-hosted runners give steps passwordless sudo",
    },
  },
  {
    id: 'sudo-not-setuid',
    outcome: 'infra_error',
    reason: 'root_required',
    scope: 'step',
    precedence: 'unexplained',
    issuer: 'step',
    match: lines(/^sudo: effective uid is not 0\b/),
    example: {
      command: 'sudo apt-get install -y qemu-user-static',
      lines: ["sudo: effective uid is not 0, is /usr/sbin/sudo on a file system with the 'nosuid' option set or an NFS file system without root privileges?"],
      exitCode: 1,
      source: 'https://github.com/uraimo/run-on-arch-action/issues/68 (sudo as a non-root user where setuid programs do not elevate)',
    },
  },
  {
    id: 'apt-needs-root',
    outcome: 'infra_error',
    reason: 'root_required',
    scope: 'step',
    precedence: 'unexplained',
    issuer: 'step',
    // Without sudo in the script the repository forgot it: apt fails the same way on GitHub's runners (its own failure).
    script: /(?:^|[\s;&|(`])sudo\s/m,
    match: lines(/^E: (?:Could not open lock file \S+ - open \(13: Permission denied\)|Unable to acquire the dpkg frontend lock \(\S+\), are you root\?|Unable to lock directory \S+)/),
    example: {
      command: 'sudo apt-get install -y protobuf-compiler',
      lines: [
        'E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)',
        'E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?',
      ],
      exitCode: 100,
      source:
        "apt-get's lock errors as in https://github.com/triggermesh/triggermesh/pull/727 (there without sudo: the repository's mistake, left alone by this rule); under sudo they mean sudo ran without root's privileges, as in ci-replay's sandbox inside an unprivileged user namespace",
    },
  },
  {
    id: 'tests-failed-on-name-resolution',
    outcome: 'infra_error',
    reason: 'network_unreachable',
    scope: 'step',
    precedence: 'always',
    issuer: 'step',
    match: everyFailedTestLostTheNetwork,
    example: {
      command: 'python -m pytest tests',
      lines: [
        '=========================== short test summary info ============================',
        "FAILED tests/test_download.py::test_fetch_index - requests.exceptions.ConnectionError: HTTPSConnectionPool(host='data.example.org', port=443): Max retries exceeded with url: /index.json (Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x7f3a>: Failed to resolve 'data.example.org' ([Errno -3] Temporary failure in name resolution)\"))",
        '========================= 1 failed, 41 passed in 3.02s =========================',
      ],
      source: 'https://github.com/actions/runner/issues/2210 (urllib3 "Temporary failure in name resolution" in a test run on hosted runners)',
    },
  },
  {
    id: 'network-unreachable',
    outcome: 'infra_error',
    reason: 'network_unreachable',
    scope: 'step',
    precedence: 'unexplained',
    issuer: 'step',
    match: lines(NETWORK_ERROR),
    example: {
      command: 'pip install -r requirements.txt',
      lines: [
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7fdfdb70c850>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/certifi/",
        "WARNING: Retrying (Retry(total=3, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7fdfdb70ca60>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/certifi/",
        'ERROR: Could not find a version that satisfies the requirement certifi (from versions: none)',
        'ERROR: No matching distribution found for certifi',
      ],
      source: 'https://github.com/numerai/numerai-cli/issues/60 and https://github.com/pre-commit-ci/issues/issues/80 (pip without name resolution)',
    },
  },
];
