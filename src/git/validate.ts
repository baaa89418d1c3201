import { invalidInput } from '../errors.js';

const FULL_SHA = /^[0-9a-f]{40}$/;

/** Throws invalid_input unless `sha` is a full lowercase 40-hex commit id. */
export function assertCommitSha(sha: string): void {
  if (!FULL_SHA.test(sha)) throw invalidInput('invalid_sha', 'expected a full 40-hex commit SHA', { sha });
}

/**
 * Throws invalid_input when a URL carries userinfo (`https://user:secret@host/...`): credentials travel
 * through the environment, never inside a URL.
 */
export function assertNoUserinfo(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    if (/^[^/:]+@[^/:]+:/.test(url)) throw invalidInput('invalid_url', 'URL must not contain userinfo');
    return;
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalidInput('invalid_url', 'URL must not contain userinfo; pass credentials separately');
  }
}

/** Throws invalid_input unless `branch` is a safe branch name (checked again by `git check-ref-format`). */
export function assertBranchName(branch: string): void {
  const ok = /^[A-Za-z0-9._/-]{1,200}$/.test(branch)
    && !branch.startsWith('-') && !branch.startsWith('/') && !branch.endsWith('/')
    && !branch.endsWith('.lock') && !branch.includes('..') && !branch.includes('//')
    && !branch.split('/').some((part) => part.startsWith('.'));
  if (!ok) throw invalidInput('invalid_branch', 'branch name is not allowed', { branch });
}
