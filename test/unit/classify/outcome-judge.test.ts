import { describe, expect, it } from 'vitest';
import { judgeJobLog, judgeRun, OUTCOME_RULES, type JudgedJob, type OutcomeRule } from '../../../src/classify/outcome/index.js';
import type { ExecutorJobReport } from '../../../src/domain/executor-report.js';

/**
 * Job logs in GitHub's raw format (a timestamp per line, `##[group]Run …` blocks, `##[error]` lines), built from
 * the output each case needs. Where the output is modelled on a public CI log, the case names its source.
 */
interface StepSpec {
  name?: string;
  command: string;
  lines: string[];
  /** Exit code of a failing step (its `##[error]Process completed with exit code N.` line); absent: the step passed. */
  exitCode?: number;
}

interface JobSpec {
  setup?: string[];
  setupFails?: boolean;
  steps: StepSpec[];
  conclusion?: string;
}

const stamp = (i: number): string => `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.1234567Z`;

function buildJob(spec: JobSpec): { log: string; steps: { number: number; name: string; status: string; conclusion: string }[]; conclusion: string } {
  const out: string[] = ['Current runner version: \'2.322.0\'', '##[group]Operating System', 'Ubuntu', '22.04.5', 'LTS', '##[endgroup]', ...(spec.setup ?? [])];
  const steps = [{ number: 1, name: 'Set up job', status: 'completed', conclusion: spec.setupFails === true ? 'failure' : 'success' }];
  let failed = spec.setupFails === true;
  for (const step of spec.steps) {
    const name = step.name ?? `Run ${step.command}`;
    if (failed) {
      steps.push({ number: steps.length + 1, name, status: 'completed', conclusion: 'skipped' });
      continue;
    }
    out.push(`##[group]Run ${step.command}`, step.command, 'shell: /usr/bin/bash -e {0}', '##[endgroup]', ...step.lines);
    const fails = step.exitCode !== undefined;
    if (fails && !step.lines.some((line) => line.startsWith('##[error]'))) out.push(`##[error]Process completed with exit code ${step.exitCode}.`);
    steps.push({ number: steps.length + 1, name, status: 'completed', conclusion: fails ? 'failure' : 'success' });
    failed = fails;
  }
  out.push('Cleaning up orphan processes');
  steps.push({ number: steps.length + 1, name: 'Complete job', status: 'completed', conclusion: 'success' });
  return { log: out.map((text, i) => `${stamp(i)} ${text}`).join('\n'), steps, conclusion: spec.conclusion ?? (failed ? 'failure' : 'success') };
}

async function judge(spec: JobSpec) {
  const job = buildJob(spec);
  const { judgement } = await judgeJobLog({ log: job.log, steps: job.steps, conclusion: job.conclusion, status: 'completed' });
  const text = job.log.split('\n').map((line) => line.slice(29));
  // Evidence line numbers point into the log as archived.
  for (const line of judgement?.evidence?.lines ?? []) expect(text[line.line - 1]?.startsWith(line.text.replace(/…$/, '')), `line ${line.line}: ${line.text}`).toBe(true);
  return judgement;
}

function exampleJob(rule: OutcomeRule): JobSpec {
  if (rule.scope === 'setup') return { setup: rule.example.lines, setupFails: true, steps: [{ command: 'make test', lines: [] }] };
  return { steps: [{ command: 'echo start', lines: ['start'] }, { command: rule.example.command, lines: rule.example.lines, exitCode: rule.example.exitCode ?? 1 }] };
}

describe('the outcome rule table', () => {
  it('has unique ids and a source for every example', () => {
    const ids = OUTCOME_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of OUTCOME_RULES) expect(rule.example.source.length, rule.id).toBeGreaterThan(10);
  });

  it.each(OUTCOME_RULES.map((rule) => [rule.id, rule] as const))('%s decides its example', async (_id, rule) => {
    const judgement = await judge(exampleJob(rule));
    expect(judgement).toMatchObject({ outcome: rule.outcome, reason: rule.reason, evidence: { rule: rule.id } });
    expect(judgement?.evidence?.lines.length).toBeGreaterThan(0);
    const step = rule.scope === 'setup' ? 'Set up job' : `Run ${rule.example.command}`;
    expect(judgement?.evidence?.step).toBe(step);
  });

  it('ignores the same output in a step that passed when a later step fails for its own reasons', async () => {
    for (const rule of OUTCOME_RULES.filter((r) => r.scope === 'step')) {
      const judgement = await judge({
        steps: [
          { command: rule.example.command, lines: rule.example.lines.filter((line) => !line.startsWith('##[error]')) },
          { command: 'flake8 src', lines: ["src/app.py:3:1: F401 'os' imported but unused"], exitCode: 1 },
        ],
      });
      expect(judgement, rule.id).toMatchObject({ outcome: 'failed', reason: 'step_failed', evidence: { step: 'Run flake8 src' } });
    }
  });
});

describe('judging a job from its cause', () => {
  it('passes and skips from the conclusion alone', async () => {
    expect(await judge({ steps: [{ command: 'pytest', lines: ['1 passed'] }] })).toEqual({ outcome: 'passed', reason: null, evidence: null });
    const skipped = await judgeJobLog({ log: null, steps: [], conclusion: 'skipped' });
    expect(skipped.judgement).toEqual({ outcome: 'skipped', reason: null, evidence: null });
    expect((await judgeJobLog({ log: null, steps: [], conclusion: null, status: 'in_progress' })).judgement).toBeNull();
  });

  it('keeps a pytest failure whose assertion mentions "Connection refused" the repository\'s failure', async () => {
    const judgement = await judge({
      steps: [
        { command: 'pip install -e .[test]', lines: ['Successfully installed app-0.1.0'] },
        {
          command: 'python -m pytest tests',
          lines: [
            '============================= test session starts ==============================',
            'collected 12 items',
            '',
            'tests/test_client.py ...F........                                        [100%]',
            '',
            '=================================== FAILURES ===================================',
            '__________________________ test_reports_refused_port ___________________________',
            '',
            '    def test_reports_refused_port():',
            '        err = describe_error(ConnectionRefusedError(111, "Connection refused"))',
            '>       assert err == "server unavailable (Connection refused)"',
            "E       AssertionError: assert 'Connection refused' == 'server unavailable (Connection refused)'",
            '',
            'tests/test_client.py:42: AssertionError',
            '=========================== short test summary info ============================',
            "FAILED tests/test_client.py::test_reports_refused_port - AssertionError: assert 'Connection refused' == 'server unavailable (Connection refused)'",
            '========================= 1 failed, 11 passed in 0.12s =========================',
          ],
          exitCode: 1,
        },
      ],
    });
    expect(judgement).toMatchObject({ outcome: 'failed', reason: 'step_failed', evidence: { step: 'Run python -m pytest tests' } });
    expect(judgement?.evidence?.lines.map((line) => line.text)).toEqual(['##[error]Process completed with exit code 1.']);
  });

  it('keeps a test run failed when only some failing tests lost the network', async () => {
    const judgement = await judge({
      steps: [
        {
          command: 'python -m pytest tests',
          lines: [
            '=========================== short test summary info ============================',
            "FAILED tests/test_download.py::test_fetch - requests.exceptions.ConnectionError: HTTPSConnectionPool(host='data.example.org', port=443): Max retries exceeded (Caused by NameResolutionError(\"Failed to resolve 'data.example.org' ([Errno -3] Temporary failure in name resolution)\"))",
            'FAILED tests/test_parse.py::test_header - AssertionError: assert 3 == 4',
            '========================= 2 failed, 40 passed in 2.51s =========================',
          ],
          exitCode: 1,
        },
      ],
    });
    expect(judgement).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
  });

  it('calls a resolver conflict without any network line the repository\'s failure (Dependency Issues are real failures)', async () => {
    // Output as in https://github.com/rydercalmdown/package_theft_preventor/pull/1 (pip's resolver, no network error).
    const conflict = await judge({
      steps: [
        {
          command: 'pip install -r src/requirements.txt',
          lines: [
            'ERROR: Cannot install -r src/requirements.txt (line 3), -r src/requirements.txt (line 5) and numpy==1.21.0 because these package versions have conflicting dependencies.',
            '',
            'The conflict is caused by:',
            '    The user requested numpy==1.21.0',
            '    tensorflow 2.5.0 depends on numpy~=1.19.2',
            '',
            'ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/user_guide/#fixing-conflicting-dependencies',
          ],
          exitCode: 1,
        },
      ],
    });
    expect(conflict).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
    const missing = await judge({
      steps: [
        {
          command: 'pip install -r requirements.txt',
          lines: ['ERROR: Could not find a version that satisfies the requirement torch==1.4.0 (from versions: 2.2.0, 2.2.1, 2.3.0)', 'ERROR: No matching distribution found for torch==1.4.0'],
          exitCode: 1,
        },
      ],
    });
    expect(missing).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
  });

  it('calls the same "No matching distribution" with network errors before it an unreachable index', async () => {
    // pip's output when the index cannot be reached (https://github.com/gemfury/gemfury/issues/80).
    const judgement = await judge({
      steps: [
        {
          command: 'python -m pip install --index-url https://pypi.fury.io/acme/ intelcom-metrics',
          lines: [
            "WARNING: Retrying (Retry(total=1, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7fcc3aabc7c0>: Failed to establish a new connection: [Errno 111] Connection refused')': /acme/intelcom-metrics/",
            'ERROR: Could not find a version that satisfies the requirement intelcom-metrics (from versions: none)',
            'ERROR: No matching distribution found for intelcom-metrics',
          ],
          exitCode: 1,
        },
      ],
    });
    expect(judgement).toMatchObject({ outcome: 'infra_error', reason: 'network_unreachable', evidence: { rule: 'network-unreachable' } });
    expect(judgement?.evidence?.lines.map((line) => line.text)).toEqual([expect.stringContaining('Connection refused'), '##[error]Process completed with exit code 1.']);
  });

  it.each([
    ['npm ci (https://github.com/npm/cli/issues/8374, https://github.com/pnpm/pnpm/issues/8)', 'npm ci', ['npm error code ENOTFOUND', 'npm error syscall getaddrinfo', 'npm error errno ENOTFOUND', 'npm error network request to https://registry.npmjs.org/typescript failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org']],
    ['apt-get (https://github.com/actions/runner-images/issues/6013)', 'sudo apt-get update && sudo apt-get install -y libxml2-dev', ['Err:1 http://archive.ubuntu.com/ubuntu jammy InRelease', "  Temporary failure resolving 'archive.ubuntu.com'", 'E: Unable to locate package libxml2-dev']],
    ['apt-get fetch timeouts (https://github.com/openthread/openthread/issues/4799)', 'sudo apt-get install -y gcc-multilib', ['E: Failed to fetch http://azure.archive.ubuntu.com/ubuntu/pool/main/g/glibc/libc6-dev-i386_2.27-3ubuntu1_amd64.deb  Could not connect to azure.archive.ubuntu.com:80 (52.177.174.250), connection timed out', 'E: Unable to fetch some archives, maybe run apt-get update or try with --fix-missing?']],
    ['git clone (https://github.com/travis-ci/travis-ci/issues/1488)', 'git clone https://github.com/lodash/lodash-cli.git', ["Cloning into 'lodash-cli'...", "fatal: unable to access 'https://github.com/lodash/lodash-cli.git/': Could not resolve host: github.com"]],
    ['a script whose download raises', 'python scripts/fetch_data.py', [
      'Traceback (most recent call last):',
      '  File "/home/runner/work/app/app/scripts/fetch_data.py", line 12, in <module>',
      '    main()',
      "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='data.example.org', port=443): Max retries exceeded with url: /dump.csv (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f2c>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution'))",
    ]],
  ])('calls an unreachable network in %s infra_error', async (_name, command, lines) => {
    const judgement = await judge({ steps: [{ command, lines, exitCode: 1 }] });
    expect(judgement).toMatchObject({ outcome: 'infra_error', reason: 'network_unreachable', evidence: { step: `Run ${command}` } });
  });

  it('leaves a missing tool the repository should install to the repository, and runner tooling to the platform', async () => {
    const pytest = await judge({ steps: [{ command: 'pytest -q', lines: ['/home/runner/work/_temp/3f1c.sh: line 1: pytest: command not found'], exitCode: 127 }] });
    expect(pytest).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
    const docker = await judge({ steps: [{ command: 'docker compose up -d db', lines: ['sh: 1: docker: not found'], exitCode: 127 }] });
    expect(docker).toMatchObject({ outcome: 'infra_error', reason: 'runner_tooling_missing', evidence: { lines: [{ text: 'sh: 1: docker: not found' }, { text: '##[error]Process completed with exit code 127.' }] } });
    // A missing runner tool inside a step that failed on its own tests (not exit 127): the tests explain the exit.
    const tests = await judge({
      steps: [{ command: 'pytest; jq . report.json', lines: ['FAILED tests/test_a.py::test_b - AssertionError: assert 1 == 2', '==== 1 failed, 3 passed in 0.10s ====', '/home/runner/work/_temp/a.sh: line 1: jq: command not found'], exitCode: 1 }],
    });
    expect(tests).toMatchObject({ outcome: 'failed' });
  });

  it('needs the kill (exit 137) before calling "Killed" an OOM kill', async () => {
    const judgement = await judge({ steps: [{ command: 'python check.py', lines: ['Killed: 3 of 4 mutants', 'mutation score below threshold'], exitCode: 1 }] });
    expect(judgement).toMatchObject({ outcome: 'failed' });
  });

  it('reads a job over its time limit as timed_out even though it concludes cancelled, and other cancellations as cancelled', async () => {
    const timedOut = await judge({
      steps: [{ command: 'python -m pytest', lines: ['tests/test_slow.py ', '##[error]The operation was canceled.', '##[error]The job running on runner ci-replay-local has exceeded the maximum execution time of 1 minutes.'], exitCode: 1 }],
      conclusion: 'cancelled',
    });
    expect(timedOut).toMatchObject({ outcome: 'timed_out', reason: 'timed_out', evidence: { step: 'Run python -m pytest', rule: 'job-exceeded-max-time' } });
    const cancelled = await judge({ steps: [{ command: 'sleep 100', lines: ['##[error]The operation was canceled.'], exitCode: 1 }], conclusion: 'cancelled' });
    expect(cancelled).toMatchObject({ outcome: 'cancelled', reason: 'cancelled', evidence: { lines: [{ text: '##[error]The operation was canceled.' }] } });
  });

  it('decides from the steps alone when there is no log', async () => {
    const setup = await judgeJobLog({ log: null, conclusion: 'failure', steps: [{ number: 1, name: 'Set up job', status: 'completed', conclusion: 'failure' }, { number: 2, name: 'Run make', status: 'completed', conclusion: 'skipped' }] });
    expect(setup.judgement).toMatchObject({ outcome: 'infra_error', reason: 'job_setup_failed', evidence: { step: 'Set up job' } });
    const nothing = await judgeJobLog({ log: null, conclusion: 'failure', steps: [] });
    expect(nothing.judgement).toMatchObject({ outcome: 'infra_error', reason: 'job_setup_failed', evidence: { rule: 'no-step-ran' } });
    const lost = await judgeJobLog({ log: null, conclusion: 'failure', steps: [{ number: 1, name: 'Set up job', status: 'completed', conclusion: 'success' }, { number: 2, name: 'Build', status: 'in_progress', conclusion: null }] });
    expect(lost.judgement).toMatchObject({ outcome: 'infra_error', reason: 'runner_lost', evidence: { step: 'Build' } });
    const failed = await judgeJobLog({ log: null, conclusion: 'failure', steps: [{ number: 1, name: 'Set up job', status: 'completed', conclusion: 'success' }, { number: 2, name: 'Test', status: 'completed', conclusion: 'failure' }] });
    expect(failed.judgement).toMatchObject({ outcome: 'failed', reason: 'step_failed', evidence: { step: 'Test' } });
    expect((await judgeJobLog({ log: null, conclusion: 'startup_failure', steps: [] })).judgement).toMatchObject({ outcome: 'infra_error', reason: 'startup_failure' });
  });

  it('calls a failed "Set up job" that no rule explains job_setup_failed, with its error lines', async () => {
    const judgement = await judge({ setup: ["##[error]Error when evaluating 'env' for job 'test'. (Line: 12, Col: 14): Unexpected symbol"], setupFails: true, steps: [{ command: 'make', lines: [] }] });
    expect(judgement).toMatchObject({ outcome: 'infra_error', reason: 'job_setup_failed', evidence: { step: 'Set up job', lines: [{ text: expect.stringContaining('Error when evaluating') }] } });
  });
});

describe('judging a run from its jobs', () => {
  const job = (name: string, outcome: JudgedJob['outcome'], reason: string | null = null): JudgedJob => ({ name, outcome, reason, evidence: { step: 'Install', lines: [{ line: 7, text: 'x' }], rule: 'r' } });

  it('lets any real failure win over platform errors, and names the first infra job otherwise', () => {
    expect(judgeRun({ conclusion: 'failure', cancelRequested: false, jobs: [job('a', 'infra_error', 'network_unreachable'), job('b', 'failed', 'step_failed')] })).toMatchObject({ outcome: 'failed', reason: null, details: { job: 'b' } });
    expect(judgeRun({ conclusion: 'failure', cancelRequested: false, jobs: [job('a', 'passed'), job('b', 'infra_error', 'network_unreachable'), job('c', 'infra_error', 'out_of_disk'), job('d', 'skipped')] })).toEqual({
      outcome: 'infra_error',
      reason: 'network_unreachable',
      details: { job: 'b', step: 'Install', lines: [{ line: 7, text: 'x' }], rule: 'r' },
    });
    expect(judgeRun({ conclusion: 'success', cancelRequested: false, jobs: [job('a', 'passed')] })).toEqual({ outcome: 'passed', reason: null, details: null });
  });

  it('separates cancellation on request, job timeouts and GitHub-side conclusions', () => {
    expect(judgeRun({ conclusion: 'cancelled', cancelRequested: true, jobs: [job('a', 'timed_out', 'timed_out')] })).toMatchObject({ outcome: 'cancelled' });
    expect(judgeRun({ conclusion: 'cancelled', cancelRequested: false, jobs: [job('a', 'timed_out', 'timed_out'), job('b', 'cancelled')] })).toMatchObject({ outcome: 'timed_out', details: { job: 'a' } });
    expect(judgeRun({ conclusion: 'cancelled', cancelRequested: false, jobs: [job('a', 'cancelled', 'cancelled')] })).toMatchObject({ outcome: 'cancelled', reason: 'cancelled' });
    expect(judgeRun({ conclusion: 'timed_out', cancelRequested: false, jobs: [] })).toMatchObject({ outcome: 'timed_out', reason: 'timed_out' });
    expect(judgeRun({ conclusion: 'startup_failure', cancelRequested: false, jobs: [] })).toMatchObject({ outcome: 'infra_error', reason: 'startup_failure' });
    expect(judgeRun({ conclusion: 'failure', cancelRequested: false, jobs: [] })).toMatchObject({ outcome: 'failed' });
  });
});

describe("the executor's own messages, believed only as far as the executor reports them (local backend)", () => {
  const report = (over: Partial<ExecutorJobReport> = {}): ExecutorJobReport => ({ infraError: null, timedOut: false, timedOutSteps: [], ...over });

  async function judgeWith(spec: JobSpec, executor: ExecutorJobReport | null) {
    const job = buildJob(spec);
    return (await judgeJobLog({ log: job.log, steps: job.steps, conclusion: job.conclusion, status: 'completed', executor })).judgement;
  }

  const runnerRules = OUTCOME_RULES.filter((rule) => rule.issuer === 'runner');

  it('has runner-issued rules for every message only a runner writes', () => {
    expect(runnerRules.map((rule) => rule.id)).toEqual(expect.arrayContaining([
      'job-exceeded-max-time', 'step-timed-out', 'runner-shutdown', 'step-out-of-memory', 'step-process-limit', 'step-sandbox-failed',
      'setup-sandbox-unavailable', 'setup-unsupported-by-local-executor', 'step-unsupported-by-local-executor', 'local-interpreter-missing',
    ]));
    expect(OUTCOME_RULES.filter((rule) => rule.issuer === 'step').map((rule) => rule.id)).toEqual(expect.arrayContaining(['network-unreachable', 'disk-full', 'sudo-no-new-privileges']));
  });

  it.each(runnerRules.map((rule) => [rule.id, rule] as const))('%s printed by a step, unreported, does not decide', async (_id, rule) => {
    for (const executor of [null, report()]) {
      const judgement = await judgeWith(exampleJob(rule), executor);
      expect(judgement, rule.id).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
    }
  });

  it.each(runnerRules.filter((rule) => rule.scope !== 'job' || rule.outcome === 'timed_out').map((rule) => [rule.id, rule] as const))(
    '%s decides where the executor reports it at that step',
    async (_id, rule) => {
      const step = rule.scope === 'setup' ? 1 : 3;
      const confirming = rule.outcome === 'timed_out'
        ? report(rule.scope === 'job' ? { timedOut: true } : { timedOutSteps: [step] })
        : report({ infraError: { reason: rule.reason, message: 'as logged', stepNumber: step } });
      expect(await judgeWith(exampleJob(rule), confirming)).toMatchObject({ outcome: rule.outcome, reason: rule.reason, evidence: { rule: rule.id } });
      if (rule.scope === 'step' && rule.outcome === 'infra_error') {
        // the same cause reported at another step confirms nothing here
        const elsewhere = report({ infraError: { reason: rule.reason, message: 'as logged', stepNumber: 7 } });
        expect(await judgeWith(exampleJob(rule), elsewhere)).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
      }
    },
  );

  it('a step printing the memory-limit line and exiting 1 is failed; the executor\'s real kill is out_of_memory', async () => {
    const line = "##[error]The step exceeded the memory limit (EXECUTOR_STEP_MEMORY_MB=4096): out of memory, the step's processes were killed.";
    const spec: JobSpec = { steps: [{ command: 'echo start', lines: ['start'] }, { command: 'python -m pytest', lines: ['tests/test_a.py F', line, '##[error]Process completed with exit code 1.'], exitCode: 1 }] };
    expect(await judgeWith(spec, report())).toMatchObject({ outcome: 'failed', reason: 'step_failed', evidence: { step: 'Run python -m pytest' } });
    const killed = report({ infraError: { reason: 'out_of_memory', message: line.slice('##[error]'.length), stepNumber: 3 } });
    expect(await judgeWith(spec, killed)).toMatchObject({ outcome: 'infra_error', reason: 'out_of_memory', evidence: { rule: 'step-out-of-memory', step: 'Run python -m pytest' } });
    // GitHub (no executor report): the log is all there is
    expect(await judge(spec)).toMatchObject({ outcome: 'infra_error', reason: 'out_of_memory' });
  });

  it('what the executor reports decides even where its line is not in the log, with that line as evidence when it is', async () => {
    const cut: JobSpec = { steps: [{ command: 'echo start', lines: ['start'] }, { command: 'yes', lines: ['y', 'y', '##[warning]Log truncated'], exitCode: 1 }] };
    expect(await judgeWith(cut, report({ infraError: { reason: 'output_limit', message: 'The step exceeded the output limit', stepNumber: 3 } }))).toMatchObject({
      outcome: 'infra_error', reason: 'output_limit', evidence: { step: 'Run yes', rule: 'executor-report', lines: [] },
    });
    const timedOut = await judgeWith({ steps: [{ command: 'sleep 100', lines: ['##[error]The operation was canceled.'], exitCode: 1 }], conclusion: 'cancelled' }, report({ timedOut: true }));
    expect(timedOut).toMatchObject({ outcome: 'timed_out', reason: 'timed_out', evidence: { rule: 'executor-report' } });
    const forgedTimeout = await judgeWith({
      steps: [{ command: 'pytest', lines: ['##[error]The job running on runner ci-replay-local has exceeded the maximum execution time of 1 minutes.'], exitCode: 1 }],
    }, report());
    expect(forgedTimeout).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
    const setup = await judgeWith(
      { setup: ['##[error]services are not supported by the local executor'], setupFails: true, steps: [{ command: 'make', lines: [] }] },
      report({ infraError: { reason: 'unsupported_feature', message: 'services are not supported by the local executor', stepNumber: 1 } }),
    );
    expect(setup).toMatchObject({ outcome: 'infra_error', reason: 'unsupported_feature', evidence: { step: 'Set up job', rule: 'setup-unsupported-by-local-executor' } });
  });

  it('judges the output of the step\'s own programs from the log on both backends', async () => {
    const offline: JobSpec = { steps: [{ command: 'git clone https://github.com/lodash/lodash-cli.git', lines: ["fatal: unable to access 'https://github.com/lodash/lodash-cli.git/': Could not resolve host: github.com"], exitCode: 128 }] };
    expect(await judgeWith(offline, report())).toMatchObject({ outcome: 'infra_error', reason: 'network_unreachable' });
    expect(await judgeWith(offline, null)).toMatchObject({ outcome: 'infra_error', reason: 'network_unreachable' });
  });

  it('a workflow step named "Set up job" is a step, not the runner\'s job setup', async () => {
    const spec: JobSpec = { steps: [{ command: 'echo start', lines: ['start'] }, { name: 'Set up job', command: 'make setup', lines: ['make: *** [setup] Error 2'], exitCode: 2 }] };
    for (const judgement of [await judge(spec), await judgeWith(spec, report())]) {
      expect(judgement).toMatchObject({ outcome: 'failed', reason: 'step_failed', evidence: { step: 'Set up job' } });
    }
  });
});

describe('root-only commands where steps run unprivileged', () => {
  it('sudo refusing to elevate is root_required; a test failure next to it still explains the exit', async () => {
    const nnp = await judge({
      steps: [{
        command: 'sudo apt-get install -y libxml2-dev',
        lines: ['sudo: The "no new privileges" flag is set, which prevents sudo from running as root.', 'sudo: If sudo is running in a container, you may need to adjust the container configuration to disable the flag.'],
        exitCode: 1,
      }],
    });
    expect(nnp).toMatchObject({ outcome: 'infra_error', reason: 'root_required', evidence: { rule: 'sudo-no-new-privileges', step: 'Run sudo apt-get install -y libxml2-dev' } });
    const explained = await judge({
      steps: [{ command: 'sudo sysctl -w vm.max_map_count=262144 || true; pytest', lines: ["sudo: effective uid is not 0, is /usr/bin/sudo on a file system with the 'nosuid' option set or an NFS file system without root privileges?", 'FAILED tests/test_a.py::test_b - AssertionError: assert 1 == 2', '==== 1 failed in 0.1s ===='], exitCode: 1 }],
    });
    expect(explained).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
  });

  it("apt's lock error is root_required only under sudo: without it the repository forgot sudo (it fails on GitHub too)", async () => {
    const lines = ['E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)', 'E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?'];
    expect(await judge({ steps: [{ command: 'sudo apt-get install -y protobuf-compiler', lines, exitCode: 100 }] })).toMatchObject({ outcome: 'infra_error', reason: 'root_required', evidence: { rule: 'apt-needs-root' } });
    // https://github.com/triggermesh/triggermesh/pull/727: apt-get without sudo on a GitHub runner
    expect(await judge({ steps: [{ command: 'apt-get install -y protobuf-compiler', lines, exitCode: 100 }] })).toMatchObject({ outcome: 'failed', reason: 'step_failed' });
  });
});
