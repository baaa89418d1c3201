/** What well-known actions do (by `owner/name`, lower-cased, without `@ref`). */
import type { StepPurpose } from './types.js';

export const ACTIONS: ReadonlyArray<readonly [StepPurpose, string, readonly string[]]> = [
  ['publish', 'publishes a package', [
    'pypa/gh-action-pypi-publish', 'js-devtools/npm-publish', 'casperdcl/deploy-pypi', 'actions/attest-build-provenance', 'actions/attest',
    'sigstore/gh-action-sigstore-python', 'scientific-python/upload-nightly-action', 'snapcore/action-publish',
    'vedantmgoyal9/winget-releaser', 'vedantmgoyal2009/winget-releaser', 'mislav/bump-homebrew-formula-action',
    'localstack/tinybird-workflow-push', 'christian-korneck/update-container-description-action', 'peter-evans/dockerhub-description',
  ]],
  ['publish', 'pushes a container image', ['elgohr/publish-docker-github-action']],
  ['registry-login', 'logs in to a container registry', ['docker/login-action', 'aws-actions/amazon-ecr-login']],
  ['release', 'creates a release', [
    'softprops/action-gh-release', 'actions/create-release', 'actions/upload-release-asset', 'ncipollo/release-action',
    'release-drafter/release-drafter', 'googleapis/release-please-action', 'google-github-actions/release-please-action',
    'python-semantic-release/python-semantic-release', 'relekang/python-semantic-release', 'svenstaro/upload-release-action',
    'rickstaa/action-create-tag', 'getsentry/craft', 'stainless-api/trigger-release-please', 'aio-libs/create-release',
    'commitizen-tools/commitizen-action',
  ]],
  ['pages', 'deploys GitHub Pages', [
    'actions/deploy-pages', 'actions/upload-pages-artifact', 'actions/configure-pages', 'peaceiris/actions-gh-pages',
    'jamesives/github-pages-deploy-action', 'casperdcl/push-dir',
  ]],
  ['deploy', 'deploys to a hosting service', [
    'cloudflare/wrangler-action', 'cloudflare/pages-action', 'amondnet/vercel-action', 'netlify/actions', 'nwtgck/actions-netlify',
    'readthedocs/actions',
  ]],
  ['coverage-upload', 'uploads coverage', [
    'codecov/codecov-action', 'codecov/test-results-action', 'coverallsapp/github-action', 'andremiras/coveralls-python-action',
    'py-cov-action/python-coverage-comment-action',
  ]],
  ['notification', 'sends a notification', [
    'slackapi/slack-github-action', '8398a7/action-slack', 'rtcamp/action-slack-notify', 'appleboy/telegram-action',
    'ilshidur/action-discord', 'dawidd6/action-send-mail', 'sarisia/actions-status-discord', 'mattermost/action-mattermost-notify',
    'zulip/github-actions-zulip', 'deepset-ai/notify-slack-action', 'huggingface/hf-workflows/.github/actions/post-slack',
  ]],
  ['repo-write', 'writes to the repository or its pull requests', [
    'peter-evans/create-pull-request', 'stefanzweifel/git-auto-commit-action', 'endbug/add-and-commit', 'ad-m/github-push-action',
    'peter-evans/create-or-update-comment', 'marocchino/sticky-pull-request-comment', 'thollander/actions-comment-pull-request',
    'actions/labeler', 'actions/stale', 'pre-commit-ci/lite-action', 'dependabot/fetch-metadata',
    'dorny/test-reporter', 'mikepenz/action-junit-report', 'enricomi/publish-unit-test-result-action',
    'jasonetco/create-an-issue', 'peter-evans/create-issue-from-file', 'peter-evans/find-comment', 'peter-evans/repository-dispatch',
    'tiangolo/issue-manager', 'tiangolo/latest-changes', 'dessant/lock-threads', 'actions-ecosystem/action-remove-labels',
    'actions-ecosystem/action-add-labels', 'redhat-plumbers-in-action/advanced-issue-labeler', 'jamesives/github-sponsors-readme-action',
    'scientific-python/issue-from-pytest-log-action', 'anthropics/claude-code-action', 'geekyeggo/delete-artifact',
    'actions/add-to-project', 'srggrs/assign-one-project-github-action', 'eps1lon/actions-label-merge-conflict',
    'pascalgn/automerge-action', 'peter-evans/enable-pull-request-automerge',
  ]],
  ['security-upload', 'uploads code scanning results (needs security-events: write)', ['github/codeql-action']],
  ['cloud-credentials', 'needs cloud credentials', [
    'aws-actions/configure-aws-credentials', 'google-github-actions/auth', 'azure/login', 'google-github-actions/setup-gcloud',
  ]],
  ['credentials', 'mints a token from a GitHub App private key', ['actions/create-github-app-token', 'tibdex/github-app-token']],
  ['debug-session', 'opens an interactive debugging session that would hold the runner', [
    'mxschmitt/action-tmate', 'lhotari/action-upterm', 'csexton/debugger-action',
  ]],
  ['benchmark-service', 'runs benchmarks reported to an external performance service', ['codspeedhq/action']],
  ['external-upload', 'uploads files to an external scanning service', ['crazy-max/ghaction-virustotal']],
  ['artifact-upload', 'publishes an artifact', ['actions/upload-artifact']],
  ['setup', 'sets up the job', [
    'actions/checkout', 'actions/setup-python', 'actions/setup-node', 'actions/setup-java', 'actions/setup-go', 'actions/cache',
    'actions/download-artifact', 'astral-sh/setup-uv', 'snok/install-poetry', 'pdm-project/setup-pdm', 'conda-incubator/setup-miniconda',
    'mamba-org/setup-micromamba', 'docker/setup-buildx-action', 'docker/setup-qemu-action', 'docker/metadata-action',
    'awalsh128/cache-apt-pkgs-action', 'abatilo/actions-poetry', 'actions/setup-dotnet', 'dtolnay/rust-toolchain',
    'hynek/setup-cached-uv', 'prefix-dev/setup-pixi', 'pnpm/action-setup', 'oven-sh/setup-bun', 'ruby/setup-ruby',
    'swatinem/rust-cache', 'msys2/setup-msys2', 'deadsnakes/action', 'useblacksmith/setup-docker-builder', 'jlumbroso/free-disk-space',
    'actions/github-script/setup', 'step-security/harden-runner', 'taiki-e/install-action', 'haskell/actions/setup', 'r-lib/actions/setup-r',
    'hashicorp/setup-terraform', 'cygwin/cygwin-install-action', 'gabrielfalcao/pyenv-action', 'dcarbone/install-jq-action',
    'emscripten-core/setup-emsdk', 'sigstore/cosign-installer', 'joerick/pr-labels-action', 're-actors/checkout-python-sdist',
    're-actors/cache-python-deps', 'py-actions/py-dependency-install', 'pypa/hatch', 'actions/setup-ruby', 'seanmiddleditch/gha-setup-ninja',
  ]],
];

/** Wrappers that build (and may push) images the way docker/build-push-action does. */
export const BUILD_PUSH_ACTIONS = new Set(['docker/build-push-action', 'useblacksmith/build-push-action', 'docker/bake-action']);

/** Actions that run another action given as an input (retry wrappers). */
export const WRAPPER_ACTIONS = new Set(['wandalen/wretry.action', 'nick-fields/retry']);

/** The action name of a `uses:` value, lower-cased, without `@ref` (local paths kept as written). */
export function actionName(uses: string): string {
  const trimmed = uses.trim();
  if (trimmed.startsWith('./') || trimmed.startsWith('docker://')) return trimmed;
  return (trimmed.split('@')[0] ?? trimmed).toLowerCase();
}

/** The table entry of an action, if it is a known one. */
export function knownAction(name: string): readonly [StepPurpose, string] | undefined {
  for (const [purpose, detail, names] of ACTIONS) {
    if (names.some((candidate) => name === candidate || name.startsWith(`${candidate}/`))) return [purpose, detail];
  }
  return undefined;
}

/** GitHub API calls in an actions/github-script script that write to the repository, its issues or pull requests. */
export const SCRIPT_WRITE = /\.rest\.(?:issues\.(?:create|update|lock|addLabels|removeLabel|setLabels|createComment|updateComment)|pulls\.(?:create|update|merge|createReview)|repos\.(?:createDispatchEvent|createRelease|createOrUpdateFileContents)|git\.create\w*)\b|\bgithub\.graphql\(\s*[`'"]\s*mutation\b/;
