import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { checkoutCommit } from '../checkout.js';
import { isAppError } from '../../errors.js';
import type { BuiltinAction } from './index.js';
import { failStep } from './index.js';

const run = promisify(execFile);

/**
 * actions/checkout: checks out the run's commit into the workspace (or `path` under it). The local
 * clone shares the source's objects, so the full history is available whatever `fetch-depth` says.
 */
export const checkoutAction: BuiltinAction = async (rt, inputs) => {
  const { input, state } = rt;
  const repository = inputs.repository ?? input.repo.fullName;
  if (repository.toLowerCase() !== input.repo.fullName.toLowerCase()) {
    return failStep(rt, `checkout of another repository is not supported by the local executor: ${repository}`);
  }
  const target = resolve(state.workspace, inputs.path ?? '.');
  if (!target.startsWith(state.workspace)) {
    return failStep(rt, `Repository path '${target}' is not under '${state.workspace}'`);
  }
  const sha = inputs.ref !== undefined && /^[0-9a-f]{40}$/i.test(inputs.ref) ? inputs.ref : input.sha;
  state.log.line(`Syncing repository: ${repository}`);
  state.log.line('##[group]Fetching the repository');
  state.log.line(`[command]/usr/bin/git checkout --progress --force ${sha}`);
  try {
    await checkoutCommit(input.repo.gitDir, sha, target);
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
