import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_EXECUTOR_CAPABILITIES } from '../../../src/backends/local/capabilities.js';
import {
  GITHUB_ACTIONS_CAPABILITIES,
  preflightWorkflow,
  renderBlockers,
  standardizeWorkflowText,
  summarizeBlockers,
  type BackendCapabilities,
  type Blocker,
} from '../../../src/workflows/index.js';
import { mayRun } from '../../../src/workflows/preflight/conditions.js';

// Real workflow files from public repositories; each fixture's first line names its source (repository, commit, path).
const root = join(import.meta.dirname, '../../fixtures/preflight');
const raw = (name: string): string => readFileSync(join(root, name), 'utf8');

/** The fixture as the pipeline installs it: standardized first. */
function standardized(name: string): string {
  return standardizeWorkflowText({ text: raw(name), path: `.github/workflows/${name}`, options: { matrixStrategy: 'newest-python' } }).text;
}

function preflight(text: string, capabilities: BackendCapabilities, callees: { path: string; text: string }[] = []): Blocker[] {
  return preflightWorkflow({ workflow: { path: '.github/workflows/ci.yml', text }, callees, capabilities });
}

const local = (name: string): Blocker[] => preflight(standardized(name), LOCAL_EXECUTOR_CAPABILITIES);
const github = (name: string): Blocker[] => preflight(standardized(name), GITHUB_ACTIONS_CAPABILITIES);
const brief = (blockers: Blocker[]): [string, string, string | null, string | null][] =>
  blockers.map((blocker) => [blocker.code, blocker.job, blocker.step ?? null, blocker.evidence ?? null]);

const FIXTURES = [
  'arq-ci.yml', 'dank-mids-pytest.yaml', 'encode-databases-test-suite.yml', 'example-services-postgres.yml', 'example-services-redis.yml',
  'falcon-tests-mailman.yaml', 'fastapi-template-test-docker-compose.yml', 'granian-test.yml', 'jupyterlab-windowstests.yml', 'kinto-test.yml',
  'numpy-linux-musl.yml', 'rq-workflow.yml', 'scrapyd-tests.yml',
];

describe('preflight on the local executor (real workflows, standardized first)', () => {
  it('service containers block, and so do the localhost URLs on the ports they publish (encode/databases)', () => {
    const blockers = local('encode-databases-test-suite.yml');
    expect(brief(blockers)).toEqual([
      ['service_container', 'tests', null, 'mysql:5.7'],
      ['service_container', 'tests', null, 'postgres:14'],
      ['localhost_service_url', 'tests', 'Run tests', 'mysql://username:password@localhost:3306'],
      ['localhost_service_url', 'tests', 'Run tests', 'postgresql://username:password@localhost:5432'],
    ]);
    expect(blockers[0]?.message).toBe('job tests needs the service container "mysql" (mysql:5.7); the local executor cannot start service containers');
    expect(blockers[3]?.message).toContain('port 5432 of the service container "postgres" (postgres:14)');
    expect(github('encode-databases-test-suite.yml')).toEqual([]);
  });

  it('a server the job starts itself on localhost:8000 is no blocker, with or without services', () => {
    // full-stack-fastapi-template: `docker compose up` then `curl http://localhost:8000/...`, no services.
    expect(local('fastapi-template-test-docker-compose.yml')).toEqual([]);
    // Kinto: `make runkinto &` / `kinto start ... &` next to a postgres service; psql reaches it with `-h localhost` (no URL).
    const kinto = local('kinto-test.yml');
    expect(brief(kinto)).toEqual([
      ['unsupported_action', 'lint', 'Run ShellCheck', 'ludeeus/action-shellcheck@master'],
      ['service_container', 'unit-test', null, 'postgres'],
      ['service_container', 'unit-test', null, 'memcached'],
      ['service_container', 'functional', null, 'postgres'],
    ]);
    expect(kinto.some((blocker) => blocker.job === 'kinto-admin' || blocker.job === 'docs' || blocker.job === 'finish')).toBe(false);
    // Derived from encode/databases: the same job also starts its own app on :8000; only the service ports count.
    const withOwnServer = standardized('encode-databases-test-suite.yml').replace(
      '        run: "scripts/test"\n',
      '        run: "scripts/test"\n      - name: Smoke test the app\n        run: |\n          uvicorn app:app --port 8000 &\n          curl --retry 5 --retry-connrefused http://localhost:8000/health\n',
    );
    const blockers = preflight(withOwnServer, LOCAL_EXECUTOR_CAPABILITIES);
    expect(blockers.filter((blocker) => blocker.step === 'Smoke test the app')).toEqual([]);
    expect(blockers.filter((blocker) => blocker.code === 'localhost_service_url')).toHaveLength(2);
  });

  it('job containers, given as a mapping or as a plain image (actions/example-services, numpy)', () => {
    expect(brief(local('example-services-postgres.yml'))).toEqual([
      ['service_container', 'container-job', null, 'postgres:10.8'],
      ['job_container', 'container-job', null, 'node:10.16-jessie'],
      ['service_container', 'vm-job', null, 'postgres:10.8'],
    ]);
    expect(brief(local('example-services-redis.yml'))).toEqual([
      ['service_container', 'container-job', null, 'redis'],
      ['job_container', 'container-job', null, 'node:10.16-buster'],
      ['service_container', 'vm-job', null, 'redis'],
    ]);
    const musl = local('numpy-linux-musl.yml');
    expect(brief(musl)).toEqual([['job_container', 'musllinux_x86_64', null, 'quay.io/pypa/musllinux_1_1_x86_64']]);
    expect(musl[0]?.message).toContain('runs its steps in the container quay.io/pypa/musllinux_1_1_x86_64');
  });

  it('actions without a built-in stand-in: marketplace, docker:// (rq, falcon, arq)', () => {
    expect(brief(local('rq-workflow.yml'))).toEqual([
      ['unsupported_action', 'ssl-test', 'Build the Docker test image for tox', 'docker/build-push-action@v4'],
      ['unsupported_action', 'ssl-test', 'Launch tox SSL env only (will only run SSL specific tests)', 'addnab/docker-run-action@v3'],
      ['unsupported_action', 'test', 'Start Redis', 'supercharge/redis-github-action@1.7.0'],
    ]);
    const falcon = local('falcon-tests-mailman.yaml');
    expect(brief(falcon)).toEqual([['unsupported_action', 'run_tox', 'Run tox', 'docker://ghcr.io/maxking/mailman-ci-runner-falcon:master']]);
    expect(falcon[0]?.message).toContain('a Docker container action');
    // arq: runs-on `${{ matrix.os }}-latest` resolves to ubuntu-latest; upload-artifact is built in; alls-green is not.
    expect(brief(local('arq-ci.yml'))).toEqual([['unsupported_action', 'check', 'Decide whether the needed jobs succeeded or failed', 're-actors/alls-green@release/v1']]);
  });

  it('checkout, setup-python, setup-node, cache, upload-artifact and download-artifact are fine locally', () => {
    const builtins = ['actions/checkout', 'actions/setup-python', 'actions/setup-node', 'actions/cache', 'actions/upload-artifact', 'actions/download-artifact'];
    for (const name of FIXTURES) {
      const named = local(name).filter((blocker) => blocker.code === 'unsupported_action').map((blocker) => (blocker.evidence ?? '').toLowerCase());
      expect(named.filter((uses) => builtins.some((builtin) => uses.startsWith(`${builtin}@`))), name).toEqual([]);
    }
    // arq's release job, unstandardized: download-artifact passes, its other actions do not.
    const release = preflight(raw('arq-ci.yml'), LOCAL_EXECUTOR_CAPABILITIES).filter((blocker) => blocker.job === 'release' && blocker.code === 'unsupported_action');
    expect(release.map((blocker) => blocker.evidence)).toEqual(['samuelcolvin/check-python-version@v3.2', 'pypa/gh-action-pypi-publish@release/v1']);
  });

  it('Windows and macOS runners and pwsh (jupyterlab, granian); a cross-OS matrix reduced to ubuntu is fine (scrapyd)', () => {
    const windows = local('jupyterlab-windowstests.yml');
    expect(brief(windows)).toEqual([
      ['non_linux_runner', 'windowstests', null, 'windows-latest'],
      ['unsupported_action', 'windowstests', 'Base Setup', 'jupyterlab/maintainer-tools/.github/actions/base-setup@v1'],
      ['unsupported_shell', 'windowstests', 'Install dependencies', 'pwsh'],
      ['unsupported_shell', 'windowstests', 'Run test ${{ matrix.group }}', 'pwsh'],
    ]);
    expect(windows[0]?.message).toBe('job windowstests runs on [windows-latest]; the local executor runs Linux jobs only');
    expect(brief(local('granian-test.yml'))).toEqual([
      ['non_linux_runner', 'macos', null, 'macos-latest'],
      ['non_linux_runner', 'windows', null, 'windows-latest'],
    ]);
    expect(local('scrapyd-tests.yml')).toEqual([]);
    expect(github('jupyterlab-windowstests.yml')).toEqual([]);
    expect(github('granian-test.yml')).toEqual([]);
  });

  it('a matrix kept whole by the standardizer still runs its macOS and Windows configurations (dank_mids)', () => {
    const blockers = local('dank-mids-pytest.yaml');
    expect(brief(blockers)).toEqual([
      ['non_linux_runner', 'test', null, '${{ matrix.os }}'],
      ['missing_secret', 'test', 'Setup brownie networks', '${{ secrets[matrix.provider] }}'],
    ]);
    expect(blockers[0]?.message).toBe('job test runs on [macos-latest], [windows-latest]; the local executor runs Linux jobs only');
  });

  it('self-hosted and GPU labels, also through the matrix', () => {
    const text = standardized('granian-test.yml')
      .replace('runs-on: macos-latest', 'runs-on: [self-hosted, linux, x64]')
      .replace('runs-on: windows-latest', 'runs-on: ${{ matrix.runner }}')
      .replace(/(windows:\n(?:.*\n)*?\s+matrix:\n)/, '$1        runner: [ubuntu-latest-gpu]\n');
    expect(brief(preflight(text, LOCAL_EXECUTOR_CAPABILITIES))).toEqual([
      ['self_hosted_runner', 'macos', null, '[self-hosted, linux, x64]'],
      ['gpu_runner', 'windows', null, '${{ matrix.runner }}'],
    ]);
  });
});

describe('preflight on GitHub', () => {
  it('flags the secrets the standardizer could not replace, not those it did (dank_mids)', () => {
    const blockers = github('dank-mids-pytest.yaml');
    expect(brief(blockers)).toEqual([['missing_secret', 'test', 'Setup brownie networks', '${{ secrets[matrix.provider] }}']]);
    expect(blockers[0]?.message).toContain('reads secrets by a name computed at run time');
    // The standardizer replaced secrets.ETHERSCAN_TOKEN by ''; the raw file still reads it.
    expect(preflight(raw('dank-mids-pytest.yaml'), GITHUB_ACTIONS_CAPABILITIES).map((blocker) => blocker.evidence)).toEqual([
      '${{ secrets[matrix.provider] }}',
      '${{ secrets.ETHERSCAN_TOKEN }}',
    ]);
  });

  it('reads of the secrets context the standardizer leaves: other case, whole context; never GITHUB_TOKEN, member names or literals', () => {
    const text = standardized('kinto-test.yml').replace(
      '          COVERAGE_DEBUG: config,trace,pathmap\n',
      [
        '          COVERAGE_DEBUG: config,trace,pathmap',
        '          UPPER: ${{ Secrets.COVERALLS_REPO_TOKEN }}',
        "          ALL: ${{ toJSON(secrets) }}",
        "          TOKEN: ${{ secrets['GITHUB_TOKEN'] }}",
        '          MEMBER: ${{ steps.x.outputs.secrets }}',
        "          LITERAL: ${{ format('secrets {0}', github.sha) }}",
        '',
      ].join('\n'),
    );
    const blockers = preflight(text, GITHUB_ACTIONS_CAPABILITIES);
    expect(blockers.map((blocker) => blocker.evidence)).toEqual(['${{ Secrets.COVERALLS_REPO_TOKEN }}', '${{ toJSON(secrets) }}']);
    const holding: BackendCapabilities = { ...GITHUB_ACTIONS_CAPABILITIES, secrets: ['COVERALLS_REPO_TOKEN'] };
    expect(preflight(text, holding).map((blocker) => blocker.evidence)).toEqual(['${{ toJSON(secrets) }}']);
  });
});

describe('commands that need root', () => {
  const text = [
    'name: tests',
    'on: push',
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '      - name: System packages',
    '        run: |',
    '          # sudo is needed for apt',
    '          sudo apt-get update',
    '          sudo apt-get install -y libxml2-dev xvfb',
    '      - name: Kernel setting',
    '        run: if [ -n "$CI" ]; then sudo sysctl -w vm.max_map_count=262144; fi',
    '      - name: Words, not commands',
    '        run: echo "pseudo sudoku, no sudo needed" && ./sudo-free.sh',
    "      - if: runner.os == 'Windows'",
    '        run: sudo choco install make',
    '      - name: Tests',
    '        run: xvfb-run python -m pytest',
  ].join('\n');

  it('a run: script calling sudo blocks where steps cannot become root (the local executor\'s sandbox), with the line', () => {
    const blockers = preflight(text, LOCAL_EXECUTOR_CAPABILITIES).filter((blocker) => blocker.code === 'root_required');
    expect(brief(blockers)).toEqual([
      ['root_required', 'test', 'System packages', 'sudo apt-get update'],
      ['root_required', 'test', 'Kernel setting', 'if [ -n "$CI" ]; then sudo sysctl -w vm.max_map_count=262144; fi'],
    ]);
    expect(blockers[0]?.message).toBe(
      'step "System packages" of job test runs sudo, which GitHub-hosted runners allow without a password; the local executor runs steps as an unprivileged user that cannot become root',
    );
  });

  it('is no blocker on GitHub, nor locally where steps may become root (no sandbox)', () => {
    expect(preflight(text, GITHUB_ACTIONS_CAPABILITIES)).toEqual([]);
    expect(preflight(text, { ...LOCAL_EXECUTOR_CAPABILITIES, root: true }).filter((blocker) => blocker.code === 'root_required')).toEqual([]);
  });
});

describe('capabilities decide, not the code', () => {
  it('a container-capable backend allows services, job containers and marketplace actions by its description alone', () => {
    const containers: BackendCapabilities = {
      ...LOCAL_EXECUTOR_CAPABILITIES,
      label: 'a container executor',
      services: true,
      jobContainers: true,
      actions: { ...LOCAL_EXECUTOR_CAPABILITIES.actions, marketplace: true, docker: true },
    };
    for (const name of ['encode-databases-test-suite.yml', 'example-services-postgres.yml', 'numpy-linux-musl.yml', 'rq-workflow.yml', 'falcon-tests-mailman.yaml', 'kinto-test.yml']) {
      expect(preflight(standardized(name), containers), name).toEqual([]);
    }
    const withWindows: BackendCapabilities = { ...containers, runners: { ...containers.runners, os: ['linux', 'windows'] }, unsupportedShells: [] };
    expect(preflight(standardized('jupyterlab-windowstests.yml'), withWindows)).toEqual([]);
  });
});

describe('reusable workflows', () => {
  const caller = readFileSync(join(import.meta.dirname, '../../fixtures/workflows/reusable-caller/expected.yml'), 'utf8');

  it('the called jobs are checked as caller/callee; a matrix on the call blocks locally; remote calls block locally only', () => {
    const callee = { path: '.github/workflows/_tests.yml', text: standardized('encode-databases-test-suite.yml') };
    expect(brief(preflight(caller, LOCAL_EXECUTOR_CAPABILITIES, [callee]))).toEqual([
      ['service_container', 'tests/tests', null, 'mysql:5.7'],
      ['service_container', 'tests/tests', null, 'postgres:14'],
      ['localhost_service_url', 'tests/tests', 'Run tests', 'mysql://username:password@localhost:3306'],
      ['localhost_service_url', 'tests/tests', 'Run tests', 'postgresql://username:password@localhost:5432'],
      ['unsupported_reusable_workflow', 'lint', null, './.github/workflows/_lint.yml'],
    ]);
    expect(preflight(caller, GITHUB_ACTIONS_CAPABILITIES, [callee])).toEqual([]);
    const remote = readFileSync(join(import.meta.dirname, '../../fixtures/workflows/reusable-caller/input.yml'), 'utf8');
    const publish = preflight(remote, LOCAL_EXECUTOR_CAPABILITIES).filter((blocker) => blocker.job === 'publish' && blocker.code !== 'missing_secret');
    expect(brief(publish)).toEqual([['unsupported_reusable_workflow', 'publish', null, 'acme/shared-workflows/.github/workflows/pypi-publish.yml@v1']]);
    expect(preflight(remote, GITHUB_ACTIONS_CAPABILITIES).map((blocker) => blocker.evidence)).toEqual(['${{ secrets.PYPI_TOKEN }}']);
  });
});

describe('conditions that keep a step off Linux', () => {
  it.each([
    ["runner.os == 'Windows'", false],
    ["${{ runner.os == 'macOS' }}", false],
    ["runner.os != 'Linux'", false],
    ["startsWith(runner.os, 'Win')", false],
    ["runner.os == 'Linux'", true],
    ["matrix.os == 'windows-latest'", false],
    ["matrix.os == 'ubuntu-latest' && github.event_name == 'push'", true],
    ["runner.os == 'Windows' || matrix.os == 'ubuntu-latest'", true],
    ['false', false],
    ["success() && runner.os == 'Windows'", false],
  ])('%s on ubuntu-latest → %s', (condition, expected) => {
    expect(mayRun(condition, { os: 'ubuntu-latest' })).toBe(expected);
  });
});

describe('rendering', () => {
  it('a markdown section listing every blocker, and a one-line summary', () => {
    const blockers = local('encode-databases-test-suite.yml');
    const markdown = renderBlockers('local', blockers);
    expect(markdown).toContain('## Preflight (local backend)');
    expect(markdown).toContain('Not replayable on this backend: 4 blockers. Nothing was pushed or run.');
    expect(markdown).toContain('| `service_container` | `tests` |  | job tests needs the service container "mysql" (mysql:5.7)');
    expect(markdown.split('\n').filter((line) => line.startsWith('| `'))).toHaveLength(4);
    expect(renderBlockers('github', [])).toContain('Nothing in the workflow is beyond what this backend can run.');
    expect(summarizeBlockers('local', blockers)).toMatch(/^not replayable on the local backend: 4 blockers \(service_container, localhost_service_url\); first: job tests needs/);
  });
});
