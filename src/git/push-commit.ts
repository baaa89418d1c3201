import { AppError, permanent, transient } from '../errors.js';
import { runGit } from './run-git.js';
import { assertBranchName, assertCommitSha, assertNoUserinfo } from './validate.js';

/** HTTPS credentials for a push (e.g. `x-access-token` + an installation token). */
export interface GitCredentials {
  username: string;
  password: string;
}

/** Input of {@link pushCommit}. */
export interface PushCommitOptions {
  /** Repository holding the commit (the mirror). */
  gitDir: string;
  /** Any git remote: https:// URL, file:// URL or a local path. Must not contain userinfo. */
  remoteUrl: string;
  commitSha: string;
  /** Branch name without `refs/heads/`. */
  branch: string;
  credentials?: GitCredentials;
  /** Time limit of each network git process (default 5 minutes). */
  timeoutMs?: number;
  gitBinary?: string;
}

/**
 * A credential helper given with `-c`: it prints the username and password from the environment of the
 * git process, so the secret is never in a URL, an argument list or a config file.
 */
const CREDENTIAL_HELPER = '!f() { test "$1" = get || exit 0; echo "username=$CI_REPLAY_GIT_USERNAME"; echo "password=$CI_REPLAY_GIT_PASSWORD"; }; f';

/**
 * Pushes `commitSha` to `refs/heads/<branch>` of `remoteUrl`, creating the branch, never moving it:
 * the push has no `+` and a lease that the branch must not exist (and the server checks the old value
 * atomically), so an existing or concurrently created branch is never overwritten. If the branch already points at `commitSha` the call succeeds with `created: false`
 * (idempotent); if it points elsewhere it throws permanent `branch_exists`. Network and other push
 * failures throw transient `push_failed`; a URL with userinfo or a bad branch name throws invalid_input.
 * `push.negotiate` lets a partial clone push only the new objects when the remote already has the base.
 */
export async function pushCommit(options: PushCommitOptions): Promise<{ created: boolean }> {
  assertNoUserinfo(options.remoteUrl);
  assertBranchName(options.branch);
  assertCommitSha(options.commitSha);
  const ref = `refs/heads/${options.branch}`;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const auth: { args: string[]; env: Record<string, string> } = options.credentials === undefined
    ? { args: [], env: {} }
    : {
      args: ['-c', 'credential.helper=', '-c', `credential.helper=${CREDENTIAL_HELPER}`, '-c', 'credential.useHttpPath=false'],
      env: { CI_REPLAY_GIT_USERNAME: options.credentials.username, CI_REPLAY_GIT_PASSWORD: options.credentials.password },
    };
  const common = { gitDir: options.gitDir, timeoutMs, gitBinary: options.gitBinary, env: auth.env, allowFailure: true };

  const remoteHead = async (): Promise<string | undefined> => {
    const result = await runGit([...auth.args, 'ls-remote', '--', options.remoteUrl, ref], common);
    if (result.exitCode !== 0) {
      throw new AppError('transient', 'remote could not be listed', { code: 'push_failed', details: { stderr: result.stderr.slice(-2000) } });
    }
    const line = result.stdout.toString('utf8').split('\n').find((l) => l.endsWith(`\t${ref}`));
    return line?.slice(0, line.indexOf('\t'));
  };
  const settle = (head: string | undefined): { created: boolean } | undefined => {
    if (head === undefined) return undefined;
    if (head === options.commitSha) return { created: false };
    throw permanent('branch_exists', `branch ${options.branch} already exists at another commit`);
  };

  // Push first (the lease refuses an existing branch); only a refused or failed push costs a listing.
  const pushed = await runGit([...auth.args, '-c', 'push.negotiate=true', 'push', '--porcelain', '--no-verify',
    `--force-with-lease=${ref}:`, '--', options.remoteUrl, `${options.commitSha}:${ref}`], common);
  // --porcelain is git's machine format: `<flag>\t<src>:<dst>\t<summary>`; '*' new ref, '=' up to date.
  const flag = pushed.stdout.toString('utf8').split('\n').find((line) => line.includes(`:${ref}\t`))?.charAt(0);
  if (pushed.exitCode === 0 && flag === '*') return { created: true };
  if (pushed.exitCode === 0 && flag === '=') return { created: false };
  const after = settle(await remoteHead());
  if (after !== undefined) return after;
  throw transient('push_failed', `push to ${options.branch} failed: ${pushed.stderr.trim().slice(-1000)}`);
}
