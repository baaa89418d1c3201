import { lines, type OutcomeRule } from './rule.js';

/**
 * The runner's own messages: a job over its time limit, a lost or crashed runner decide the whole job, whatever its
 * steps printed (scope `job`); a step over its own `timeout-minutes` decides when it is the step that failed.
 */
export const RUNNER_RULES: OutcomeRule[] = [
  {
    id: 'job-exceeded-max-time',
    outcome: 'timed_out',
    reason: 'timed_out',
    scope: 'job',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/^##\[error\]The job running on runner .* has exceeded the maximum execution time of /),
    example: {
      command: 'python -m pytest -x tests/integration',
      lines: ['tests/integration/test_sync.py::test_full_sync ', '##[error]The job running on runner GitHub Actions 12 has exceeded the maximum execution time of 60 minutes.'],
      source: "actions/runner: the job timeout message (src/Runner.Worker/JobRunner.cs); written the same way by the local executor's job runner",
    },
  },
  {
    id: 'step-timed-out',
    outcome: 'timed_out',
    reason: 'timed_out',
    scope: 'step',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/^##\[error\]The action (?:'[^']*' )?has timed out/),
    example: {
      command: 'python -m pytest tests',
      lines: ['tests/test_worker.py::test_drain ', "##[error]The action 'Run tests' has timed out after 10 minutes."],
      source: "actions/runner: a step over its timeout-minutes ('The action has timed out.'); the local executor names the step",
    },
  },
  {
    id: 'runner-shutdown',
    outcome: 'infra_error',
    reason: 'runner_lost',
    scope: 'job',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/^##\[error\]The runner has received a shutdown signal/),
    example: {
      command: './gradlew assembleDebug',
      lines: [
        '> Task :app:compileDebugKotlin',
        '##[error]The runner has received a shutdown signal. This can happen when the runner service is stopped, or a manually started runner is canceled.',
        '##[error]Process completed with exit code 137.',
        '##[error]The operation was canceled.',
      ],
      exitCode: 137,
      source: 'https://github.com/actions/runner/issues/2427 and https://github.com/actions/runner-images/issues/6709 (job logs)',
    },
  },
  {
    id: 'runner-lost-communication',
    outcome: 'infra_error',
    reason: 'runner_lost',
    scope: 'job',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/lost communication with the server|The job was not acquired by Runner/),
    example: {
      command: 'npm run build',
      lines: [
        '##[error]The hosted runner: GitHub Actions 8 lost communication with the server. Anything in your workflow that terminates the runner process, starves it for CPU/Memory, or blocks its network access can cause this error.',
      ],
      source: 'https://github.com/actions/runner-images/issues/9823',
    },
  },
  {
    id: 'hosted-runner-error',
    outcome: 'infra_error',
    reason: 'backend_error',
    scope: 'job',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/^##\[error\](?:The hosted runner encountered an error|.*runner worker process crashed)/),
    example: {
      command: 'make test',
      lines: ['##[error]The hosted runner encountered an error while running your job. (Error Type: Disconnect).'],
      source: 'GitHub Actions annotation for a hosted-runner failure (actions/runner-images issues, "The hosted runner encountered an error")',
    },
  },

];

/**
 * The local executor's step limits (src/executor/sandbox/step-limits.ts): a step over one is killed and the job is
 * the platform's failure, named after the limit (a runaway step never hangs a worker nor counts as a failed repair).
 */
export const LIMIT_RULES: OutcomeRule[] = (
  [
    ['memory', 'EXECUTOR_STEP_MEMORY_MB=4096', 'out_of_memory', "out of memory, the step's processes were killed."],
    ['process', 'EXECUTOR_STEP_MAX_PROCESSES=1024', 'process_limit', "fork failed (Resource temporarily unavailable), the step's processes were killed."],
    ['CPU time', 'EXECUTOR_STEP_CPU_SECONDS=3600', 'cpu_time_limit', 'Killed.'],
    ['file size', 'EXECUTOR_STEP_FILE_SIZE_MB=4096', 'file_size_limit', 'File too large.'],
    ['output', 'EXECUTOR_STEP_MAX_OUTPUT_BYTES=1073741824', 'output_limit', "the step's processes were killed."],
  ] as const
).map(([limit, setting, reason, tail]) => ({
  id: `step-${reason.replace(/_/g, '-')}`,
  outcome: 'infra_error',
  reason,
  scope: 'step',
  precedence: 'always',
  issuer: 'runner',
  match: lines(new RegExp(`^##\\[error\\]The step exceeded the ${limit} limit \\(EXECUTOR_STEP_`)),
  example: {
    command: 'python -m pytest tests',
    lines: ['tests/test_big.py ', `##[error]The step exceeded the ${limit} limit (${setting}): ${tail}`],
    source: "ci-replay's local executor (src/executor/sandbox/step-limits.ts, limitMessage)",
  },
}));

/** The local executor's step sandbox could not run a step (scope `step`). */
export const SANDBOX_RULES: OutcomeRule[] = [
  {
    id: 'step-sandbox-failed',
    outcome: 'infra_error',
    reason: 'sandbox_failed',
    scope: 'step',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/^##\[error\]The step sandbox (?:could not be set up|of this job ended unexpectedly)/),
    example: {
      command: 'make test',
      lines: ['##[error]The step sandbox of this job ended unexpectedly; the step cannot run.'],
      source: "ci-replay's local executor (src/executor/job-runner/index.ts, sandbox-setup.ts)",
    },
  },
];
