import { execFile } from 'node:child_process';
import { lchownSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { checkoutCommit, fetchDepth } from '../checkout.js';
import { isAppError } from '../../errors.js';
import { assertNoSymlinkEscape } from '../sandbox/index.js';
import type { BuiltinAction } from './index.js';
import { failStep, failStepForPlatform } from './index.js';

const run = promisify(execFile);

/**
 * actions/checkout: checks out the run's commit (or the commit `ref` names by its sha) into the workspace
 * (or `path` under it) as GitHub's action does: `fetch-depth` commits of history (default 1, a shallow clone;
 * 0 = all branches and tags), `fetch-tags`, the run's branch checked out as a local branch tracking `origin`.
 */
export const checkoutAction: BuiltinAction = async (rt, inputs) => {
  const { input, state } = rt;
  const repository = inputs.repository ?? input.repo.fullName;
  if (repository.toLowerCase() !== input.repo.fullName.toLowerCase()) {
    return failStepForPlatform(rt, 'unsupported_feature', `checkout of another repository is not supported by the local executor: ${repository}`);
  }
  const target = resolve(state.workspace, inputs.path ?? '.');
  if (!target.startsWith(state.workspace)) {
    return failStep(rt, `Repository path '${target}' is not under '${state.workspace}'`);
  }
  try {
    // the executor writes here as its own user: never through a link a step planted
    assertNoSymlinkEscape(input.jobDir, target);
    // git (run by the executor) refuses a work tree another user owns: the step user gets it back afterwards
    const owner = state.sandbox?.owner;
    if (owner !== null && owner !== undefined) {
      mkdirSync(target, { recursive: true });
      lchownSync(target, process.getuid?.() ?? 0, process.getgid?.() ?? 0);
    }
  } catch (error) {
    if (isAppError(error)) return failStep(rt, error.message);
    throw error;
  }
  const explicitSha = inputs.ref !== undefined && /^[0-9a-f]{40}$/i.test(inputs.ref);
  const sha = explicitSha ? (inputs.ref ?? input.sha) : input.sha;
  state.log.line(`Syncing repository: ${repository}`);
  state.log.line('##[group]Fetching the repository');
  try {
    await checkoutCommit({
      source: input.repo.gitDir, sha, dir: target, ref: explicitSha ? null : input.ref,
      depth: fetchDepth(inputs['fetch-depth']), fetchTags: (inputs['fetch-tags'] ?? '').trim().toLowerCase() === 'true',
      onCommand: (commandLine) => state.log.line(`[command]${commandLine}`),
    });
  } catch (error) {
    state.log.line('##[endgroup]');
    if (isAppError(error)) return failStep(rt, error.message);
    throw error;
  }
  const { stdout } = await run('git', ['log', '-1', '--format=%H %s'], { cwd: target });
  state.log.line(`HEAD is now at ${stdout.trim().slice(0, 7)}${stdout.trim().slice(40)}`);
  state.log.line('##[endgroup]');
  state.postSteps.push({ name: `Post ${rt.name}`, lines: ['Post job cleanup.'] });
  return { outcome: 'success', timedOut: false };
};
