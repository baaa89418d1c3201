import { randomUUID } from 'node:crypto';
import type { GithubAppConfig } from '../config.js';
import { benchRepoName, type Upstream } from '../backends/github/bench-repo.js';
import { isAppError } from '../errors.js';
import { signWebhookPayload, type GithubApp, type InstallationClient } from '../github/index.js';
import { firstLine, type DoctorCheck } from './doctor-checks.js';

/** What the GitHub backend needs of its installation (docs/github-backend.md). */
export const REQUIRED_PERMISSIONS: Record<string, 'read' | 'write'> = { actions: 'write', administration: 'write', checks: 'write', contents: 'write', metadata: 'read', workflows: 'write' };
export const REQUIRED_EVENTS = ['check_run', 'workflow_job', 'workflow_run'] as const;

const APP_SETTINGS = 'GitHub → Settings → Developer settings → GitHub Apps → your App';

export interface GithubDoctorInput {
  app: GithubApp;
  config: GithubAppConfig;
  /** Where GitHub delivers webhooks: <PUBLIC_URL>/api/github/webhooks. */
  webhookUrl: string;
  /** The upstream repositories of the catalog; each needs its benchmark repository in BENCH_OWNER. */
  upstreams: Upstream[];
  /** At most this many missing repositories are named (default 10). */
  listLimit?: number;
}

const statusOf = (error: unknown): number | null => {
  if (!isAppError(error)) return null;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : null;
};

const granted = (have: string | undefined, need: 'read' | 'write'): boolean => have === 'write' || have === 'admin' || (need === 'read' && have === 'read');

/**
 * The GitHub backend's checks, all through src/github: the App's credentials (JWT → GET /app), its installation
 * on BENCH_OWNER with the permissions and events the backend needs, the webhook URL answering a signed ping with
 * the configured secret, and the benchmark repositories present with Actions enabled.
 */
export async function githubChecks(input: GithubDoctorInput): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const add = (check: Omit<DoctorCheck, 'required'>): void => {
    checks.push({ ...check, required: true });
  };

  try {
    const { data } = await input.app.app.request<{ slug?: string; name?: string; id?: number }>('GET /app');
    add({ name: 'GitHub App credentials', status: 'ok', detail: `App ${data.slug ?? data.name ?? ''} (id ${data.id ?? input.config.appId})` });
  } catch (error) {
    const status = statusOf(error);
    add({
      name: 'GitHub App credentials',
      status: 'fail',
      detail: `GET /app failed: ${firstLine(error)}`,
      fix:
        status === 401 || status === 403 || status === 404
          ? `APP_ID must be the App's id and PRIVATE_KEY_PATH (or PRIVATE_KEY) one of its private keys (${APP_SETTINGS} → Private keys); the host clock must be right (the JWT is time-bound)`
          : `GITHUB_API_URL (${input.config.apiUrl}) must be reachable from this host`,
    });
    add({ name: 'App installation', status: 'skip', detail: 'needs valid App credentials' });
    add({ name: 'benchmark repositories', status: 'skip', detail: 'needs valid App credentials' });
    checks.push(await webhookCheck(input));
    return checks;
  }

  let installation: InstallationClient | null = null;
  if (input.config.benchOwner === '') {
    add({ name: 'App installation', status: 'fail', detail: 'BENCH_OWNER is not set', fix: 'set BENCH_OWNER to the account (user or organization) that holds the benchmark repositories' });
  } else {
    try {
      installation = await input.app.installationFor(input.config.benchOwner);
      const { data } = await input.app.app.request<{ permissions?: Record<string, string>; events?: string[] }>('GET /app/installations/{installation_id}', { installation_id: installation.installationId });
      const permissions = data.permissions ?? {};
      const missing = Object.entries(REQUIRED_PERMISSIONS).filter(([name, need]) => !granted(permissions[name] ?? (name === 'metadata' ? 'read' : undefined), need));
      const events = new Set(data.events ?? []);
      const missingEvents = REQUIRED_EVENTS.filter((event) => !events.has(event));
      if (missing.length === 0 && missingEvents.length === 0) {
        add({ name: 'App installation', status: 'ok', detail: `installed on ${input.config.benchOwner} (installation ${installation.installationId}) with the needed permissions and events` });
      } else {
        const parts = [
          ...(missing.length > 0 ? [`missing permissions: ${missing.map(([name, need]) => `${name}: ${need} (has ${permissions[name] ?? 'none'})`).join(', ')}`] : []),
          ...(missingEvents.length > 0 ? [`not subscribed to: ${missingEvents.join(', ')}`] : []),
        ];
        add({
          name: 'App installation',
          status: 'fail',
          detail: `installation ${installation.installationId} on ${input.config.benchOwner}: ${parts.join('; ')}`,
          fix: `${APP_SETTINGS} → Permissions & events: grant ${Object.entries(REQUIRED_PERMISSIONS).map(([name, need]) => `${name}: ${need}`).join(', ')} and subscribe to ${REQUIRED_EVENTS.join(', ')}; then accept the new permissions on the installation (${input.config.benchOwner} → Settings → GitHub Apps → Configure)`,
        });
      }
    } catch (error) {
      add({
        name: 'App installation',
        status: 'fail',
        detail: firstLine(error),
        fix: `install the App on ${input.config.benchOwner} (${APP_SETTINGS} → Install App), for all repositories or the benchmark ones`,
      });
      installation = null;
    }
  }

  checks.push(await webhookCheck(input));

  if (installation === null) {
    add({ name: 'benchmark repositories', status: 'skip', detail: 'needs the App installation' });
  } else if (input.upstreams.length === 0) {
    add({ name: 'benchmark repositories', status: 'skip', detail: 'the catalog has no instances yet (ci-replay import)' });
  } else {
    checks.push(await benchRepoCheck(installation, input));
  }
  return checks;
}

async function webhookCheck(input: GithubDoctorInput): Promise<DoctorCheck> {
  const name = 'webhook URL and secret';
  const body = Buffer.from(JSON.stringify({ zen: 'ci-replay doctor ping', hook_id: 0, hook: { type: 'App', events: [...REQUIRED_EVENTS] } }));
  try {
    const response = await fetch(input.webhookUrl, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/ci-replay-doctor',
        'x-github-event': 'ping',
        'x-github-delivery': `doctor-${randomUUID()}`,
        'x-hub-signature-256': signWebhookPayload(input.config.webhookSecret, body),
      },
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    if (response.ok) return { name, status: 'ok', detail: `${input.webhookUrl} accepted a signed ping (${response.status})`, required: true };
    if (response.status === 401) {
      return {
        name,
        status: 'fail',
        detail: `${input.webhookUrl} refused the signed ping (401): the service there has another webhook secret`,
        fix: `WEBHOOK_SECRET here, on the server (ci-replay serve) and in ${APP_SETTINGS} → Webhook secret must be the same value`,
        required: true,
      };
    }
    return { name, status: 'fail', detail: `${input.webhookUrl} answered ${response.status} to a signed ping`, fix: 'PUBLIC_URL must point at ci-replay serve (its /api/github/webhooks route), through any proxy unchanged', required: true };
  } catch (error) {
    return {
      name,
      status: 'fail',
      detail: `${input.webhookUrl} is not reachable: ${firstLine((error as { cause?: unknown }).cause ?? error)}`,
      fix: `start ci-replay serve and set PUBLIC_URL to its public address (GitHub delivers to <PUBLIC_URL>/api/github/webhooks; set that as the App's webhook URL in ${APP_SETTINGS})`,
      required: true,
    };
  }
}

async function benchRepoCheck(installation: InstallationClient, input: GithubDoctorInput): Promise<DoctorCheck> {
  const owner = input.config.benchOwner;
  const missing: string[] = [];
  const disabled: string[] = [];
  for (const upstream of input.upstreams) {
    const repo = benchRepoName(upstream);
    try {
      await installation.request('GET /repos/{owner}/{repo}', { owner, repo });
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      missing.push(`${owner}/${repo}`);
      continue;
    }
    const { data } = await installation.request<{ enabled?: boolean }>('GET /repos/{owner}/{repo}/actions/permissions', { owner, repo });
    if (data.enabled !== true) disabled.push(`${owner}/${repo}`);
  }
  const total = input.upstreams.length;
  if (missing.length === 0 && disabled.length === 0) return { name: 'benchmark repositories', status: 'ok', detail: `${total} of ${total} present with Actions enabled`, required: true };
  const limit = input.listLimit ?? 10;
  const list = (names: string[]): string => `${names.slice(0, limit).join(', ')}${names.length > limit ? ` and ${names.length - limit} more` : ''}`;
  return {
    name: 'benchmark repositories',
    status: 'fail',
    detail: [missing.length > 0 ? `${missing.length} of ${total} missing: ${list(missing)}` : '', disabled.length > 0 ? `Actions disabled on ${disabled.length}: ${list(disabled)}` : ''].filter(Boolean).join('; '),
    fix: 'ci-replay repos sync --all (creates the missing repositories and enables Actions and their workflows)',
    required: true,
  };
}
