/** The classes of behaviour real workflows need (issue 15), each on a small workflow shaped like the real ones. */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { isAppError } from '../../../src/errors.js';
import {
  createWorkflowLinter, renderReport, standardizeWorkflowText, type ReportEntry, type StandardizeOptions, type StandardizeResult, type WorkflowLinter,
} from '../../../src/workflows/index.js';

const path = '.github/workflows/ci.yml';
const first: StandardizeOptions = { matrixStrategy: 'first' };

function lines(...text: string[]): string {
  return `${text.join('\n')}\n`;
}

function run(text: string, options: StandardizeOptions = first, workflows?: Array<{ path: string; text: string }>): StandardizeResult {
  return standardizeWorkflowText({ text, path, options, ...(workflows === undefined ? {} : { workflows }) });
}

function jobs(result: StandardizeResult): string[] {
  return Object.keys((parseDocument(result.text).toJS() as { jobs: Record<string, unknown> }).jobs);
}

function entry(result: StandardizeResult | ReportEntry[], target: string): ReportEntry | undefined {
  return (Array.isArray(result) ? result : result.report).find((item) => item.target === target);
}

function refusal(text: string, options: StandardizeOptions = first, workflows?: Array<{ path: string; text: string }>): ReportEntry[] {
  try {
    run(text, options, workflows);
  } catch (error) {
    if (isAppError(error) && error.code === 'nothing_to_validate') return (error.details as { report: ReportEntry[] }).report;
    throw error;
  }
  throw new Error('the workflow was not refused');
}

const TEST_JOB = ['  test:', '    runs-on: ubuntu-latest', '    steps:', '      - uses: actions/checkout@v4', '      - run: pytest'];

describe('findings the standardizer must not introduce', () => {
  let linter: WorkflowLinter;
  beforeAll(async () => {
    linter = await createWorkflowLinter();
  });

  it('removes job outputs that point at removed steps, and their readers read an empty string', () => {
    const text = lines(
      'on: push',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    outputs:',
      '      url: ${{ steps.deploy.outputs.url }}',
      '      version: ${{ steps.version.outputs.value }}',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - id: version',
      '        run: echo "value=1" >> "$GITHUB_OUTPUT"',
      '      - run: python -m build',
      '      - id: deploy',
      '        uses: cloudflare/wrangler-action@v3',
      '        with:',
      '          apiToken: ${{ secrets.CF_TOKEN }}',
      '  check:',
      '    needs: build',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: curl -f "${{ needs.build.outputs.url }}" && echo ${{ needs.build.outputs.version }}',
    );
    const result = run(text);
    expect(entry(result, 'jobs.build.outputs.url')).toMatchObject({ action: 'removed-setting' });
    expect(result.text).toContain('version: ${{ steps.version.outputs.value }}');
    expect(result.text).toContain('run: curl -f "" && echo ${{ needs.build.outputs.version }}');
    expect(linter(result.text, path)).toEqual([]);
  });

  it('defines matrix keys the chosen configuration lacks but the steps read', () => {
    const text = lines(
      'on: push',
      'jobs:',
      '  test:',
      '    runs-on: ${{ matrix.os }}',
      '    container: ${{ matrix.container }}',
      '    strategy:',
      '      matrix:',
      "        python: ['3.12', '3.13']",
      '        os: [ubuntu-latest]',
      '        include:',
      "          - python: '3.7'",
      '            os: ubuntu-latest',
      "            container: 'python:3.7'",
      '    steps:',
      '      - if: ${{ matrix.container == null }}',
      '        uses: actions/setup-python@v5',
      '        with:',
      '          python-version: ${{ matrix.python }}',
      '      - run: pytest',
    );
    const result = run(text, { matrixStrategy: 'newest-python' });
    expect(entry(result, 'jobs.test.strategy.matrix')?.reason).toContain("matrix.container (set only by dropped entries) is defined as ''");
    expect((parseDocument(result.text).toJS() as { jobs: { test: { strategy: { matrix: unknown } } } }).jobs.test.strategy.matrix)
      .toEqual({ python: ['3.13'], os: ['ubuntu-latest'], container: [''] });
    expect(linter(result.text, path)).toEqual([]);
  });

  it('writes a number-typed input default as a number where GitHub reads a number', () => {
    const text = lines(
      'on:',
      '  workflow_call:',
      '    inputs:',
      '      timeout:',
      '        type: number',
      '        default: 20',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    timeout-minutes: ${{ inputs.timeout }}',
      '    steps:',
      '      - run: pytest --timeout ${{ inputs.timeout }}',
    );
    const result = run(text);
    expect(result.text).toContain('timeout-minutes: 20\n');
    expect(result.text).toContain('run: pytest --timeout 20');
    expect(linter(result.text, path)).toEqual([]);
  });
});

describe('upstream-only work', () => {
  it('drops a job guarded to the upstream repository that needs a secret, naming the guard and the secret', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      ...TEST_JOB,
      '  upload:',
      "    if: github.repository == 'acme/app'",
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: ./scripts/sync-results.sh',
      '        env:',
      '          STORE_KEY: ${{ secrets.STORE_KEY }}',
    ));
    expect(jobs(result)).toEqual(['test']);
    expect(entry(result, 'jobs.upload')).toMatchObject({ action: 'removed-job', rule: 'upstream-only', evidence: "if: github.repository == 'acme/app'; secrets.STORE_KEY" });
  });

  it('removes the guard from upstream-guarded validation that needs nothing a copy lacks', () => {
    const result = run(lines('on: push', 'jobs:', ...TEST_JOB, '  lint:', "    if: github.repository_owner == 'acme'", '    runs-on: ubuntu-latest', '    steps:', '      - run: ruff check .'));
    expect(jobs(result)).toEqual(['test', 'lint']);
    expect(entry(result, 'jobs.lint.if')?.reason).toBe("removed `github.repository_owner == 'acme'` (false on a fork)");
  });

  it('drops a step guarded to where secrets exist when it needs them, and runs the fork variant', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      '  integration:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: pip install -e .',
      '      - name: with secrets',
      '        if: ${{ !github.event.pull_request.head.repo.fork }}',
      '        run: pytest integration',
      '        env:',
      '          AUTH: ${{ secrets.AUTH }}',
      '      - name: for forks',
      '        if: ${{ github.event.pull_request.head.repo.fork }}',
      '        run: pytest integration -m "not auth"',
    ));
    expect(entry(result, 'jobs.integration.steps[1]')).toMatchObject({ rule: 'upstream-only' });
    expect(result.text).toContain('- name: for forks\n        run: pytest integration -m "not auth"');
  });
});

describe('jobs that need real secrets, decided by where the secret flows', () => {
  const job = (env: string[], condition: string[] = []): string => lines(
    'on: push',
    'jobs:',
    '  unit:',
    '    runs-on: ubuntu-latest',
    ...env.map((line) => `    ${line}`),
    '    steps:',
    '      - run: pip install -e .',
    ...condition,
    '      - run: pytest tests/llm',
    '        env:',
    '          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}',
    ...TEST_JOB,
  );

  it('drops a job whose command receives a live API key', () => {
    const result = run(job([]));
    expect(jobs(result)).toEqual(['test']);
    expect(entry(result, 'jobs.unit')).toMatchObject({ rule: 'secret-bound', evidence: 'secrets.OPENAI_API_KEY → `pytest tests/llm`' });
  });

  it('keeps it when the step copes with an empty key (a guard on the value)', () => {
    const text = job([], []).replace('      - run: pytest tests/llm', "      - if: env.OPENAI_API_KEY != ''\n        run: pytest tests/llm");
    expect(jobs(run(text))).toEqual(['unit', 'test']);
  });

  it('removes a step that publishes with a credential, then the job left with setup only (one pass sees the other)', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      ...TEST_JOB,
      '  docs-publish:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: pip install mkdocs',
      '      - run: ./scripts/sync.sh',
      '        env:',
      '          VERCEL_TOKEN: ${{ secrets.VERCEL_TOKEN }}',
    ));
    expect(jobs(result)).toEqual(['test']);
    expect(entry(result, 'jobs.docs-publish')).toMatchObject({ rule: 'deployment' });
  });
});

describe('publishing decided by what the steps do, not by job-name words', () => {
  it('drops docs-publish and deploy_to_test jobs whose steps only publish, keeps the build of build-and-deploy', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      ...TEST_JOB,
      '  docs-publish:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/download-artifact@v4',
      '      - uses: peaceiris/actions-gh-pages@v4',
      '        with:',
      '          github_token: ${{ secrets.GITHUB_TOKEN }}',
      '  deploy_to_pypi_test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/download-artifact@v4',
      '      - uses: pypa/gh-action-pypi-publish@release/v1',
      '  build-and-deploy:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: python -m build',
      '      - run: twine upload dist/*',
    ));
    expect(jobs(result)).toEqual(['test', 'build-and-deploy']);
    expect(entry(result, 'jobs.docs-publish')).toMatchObject({ rule: 'deployment', evidence: 'peaceiris/actions-gh-pages' });
    expect(entry(result, 'jobs.build-and-deploy.steps[2]')).toMatchObject({ rule: 'publishing', evidence: 'twine upload dist/*' });
  });

  it('treats image pushes as publishing, through a retry wrapper and imagetools too, and refuses a workflow that only publishes images', () => {
    const report = refusal(lines(
      'on: push',
      'jobs:',
      '  image:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - uses: docker/login-action@v3',
      '        with:',
      '          password: ${{ secrets.DOCKERHUB_TOKEN }}',
      '      - uses: Wandalen/wretry.action@v3',
      '        with:',
      '          action: docker/build-push-action@v6',
      '          with: |',
      '            context: .',
      '            push: true',
      '  manifest:',
      '    needs: image',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: docker buildx imagetools create -t acme/app:latest acme/app@sha256:abc',
    ));
    expect(entry(report, 'jobs.image')).toMatchObject({ rule: 'publishing' });
    expect(entry(report, 'jobs.image')?.reason).toContain('through wandalen/wretry.action');
    expect(entry(report, 'jobs.manifest')?.evidence).toContain('docker buildx imagetools create');
  });

  it('keeps building an image that a pull request builds without pushing', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      '  image:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: docker/build-push-action@v6',
      '        with:',
      "          push: ${{ github.event_name != 'pull_request' }}",
      '      - run: docker run --rm app pytest',
    ));
    expect(result.text).toContain('push: false');
  });
});

describe('local reusable workflows judged by what the callee does', () => {
  const callee = (steps: string[]): string => lines('on:', '  workflow_call:', 'jobs:', '  work:', '    runs-on: ubuntu-latest', '    steps:', ...steps);
  const caller = lines('on: push', 'jobs:', ...TEST_JOB, '  images:', '    uses: ./.github/workflows/_images.yml', '    secrets: inherit', '  checks:', '    uses: ./.github/workflows/_checks.yml');

  it('drops a call of a callee that only builds and pushes images, keeps a call of one that tests', () => {
    const workflows = [
      { path: '.github/workflows/_images.yml', text: callee(['      - uses: docker/build-push-action@v6', '        with:', '          push: true']) },
      { path: '.github/workflows/_checks.yml', text: callee(['      - uses: actions/checkout@v4', '      - run: tox -e lint']) },
    ];
    const result = run(caller, first, workflows);
    expect(jobs(result)).toEqual(['test', 'checks']);
    expect(entry(result, 'jobs.images')).toMatchObject({ rule: 'callee-nothing-to-validate', evidence: './.github/workflows/_images.yml' });
  });

  it('keeps the call when the callee is not among the workflows given', () => {
    expect(jobs(run(caller))).toEqual(['test', 'images', 'checks']);
  });

  it('runs a reusable workflow as the entry with the inputs its callers pass', () => {
    const reusable = lines(
      'on:',
      '  workflow_call:',
      '    inputs:',
      '      runner: {required: true, type: string}',
      '      python-version: {required: true, type: string}',
      '      run-mypy: {required: true, type: boolean}',
      'jobs:',
      '  mypy:',
      '    if: inputs.run-mypy',
      '    runs-on: ${{ inputs.runner }}',
      '    steps:',
      '      - run: mypy --python-version ${{ inputs.python-version }}',
    );
    const callerText = lines(
      'on: push',
      'jobs:',
      '  matrix:',
      '    strategy:',
      '      matrix:',
      '        os: [{name: Ubuntu, image: ubuntu-22.04}, {name: Windows, image: windows-2022}]',
      "        python-version: ['3.10', '3.13']",
      '    uses: ./.github/workflows/_matrix.yml',
      '    with:',
      '      runner: ${{ matrix.os.image }}',
      '      python-version: ${{ matrix.python-version }}',
      "      run-mypy: ${{ needs.changes.outputs.tests == 'true' }}",
    );
    const result = standardizeWorkflowText({
      text: reusable,
      path: '.github/workflows/_matrix.yml',
      options: { matrixStrategy: 'newest-python' },
      workflows: [{ path: '.github/workflows/tests.yml', text: callerText }],
    });
    expect(result.text).toContain('runs-on: ubuntu-22.04');
    expect(result.text).toContain('run: mypy --python-version 3.13');
    expect(result.text).toContain('if: true');
    expect(entry(result, 'inputs.runner')?.reason).toBe("has no default; replaced by 'ubuntu-22.04', the value .github/workflows/tests.yml (jobs.matrix) for its chosen configuration passes (no inputs on push)");
    expect(entry(result, 'inputs.run-mypy')?.reason).toContain('replaced by true, so the checks it gates run');
  });
});

describe('runners', () => {
  it('maps runner groups and larger runners to hosted labels, and drops special hardware', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      '  tests:',
      '    runs-on: {group: aws-general-8-plus}',
      '    steps: [{run: pytest}]',
      '  gpu:',
      '    runs-on: {group: aws-g6-4xlarge-plus}',
      '    container: {image: pytorch/pytorch, options: --gpus all}',
      '    steps: [{run: pytest tests/gpu}]',
      '  lint:',
      '    runs-on: ${{ vars.UBUNTU_LATEST }}',
      '    steps: [{run: ruff check .}]',
    ));
    expect(jobs(result)).toEqual(['tests', 'lint']);
    expect(result.text).toContain('runs-on: ubuntu-latest');
    expect(entry(result, 'jobs.gpu')).toMatchObject({ rule: 'special-hardware' });
  });

  it('rewrites the matrix values runs-on reads and keeps the steps gated on the chosen value running', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      '  unit:',
      '    runs-on: ${{ matrix.os }}',
      '    strategy:',
      '      matrix:',
      '        os: [blacksmith-4vcpu-ubuntu-2404, windows-latest]',
      '    steps:',
      "      - if: startsWith(matrix.os, 'blacksmith-4vcpu-ubuntu')",
      '        run: sudo apt-get install -y libcurl4-openssl-dev',
      '      - run: tox',
    ));
    expect(result.text).toContain('os: [ubuntu-latest]');
    expect(result.text).not.toContain("startsWith(matrix.os, 'blacksmith");
    expect(result.report.some((item) => item.action === 'rewrote-guard' && item.reason.includes('kept it true after the runner became ubuntu-latest'))).toBe(true);
  });
});

describe('matrices', () => {
  it('reduces a Python × OS product frozen by a task include entry, keeping the distinct task', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      '  tests:',
      '    runs-on: ${{ matrix.os }}',
      '    strategy:',
      '      matrix:',
      "        python: ['3.12', '3.13', '3.14', '3.14t', 'pypy-3.11', '3.15-dev']",
      '        os: [ubuntu-latest, windows-latest]',
      '        include:',
      "          - {python: '3.11', os: ubuntu-latest, tox: tests-min}",
      '    steps:',
      '      - run: tox -e ${{ matrix.tox || format(\'py{0}\', matrix.python) }}',
    ), { matrixStrategy: 'newest-python' });
    const matrix = (parseDocument(result.text).toJS() as { jobs: { tests: { strategy: { matrix: { include: unknown[] } } } } }).jobs.tests.strategy.matrix;
    expect(matrix).toEqual({ include: [{ python: '3.14', os: 'ubuntu-latest', tox: '' }, { python: '3.11', os: 'ubuntu-latest', tox: 'tests-min' }] });
  });

  it('takes the newest final CPython, not free-threaded, PyPy or a pre-release, unless the failed job names another', () => {
    const text = lines(
      'on: push',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    strategy:',
      '      matrix:',
      "        python: ['3.12', '3.13', '3.13t', 'pypy3.11', '3.14-dev']",
      '    steps: [{run: pytest}]',
    );
    expect(entry(run(text, { matrixStrategy: 'newest-python' }), 'jobs.test.strategy.matrix')?.reason).toContain('kept python=3.13 ');
    expect(entry(run(text, { matrixStrategy: 'newest-python', failedJobNames: ['test (3.12)'] }), 'jobs.test.strategy.matrix')?.reason)
      .toContain('kept python=3.12 (5 → 1 configurations), chosen as the failed job "test (3.12)"');
  });
});

describe('path filters inside a job', () => {
  it('removes step guards on a changed-files step, as for path-filter jobs', () => {
    const result = run(lines(
      'on: push',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - id: changes',
      '        uses: dorny/paths-filter@v3',
      '        with: {filters: "src: [src/**]"}',
      "      - if: steps.changes.outputs.src == 'true'",
      '        run: pytest',
    ));
    expect(result.text).toContain('      - run: pytest');
    expect(entry(result, 'jobs.test.steps[1].if')?.reason).toContain('a path filter that could skip the checks');
  });

  it('treats a script that greps the changed files into an output as a path filter', () => {
    const result = run(lines(
      'on: pull_request',
      'jobs:',
      '  generated:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '        with: {fetch-depth: 0}',
      '      - id: filter',
      '        run: |',
      "          if git diff --name-only origin/${GITHUB_BASE_REF}...HEAD | grep -q 'gen.py'; then",
      '            echo "changed=true" >> "$GITHUB_OUTPUT"',
      '          fi',
      "      - if: steps.filter.outputs.changed == 'true'",
      '        run: python gen.py --check',
    ));
    expect(jobs(result)).toEqual(['generated']);
    expect(result.text).toContain('      - run: python gen.py --check');
    expect(entry(result, 'jobs.generated.steps[1]')).toMatchObject({ rule: 'pull-request-only', evidence: 'reads GITHUB_BASE_REF' });
    expect(entry(result, 'jobs.generated.steps[2].if')?.reason).toContain('a path filter that could skip the checks');
  });
});

describe('workflows with nothing to validate', () => {
  it('refuses a scheduled maintenance workflow guarded to the upstream repository or a dispatch', () => {
    const report = refusal(lines(
      'on:',
      '  schedule: [{cron: "0 0 * * *"}]',
      '  workflow_dispatch:',
      'jobs:',
      '  sync:',
      "    if: github.repository == 'acme/app' || github.event_name == 'workflow_dispatch'",
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: python scripts/sync_people.py',
      '        env:',
      '          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
    ));
    expect(entry(report, 'jobs.sync')).toMatchObject({ action: 'removed-job', rule: 'upstream-only' });
  });

  it('refuses issue bots and report generators', () => {
    refusal(lines('on: {issues: {types: [opened]}}', 'jobs:', '  triage:', '    runs-on: ubuntu-latest', '    steps:', '      - uses: actions/github-script@v7', '        with:', `          script: 'github.rest.issues.addLabels({ issue_number: 1, labels: ["bug"] })'`));
    refusal(lines('on: {schedule: [{cron: "0 0 * * 1"}]}', 'jobs:', '  stats:', '    runs-on: ubuntu-latest', '    steps:', '      - uses: actions/checkout@v4', '      - run: python scripts/collect.py > stats.json'));
  });
});

describe('time-machine package indexes', () => {
  const text = lines(
    'on: push',
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    services:',
    '      pypi:',
    '        image: ghcr.io/acme/pypi-timemachine:latest',
    '        ports: ["9876:9876"]',
    '        env: {CUTOFF: "2023-05-02"}',
    '    env:',
    '      PIP_INDEX_URL: http://localhost:9876/',
    '    steps:',
    '      - run: pip install -e . && pytest',
  );

  it('recognizes the service and tells what replaces it where services cannot run', () => {
    const result = run(text, { matrixStrategy: 'first', pinDate: new Date('2023-05-01T12:00:00Z') });
    expect(result.packageIndexes).toEqual([{
      job: 'test', service: 'pypi', image: 'ghcr.io/acme/pypi-timemachine:latest', url: 'http://localhost:9876/', variables: ['PIP_INDEX_URL'],
      cutoff: '2023-05-02', handling: 'kept', substitute: { pinDate: '2023-05-01T12:00:00Z' },
    }]);
    expect(entry(result, 'jobs.test.services.pypi')?.action).toBe('package-index');
    expect(result.text).toContain('PIP_INDEX_URL: http://localhost:9876/');
  });

  it('replaces it by the configured index', () => {
    const result = run(text, { matrixStrategy: 'first', indexUrl: 'https://tm.example/2023-05-01/simple' });
    expect(result.text).not.toContain('services:');
    expect(result.text).toContain('PIP_INDEX_URL: https://tm.example/2023-05-01/simple');
    expect(result.packageIndexes?.[0]).toMatchObject({ handling: 'replaced', substitute: { indexUrl: 'https://tm.example/2023-05-01/simple' } });
  });
});

describe('the report', () => {
  it('names the rule and the evidence of every removal', () => {
    const result = run(lines('on: push', 'jobs:', ...TEST_JOB, '  deploy:', '    runs-on: ubuntu-latest', '    steps:', '      - uses: actions/deploy-pages@v4'));
    for (const item of result.report.filter((report) => report.action === 'removed-job' || report.action === 'removed-step')) {
      expect(item.rule, item.target).toBeDefined();
      expect(item.evidence, item.target).toBeTruthy();
    }
    expect(renderReport(result.report)).toContain('| `jobs.deploy` | deployment | deploy no steps left after removing: actions/deploy-pages@v4 deploys GitHub Pages | `actions/deploy-pages` |');
  });
});
