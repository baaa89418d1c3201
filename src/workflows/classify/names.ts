/** What names say: job names, secret names. */

const PUBLISH_WORDS = new Set([
  'deploy', 'deployment', 'release', 'releases', 'publish', 'pages', 'notify', 'notification', 'notifications', 'slack',
  'pypi', 'upload', 'changelog', 'bump', 'tag', 'tagging', 'stale', 'label', 'labeler', 'greetings', 'welcome', 'push',
  'issue', 'issues', 'comment', 'triage', 'lock', 'sponsors', 'translate', 'sync', 'mirror', 'bot', 'project',
]);
const VALIDATION_WORDS = new Set([
  'build', 'test', 'tests', 'lint', 'check', 'checks', 'docs', 'doc', 'typecheck', 'mypy', 'format', 'style', 'ci', 'pytest',
]);

function words(names: ReadonlyArray<string | undefined>): string[] {
  return names
    .filter((name): name is string => name !== undefined)
    .flatMap((name) => name.toLowerCase().split(/[^a-z0-9]+/))
    .filter((word) => word !== '');
}

/** A publish-like word in a job's id or name, unless it also names validation work (`build-and-publish`). */
export function publishWordInName(...names: ReadonlyArray<string | undefined>): string | undefined {
  const found = words(names);
  if (found.some((word) => VALIDATION_WORDS.has(word))) return undefined;
  return found.find((word) => PUBLISH_WORDS.has(word));
}

const BOT_WORDS = new Set(['stats', 'metrics', 'people', 'sponsor']);

/**
 * A publish-, bot- or report-like word in a job's id or name, whatever else the name says (`docs-publish`,
 * `build-and-deploy`): the job filter reads it only when the job's steps run no test, lint or build.
 */
export function anyPublishWord(...names: ReadonlyArray<string | undefined>): string | undefined {
  return words(names).find((word) => (PUBLISH_WORDS.has(word) && word !== 'pypi' && word !== 'lock') || BOT_WORDS.has(word));
}

const LIVE_API_SECRET = /OPENAI|ANTHROPIC|CLAUDE|COHERE|GEMINI|GOOGLE_API|MISTRAL|GROQ|REPLICATE|TOGETHER|FIREWORKS|PERPLEXITY|VOYAGE|DEEPSEEK|XAI_|AWS_(?:ACCESS|SECRET|SESSION)|AZURE|GCP|GCLOUD|GOOGLE_APPLICATION|SERVICE_ACCOUNT|BIGQUERY|SNOWFLAKE|DATABRICKS|PINECONE|WEAVIATE_API|LANGSMITH_API|TAVILY|SERPAPI/;

/** Secrets that are keys to live model or cloud APIs: a step fed one calls the API and fails without it. */
export function isModelOrCloudSecret(name: string): boolean {
  return LIVE_API_SECRET.test(name.toUpperCase());
}

const PUBLISHING_SECRET = /TWINE|PYPI|NPM_TOKEN|NODE_AUTH|DOCKER|GHCR|REGISTRY|CARGO_REGISTRY|ANACONDA|CONDA_TOKEN|GEM_HOST|SNAPCRAFT|SNAP_TOKEN|NUGET|CODECOV|COVERALLS|CODACY|CODSPEED|SLACK|DISCORD|TELEGRAM|MATTERMOST|ZULIP|WEBHOOK|HOOK_URL|GPG|SIGNING|VERCEL|NETLIFY|CLOUDFLARE|TINYBIRD|ALGOLIA_WRITE|TX_TOKEN|CROWDIN|VIRUSTOTAL|TWITTER|SPONSORS|RELEASE|PUBLISH|DEPLOY|PUSH/;

/** Secrets that publish, deploy or notify with (a step fed one publishes). */
export function isPublishingSecret(name: string): boolean {
  return PUBLISHING_SECRET.test(name.toUpperCase());
}

/** Jobs whose name says they exercise live services. */
export function isLiveServiceJobName(...names: ReadonlyArray<string | undefined>): boolean {
  return names.some((name) => name !== undefined && /integration|e2e|end-to-end|live|cloud|gpu|benchmark|api[-_ ]?tests?/i.test(name));
}
