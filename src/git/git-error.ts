import { AppError, type ErrorKind } from '../errors.js';
import type { GitResult } from './run-git.js';

/** Removes `user:password@` from every URL in `text` (git echoes URLs in its messages). */
export function stripCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
}

/** A git command as a person would type it, for messages: the arguments given (not the base `-c` set), credentials stripped. */
export function describeCommand(args: readonly string[]): string {
  return stripCredentials(['git', ...args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`))].join(' '));
}

/** Lines git adds after the real message of a failed remote call. */
const BOILERPLATE = ['Please make sure you have the correct access rights', 'and the repository exists.'];

/** The last lines git wrote to stderr, credentials stripped (progress lines dropped). */
export function gitSaid(stderr: string, lines = 4): string {
  const kept = stripCredentials(stderr).split(/\r?\n|\r/).map((line) => line.trim())
    .filter((line) => line !== '' && !/^(remote: )?(Counting|Compressing|Receiving|Resolving|Enumerating|Total) /.test(line) && !BOILERPLATE.includes(line));
  return kept.slice(-lines).join(' | ');
}

/** What a failed git call against a remote reports: the URL, the command and git's own message. */
export interface GitFailureDetails {
  url: string;
  command: string;
  exitCode: number;
  stderr: string;
}

/**
 * The error of a failed git call against a remote: the message names the URL (credentials stripped), the command
 * and git's own message, e.g. `git clone of file:///srv/x.git failed (exit 128): fatal: '/srv/x.git' does not appear
 * to be a git repository; command: git clone --bare … -- file:///srv/x.git /data/mirrors/.tmp-…`.
 */
export function remoteGitError(kind: ErrorKind, code: string, what: string, url: string, args: readonly string[], result: Pick<GitResult, 'exitCode' | 'stderr'>): AppError {
  const details: GitFailureDetails = { url: stripCredentials(url), command: describeCommand(args), exitCode: result.exitCode, stderr: stripCredentials(result.stderr.slice(-4000)) };
  const said = gitSaid(result.stderr);
  return new AppError(kind, `${what} ${details.url} failed (exit ${result.exitCode}): ${said === '' ? 'git printed nothing' : said}; command: ${details.command}`, { code, details });
}
