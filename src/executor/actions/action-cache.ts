import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, isAppError, permanent } from '../../errors.js';
import { runGit } from '../../git/index.js';
import type { ActionSettings, RemoteActionRef } from './types.js';

const FULL_SHA = /^[0-9a-f]{40}$/;
const FETCH_TIMEOUT_MS = 5 * 60_000;

/**
 * A credential helper given with `-c`: it prints the token from the git process's environment, so the token is
 * never in a URL, an argument list, a config file or a log.
 */
const CREDENTIAL_HELPER = '!f() { test "$1" = get || exit 0; echo "username=x-access-token"; echo "password=$CI_REPLAY_ACTIONS_TOKEN"; }; f';

export interface CachedAction {
  sha: string;
  /** The action repository's tree at `sha` (read-only for the executor: jobs get a copy). */
  dir: string;
  /** True when this call reached the network (clone); false when the cache answered. */
  fetched: boolean;
}

/** Failure to get an action: the job fails at "Set up job" with outcome infra_error `action_unavailable`. */
export const actionUnavailable = (message: string, cause?: unknown): AppError => permanent('action_unavailable', message, cause);

const repoDir = (settings: ActionSettings, ref: RemoteActionRef): string => join(settings.cacheDir, ref.owner.toLowerCase(), ref.repo.toLowerCase());

function readRefs(dir: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, 'refs.json'), 'utf8'));
    if (parsed === null || typeof parsed !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string' && FULL_SHA.test(e[1])));
  } catch {
    return {};
  }
}

function writeRefs(dir: string, refs: Record<string, string>): void {
  const tmp = join(dir, `.refs-${randomUUID()}.json`);
  writeFileSync(tmp, `${JSON.stringify(refs, null, 2)}\n`);
  renameSync(tmp, join(dir, 'refs.json'));
}

/** The commit a ref is pinned to in the cache (a full SHA pins itself), or null. */
export function pinnedSha(settings: ActionSettings, ref: RemoteActionRef): string | null {
  if (FULL_SHA.test(ref.ref)) return ref.ref;
  return readRefs(repoDir(settings, ref))[ref.ref] ?? null;
}

const inFlight = new Map<string, Promise<CachedAction>>();

/**
 * The action repository at the commit `ref` resolves to. A ref is resolved once and pinned in
 * `<cacheDir>/<owner>/<repo>/refs.json`: later runs use the pinned commit from the cache without any network call,
 * even when the tag has moved since (delete the entry, or the file, to pick up the new commit). Offline, only the
 * cache is read. Concurrent calls for the same action share one fetch.
 */
export function getAction(settings: ActionSettings, ref: RemoteActionRef): Promise<CachedAction> {
  const key = `${settings.cacheDir}\0${ref.owner.toLowerCase()}/${ref.repo.toLowerCase()}@${ref.ref}`;
  const running = inFlight.get(key);
  if (running !== undefined) return running;
  const work = fetchAction(settings, ref).finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
}

async function fetchAction(settings: ActionSettings, ref: RemoteActionRef): Promise<CachedAction> {
  const dir = repoDir(settings, ref);
  const label = `${ref.owner}/${ref.repo}@${ref.ref}`;
  const pinned = pinnedSha(settings, ref);
  if (pinned !== null && existsSync(join(dir, pinned))) return { sha: pinned, dir: join(dir, pinned), fetched: false };
  if (settings.mode === 'offline') {
    throw actionUnavailable(`Unable to resolve action \`${label}\`: it is not in the action cache and LOCAL_ACTIONS=offline (${dir})`);
  }
  mkdirSync(dir, { recursive: true });
  const work = join(dir, `.fetch-${randomUUID()}`);
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/${ref.owner}/${ref.repo}.git`;
  const auth = settings.token === undefined || settings.token === '' ? [] : ['-c', `credential.helper=${CREDENTIAL_HELPER}`];
  const env: Record<string, string> = settings.token === undefined || settings.token === '' ? {} : { CI_REPLAY_ACTIONS_TOKEN: settings.token };
  try {
    await runGit(['init', '-q', work]);
    const gitDir = join(work, '.git');
    try {
      await runGit([...auth, 'fetch', '-q', '--no-tags', '--depth=1', url, ref.ref], { gitDir, cwd: work, env, timeoutMs: FETCH_TIMEOUT_MS, failureKind: 'transient', failureCode: 'action_fetch_failed' });
    } catch (error) {
      throw actionUnavailable(describeFetchFailure(label, url, error, settings.token), error);
    }
    const sha = (await runGit(['rev-parse', 'FETCH_HEAD^{commit}'], { gitDir, cwd: work })).stdout.toString('utf8').trim();
    await runGit(['checkout', '-q', '--detach', sha], { gitDir, cwd: work });
    rmSync(gitDir, { recursive: true, force: true });
    const target = join(dir, sha);
    if (!existsSync(target)) {
      try {
        renameSync(work, target);
      } catch (error) {
        if (!existsSync(target)) throw error;
      }
    }
    if (!FULL_SHA.test(ref.ref)) writeRefs(dir, { ...readRefs(dir), [ref.ref]: sha });
    return { sha, dir: target, fetched: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A one-line reason from git's error output, with the token (if any) masked and no URL credentials. */
function describeFetchFailure(label: string, url: string, error: unknown, token: string | undefined): string {
  const details = isAppError(error) && error.details !== null && typeof error.details === 'object' ? (error.details as { stderr?: unknown }) : {};
  let stderr = typeof details.stderr === 'string' ? details.stderr : (error as Error).message;
  if (token !== undefined && token !== '') stderr = stderr.split(token).join('***');
  const line = stderr.split('\n').map((l) => l.replace(/^(fatal|error): /, '').trim()).find((l) => l !== '') ?? 'git fetch failed';
  if (/couldn't find remote ref|not our ref|no such remote ref|unadvertised object/i.test(stderr)) {
    return `Unable to resolve action \`${label}\`, unable to find version \`${label.slice(label.lastIndexOf('@') + 1)}\``;
  }
  if (/not found|404|Repository not found/i.test(stderr)) return `Unable to resolve action \`${label}\`, repository not found (${url})`;
  return `Failed to download action '${label}' from ${url}: ${line}`;
}
