/** What a step or job is for: validation work, setup, or something that does not validate. */

export type StepPurpose =
  | 'setup'
  | 'work'
  | 'publish'
  | 'registry-login'
  | 'release'
  | 'pages'
  | 'notification'
  | 'coverage-upload'
  | 'artifact-upload'
  | 'repo-write'
  | 'security-upload'
  | 'cloud-credentials'
  | 'debug-session';

export interface StepFacts {
  uses?: string | undefined;
  run?: string | undefined;
  name?: string | undefined;
}

export interface StepClass {
  purpose: StepPurpose;
  detail: string;
}

const ACTIONS: ReadonlyArray<readonly [StepPurpose, string, readonly string[]]> = [
  ['publish', 'publishes a package', [
    'pypa/gh-action-pypi-publish', 'js-devtools/npm-publish', 'casperdcl/deploy-pypi', 'actions/attest-build-provenance',
    'sigstore/gh-action-sigstore-python',
  ]],
  ['registry-login', 'logs in to a container registry', ['docker/login-action', 'aws-actions/amazon-ecr-login']],
  ['release', 'creates a release', [
    'softprops/action-gh-release', 'actions/create-release', 'actions/upload-release-asset', 'ncipollo/release-action',
    'release-drafter/release-drafter', 'googleapis/release-please-action', 'google-github-actions/release-please-action',
    'python-semantic-release/python-semantic-release', 'relekang/python-semantic-release', 'svenstaro/upload-release-action',
  ]],
  ['pages', 'deploys GitHub Pages', [
    'actions/deploy-pages', 'actions/upload-pages-artifact', 'actions/configure-pages', 'peaceiris/actions-gh-pages',
    'jamesives/github-pages-deploy-action',
  ]],
  ['coverage-upload', 'uploads coverage', [
    'codecov/codecov-action', 'codecov/test-results-action', 'coverallsapp/github-action', 'andremiras/coveralls-python-action',
    'py-cov-action/python-coverage-comment-action',
  ]],
  ['notification', 'sends a notification', [
    'slackapi/slack-github-action', '8398a7/action-slack', 'rtcamp/action-slack-notify', 'appleboy/telegram-action',
    'ilshidur/action-discord', 'dawidd6/action-send-mail', 'sarisia/actions-status-discord', 'mattermost/action-mattermost-notify',
  ]],
  ['repo-write', 'writes to the repository or its pull requests', [
    'peter-evans/create-pull-request', 'stefanzweifel/git-auto-commit-action', 'endbug/add-and-commit', 'ad-m/github-push-action',
    'peter-evans/create-or-update-comment', 'marocchino/sticky-pull-request-comment', 'thollander/actions-comment-pull-request',
    'actions/labeler', 'actions/stale', 'pre-commit-ci/lite-action', 'dependabot/fetch-metadata',
    'dorny/test-reporter', 'mikepenz/action-junit-report', 'enricomi/publish-unit-test-result-action',
    'jasonetco/create-an-issue', 'peter-evans/create-issue-from-file',
  ]],
  ['security-upload', 'uploads code scanning results (needs security-events: write)', ['github/codeql-action']],
  ['cloud-credentials', 'needs cloud credentials', [
    'aws-actions/configure-aws-credentials', 'google-github-actions/auth', 'azure/login', 'google-github-actions/setup-gcloud',
  ]],
  ['debug-session', 'opens an interactive debugging session that would hold the runner', [
    'mxschmitt/action-tmate', 'lhotari/action-upterm', 'csexton/debugger-action',
  ]],
  ['artifact-upload', 'publishes an artifact', ['actions/upload-artifact']],
  ['setup', 'sets up the job', [
    'actions/checkout', 'actions/setup-python', 'actions/setup-node', 'actions/setup-java', 'actions/setup-go', 'actions/cache',
    'actions/download-artifact', 'astral-sh/setup-uv', 'snok/install-poetry', 'pdm-project/setup-pdm', 'conda-incubator/setup-miniconda',
    'mamba-org/setup-micromamba', 'docker/setup-buildx-action', 'docker/setup-qemu-action', 'docker/metadata-action',
    'awalsh128/cache-apt-pkgs-action', 'abatilo/actions-poetry', 'actions/setup-dotnet', 'dtolnay/rust-toolchain',
  ]],
];

const RUN_RULES: ReadonlyArray<readonly [StepPurpose, string, RegExp]> = [
  ['publish', 'publishes a package', /\btwine\s+upload\b|\b(?:poetry|flit|hatch|uv|pdm|npm|yarn|pnpm|cargo)\s+publish\b/],
  ['publish', 'pushes a container image', /\bdocker\s+push\b|\bdocker\s+(?:buildx\s+)?build\b[^\n]*\s--push\b/],
  ['release', 'creates a release', /\bgh\s+release\s+(?:create|upload|edit)\b|\bsemantic-release\s+(?:publish|version)\b/],
  ['pages', 'deploys GitHub Pages', /\bmkdocs\s+gh-deploy\b|\bghp-import\b/],
  ['notification', 'sends a notification', /hooks\.slack\.com|discord(?:app)?\.com\/api\/webhooks|api\.telegram\.org/],
  ['repo-write', 'pushes to the repository', /\bgit\s+push\b/],
];

const COVERAGE_UPLOAD = /codecov\.io|^\s*(?:\.\/)?codecov(?:\s|$)|^\s*coveralls(?:\s|$)|^\s*python\d?(?:\.\d+)?\s+-m\s+(?:codecov|coveralls)\b/m;

/** The action name of a `uses:` value, lower-cased, without `@ref` (local paths kept as written). */
export function actionName(uses: string): string {
  const trimmed = uses.trim();
  if (trimmed.startsWith('./') || trimmed.startsWith('docker://')) return trimmed;
  return (trimmed.split('@')[0] ?? trimmed).toLowerCase();
}

export function classifyStep(step: StepFacts): StepClass {
  if (step.uses !== undefined) {
    const name = actionName(step.uses);
    if (name.startsWith('./')) return { purpose: 'work', detail: 'local action' };
    for (const [purpose, detail, names] of ACTIONS) {
      if (names.some((candidate) => name === candidate || name.startsWith(`${candidate}/`))) return { purpose, detail };
    }
    return { purpose: 'work', detail: name };
  }
  const run = step.run ?? '';
  for (const [purpose, detail, pattern] of RUN_RULES) {
    if (pattern.test(run)) return { purpose, detail };
  }
  if (COVERAGE_UPLOAD.test(run)) return { purpose: 'coverage-upload', detail: 'uploads coverage' };
  if (isInstallOnly(run)) return { purpose: 'setup', detail: 'installs dependencies' };
  return { purpose: 'work', detail: 'runs commands' };
}

const INSTALL_LINE = new RegExp([
  String.raw`^(?:python\d?(?:\.\d+)?\s+-m\s+)?pip3?\s+install\b`,
  String.raw`^uv\s+(?:pip\s+install|sync|venv)\b`,
  String.raw`^poetry\s+(?:install|config|self)\b`,
  String.raw`^(?:pdm|pipenv|hatch\s+env)\s+(?:install|create|sync)\b`,
  String.raw`^(?:sudo\s+)?apt(?:-get)?\s+(?:-\S+\s+)*(?:update|install)\b`,
  String.raw`^(?:npm|yarn|pnpm)\s+(?:ci|install)\b`,
  String.raw`^(?:conda|mamba|micromamba|pipx|brew)\s+install\b`,
  String.raw`^(?:echo|export|cd|set|curl|wget)\b`,
].join('|'));

/** Whether a run script only installs dependencies or prepares the environment. */
export function isInstallOnly(run: string): boolean {
  const lines = run
    .replaceAll(/\\\s*\n/g, ' ')
    .split(/\n|&&|\|\||;/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return lines.length > 0 && lines.every((line) => INSTALL_LINE.test(line));
}

/** Purposes that never validate the code: such steps are removed. */
export function isNonValidating(purpose: StepPurpose): boolean {
  return purpose !== 'setup' && purpose !== 'work' && purpose !== 'artifact-upload' && purpose !== 'cloud-credentials';
}

const PUBLISH_WORDS = new Set([
  'deploy', 'deployment', 'release', 'releases', 'publish', 'pages', 'notify', 'notification', 'notifications', 'slack',
  'pypi', 'upload', 'changelog', 'bump', 'tag', 'tagging', 'stale', 'label', 'labeler', 'greetings', 'welcome', 'push',
  'issue', 'issues', 'comment', 'triage',
]);
const VALIDATION_WORDS = new Set([
  'build', 'test', 'tests', 'lint', 'check', 'checks', 'docs', 'doc', 'typecheck', 'mypy', 'format', 'style', 'ci', 'pytest',
]);

/** A publish-like word in a job's id or name, unless it also names validation work (`build-and-publish`). */
export function publishWordInName(...names: ReadonlyArray<string | undefined>): string | undefined {
  const words = names
    .filter((name): name is string => name !== undefined)
    .flatMap((name) => name.toLowerCase().split(/[^a-z0-9]+/))
    .filter((word) => word !== '');
  if (words.some((word) => VALIDATION_WORDS.has(word))) return undefined;
  return words.find((word) => PUBLISH_WORDS.has(word));
}

const MODEL_OR_CLOUD_SECRET = /OPENAI|ANTHROPIC|COHERE|HUGGING|^HF_|_HF_|GEMINI|GOOGLE_API|MISTRAL|GROQ|REPLICATE|TOGETHER|AWS_|AZURE|GCP|GCLOUD|GOOGLE_APPLICATION|SERVICE_ACCOUNT/;

export function isModelOrCloudSecret(name: string): boolean {
  return MODEL_OR_CLOUD_SECRET.test(name.toUpperCase());
}

/** Jobs whose name says they exercise live services: with model/cloud secrets they cannot run without them. */
export function isLiveServiceJobName(...names: ReadonlyArray<string | undefined>): boolean {
  return names.some((name) => name !== undefined && /integration|e2e|end-to-end|live|cloud|gpu|benchmark|api[-_ ]?tests?/i.test(name));
}

/** Runner labels that a benchmark copy cannot use. */
export function unavailableRunner(labels: readonly string[]): string | undefined {
  return labels.find((label) => /^self-hosted$|gpu|cuda|\ba100\b|\bh100\b|\bt4\b/i.test(label));
}

/** What replaces a publishing command removed from a run script (keeps `if`/`fi` blocks valid). */
export const REMOVED_COMMAND = ': # publishing command removed by ci-replay';

function isPublishingCommand(command: string): boolean {
  return RUN_RULES.some(([, , pattern]) => pattern.test(command)) || COVERAGE_UPLOAD.test(command);
}

/**
 * Removes the publishing commands of a run script that mixes build and publish, keeping the rest.
 * Returns undefined when nothing but setup would remain (then the whole step goes).
 */
export function stripPublishingCommands(run: string): { run: string; removed: number } | undefined {
  const logical: string[] = [];
  for (const line of run.split('\n')) {
    const last = logical.at(-1);
    if (last !== undefined && /\\\s*$/.test(last)) logical[logical.length - 1] = `${last}\n${line}`;
    else logical.push(line);
  }
  let removed = 0;
  const rewritten = logical.map((line) => {
    if (!isPublishingCommand(line)) return line;
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    const parts = line.trim().split(/\s*&&\s*/);
    if (parts.length > 1) {
      const kept = parts.map((part) => (isPublishingCommand(part) ? ':' : part));
      removed += parts.length - kept.filter((part) => part !== ':').length;
      return `${indent}${kept.join(' && ')}`;
    }
    removed += 1;
    return `${indent}${REMOVED_COMMAND}`;
  });
  const remaining = rewritten.filter((line) => !line.includes(REMOVED_COMMAND)).join('\n').replaceAll(/&& :(?=\s|$)/g, '');
  const work = remaining.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('#') && line.trim() !== ':');
  if (removed === 0 || !work || isInstallOnly(remaining)) return undefined;
  return { run: rewritten.join('\n'), removed };
}
