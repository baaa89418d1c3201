import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { isAppError } from '../../errors.js';
import { actionName, BUILTIN_ACTION_NAMES } from '../builtin-actions/index.js';
import { usesContainers } from '../job-runner/container-setup.js';
import type { JobInput, JobState } from '../job-runner/job-state.js';
import { getAction } from './action-cache.js';
import { parseActionRef } from './action-ref.js';
import { readManifest } from './manifest.js';
import type { ActionManifest, LocalActionRef, PreparedAction } from './types.js';

/** Composite actions calling composite actions: GitHub stops at 10 levels too. */
export const MAX_ACTION_DEPTH = 10;

export const isBuiltinAction = (uses: string): boolean => BUILTIN_ACTION_NAMES.includes(actionName(uses));

/** What the job's environment can run: Docker actions need a container runtime. */
export interface ActionRuntime {
  docker: boolean;
  /** Why Docker actions cannot run here (shown in the setup error). */
  dockerUnavailable: string;
}

/** Host mode: steps run on this machine, no container runtime for Docker actions. */
export const HOST_ACTION_RUNTIME: ActionRuntime = {
  docker: false,
  dockerUnavailable: 'the job runs on the host (no container runtime)',
};

/** Docker actions run where the job runs in a container (the run has a container runtime). */
export function actionRuntimeOf(input: JobInput): ActionRuntime {
  if (usesContainers(input) && input.containers?.runtime != null) return { docker: true, dockerUnavailable: '' };
  return HOST_ACTION_RUNTIME;
}

/**
 * Whether the job's steps will run as an unprivileged uid other than the worker's (decided before "Set up job"
 * starts them): a root worker's step sandbox (namespaces) or job container. Not in a user namespace or without a sandbox.
 */
function stepsRunAsAnotherUser(input: JobInput): boolean {
  if (process.getuid?.() !== 0) return false;
  if (usesContainers(input)) return input.containers?.runtime != null && input.containers.settings.user !== 'root';
  return input.sandbox.namespaces !== null;
}

class SetupFailure extends Error {
  constructor(readonly reason: 'action_unavailable' | 'unsupported_feature' | 'job_setup_failed', message: string) {
    super(message);
  }
}

/**
 * "Prepare all required actions" of "Set up job": resolves every `uses:` of the job (and of the composite actions it
 * calls, recursively) to a pinned commit, from the cache or the configured server, copies each action into the job
 * directory (`<job>/work/_actions/<owner>/<repo>/<sha>`, GITHUB_ACTION_PATH) and reads its action.yml. Built-in
 * stand-ins are used for their names and say so. Returns the error that fails the job (with `state.infraError` set),
 * or null. Without action settings, other actions are left to fail at their step (as before marketplace support).
 */
export async function prepareJobActions(input: JobInput, state: JobState, runtime: ActionRuntime = actionRuntimeOf(input)): Promise<string | null> {
  const visit = actionVisitor(input, state, runtime, false);
  try {
    for (const step of input.job.steps) if (step.uses !== undefined) await visit(step.uses, 1);
  } catch (error) {
    if (!(error instanceof SetupFailure)) throw error;
    state.infraError ??= { reason: error.reason, message: error.message, stepNumber: 1 };
    return error.message;
  }
  return null;
}

/**
 * A `uses: ./path` step's action, read from the workspace when the step runs (after checkout, as GitHub does; a
 * local action has no `pre` stage), with the actions a local composite action calls prepared like those of "Set up
 * job". Returns the message that fails the step (with the job's infraError when the platform is at fault).
 */
export async function prepareLocalAction(input: JobInput, state: JobState, uses: string, stepNumber: number): Promise<{ action: PreparedAction } | { error: string }> {
  try {
    await actionVisitor(input, state, actionRuntimeOf(input), true)(uses, 1);
  } catch (error) {
    if (!(error instanceof SetupFailure)) throw error;
    if (error.reason !== 'job_setup_failed') state.infraError ??= { reason: error.reason, message: error.message, stepNumber };
    return { error: error.message };
  }
  const action = state.actions.get(uses);
  return action === undefined ? { error: `Can't find the local action '${uses}'` } : { action };
}

/**
 * Resolves a `uses:` and the actions it calls into `state.actions` (recursively for composite actions); throws a
 * SetupFailure. `local`: `./path` actions are read from the workspace (at their step); else they are left for then.
 */
function actionVisitor(input: JobInput, state: JobState, runtime: ActionRuntime, local: boolean): (uses: string, depth: number) => Promise<void> {
  const settings = input.actions;
  const { log } = state;
  const seen = new Set<string>();
  const copies = new Map<string, string>();
  const visit = async (uses: string, depth: number): Promise<void> => {
    if (seen.has(uses)) return;
    seen.add(uses);
    if (isBuiltinAction(uses)) {
      log.line(`Using the built-in stand-in for '${uses}' (ci-replay's local executor; the action is not downloaded)`);
      return;
    }
    if (uses.includes('${{')) throw new SetupFailure('job_setup_failed', `Expressions are not allowed in 'uses': ${uses}`);
    let ref;
    try {
      ref = parseActionRef(uses);
    } catch (error) {
      if (isAppError(error)) throw new SetupFailure('job_setup_failed', error.message);
      throw error;
    }
    if (ref.kind === 'local') {
      if (local) await visitLocal({ ...ref, uses }, depth);
      return;
    }
    if (ref.kind === 'docker') {
      if (!runtime.docker) throw dockerUnsupported(uses, runtime);
      return;
    }
    if (settings === undefined) return;
    if (depth > MAX_ACTION_DEPTH) throw new SetupFailure('job_setup_failed', `Composite actions are nested more than ${MAX_ACTION_DEPTH} levels deep at '${uses}'`);
    let cached;
    try {
      cached = await getAction(settings, ref);
    } catch (error) {
      if (isAppError(error) && error.code === 'action_unavailable') throw new SetupFailure('action_unavailable', error.message);
      throw error;
    }
    log.line(`Download action repository '${ref.owner}/${ref.repo}@${ref.ref}' (SHA:${cached.sha})`);
    const copyKey = `${ref.owner}/${ref.repo}@${cached.sha}`;
    let root = copies.get(copyKey);
    if (root === undefined) {
      const actionsDir = join(input.jobDir, 'work', '_actions');
      root = join(actionsDir, ref.owner, ref.repo, cached.sha);
      // node resolves an action's module type from the nearest package.json: stop the lookup here, never at a
      // package.json of whatever directory DATA_DIR is in (CommonJS, as under a runner's _work/_actions)
      if (!existsSync(join(actionsDir, 'package.json'))) {
        mkdirSync(actionsDir, { recursive: true });
        writeFileSync(join(actionsDir, 'package.json'), '{}\n');
      }
      if (!existsSync(root)) {
        mkdirSync(root, { recursive: true });
        // steps running as another uid cannot write the cache's root-owned files: hard links are safe (and cheap) then
        if (!stepsRunAsAnotherUser(input) || !linkTree(cached.dir, root)) cpSync(cached.dir, root, { recursive: true, verbatimSymlinks: true });
      }
      copies.set(copyKey, root);
    }
    const dir = ref.path === '' ? root : join(root, ref.path);
    let manifest: ActionManifest;
    try {
      manifest = readManifest(dir, ref.path === '' ? `${ref.owner}/${ref.repo}` : `${ref.owner}/${ref.repo}/${ref.path}`);
    } catch (error) {
      if (isAppError(error)) throw new SetupFailure('job_setup_failed', error.message);
      throw error;
    }
    await prepared(uses, { ref, sha: cached.sha, dir, manifest }, depth);
  };
  const prepared = async (uses: string, action: PreparedAction, depth: number): Promise<void> => {
    if (action.manifest.runs.using === 'docker' && !runtime.docker) throw dockerUnsupported(uses, runtime);
    state.actions.set(uses, action);
    if (action.manifest.runs.using === 'composite') {
      for (const step of action.manifest.runs.steps) if (step.uses !== undefined) await visit(step.uses, depth + 1);
    }
  };
  const visitLocal = async (ref: LocalActionRef, depth: number): Promise<void> => {
    if (depth > MAX_ACTION_DEPTH) throw new SetupFailure('job_setup_failed', `Composite actions are nested more than ${MAX_ACTION_DEPTH} levels deep at '${ref.uses}'`);
    const dir = resolve(state.workspace, ref.path);
    if (dir !== state.workspace && !dir.startsWith(`${state.workspace}${sep}`)) {
      throw new SetupFailure('job_setup_failed', `The local action '${ref.uses}' is outside the workspace (${state.workspace})`);
    }
    if (!['action.yml', 'action.yaml'].some((name) => existsSync(join(dir, name)))) {
      throw new SetupFailure('job_setup_failed', `Can't find 'action.yml', 'action.yaml' or 'Dockerfile' under '${dir}'. Did you forget to run actions/checkout before running your local action?`);
    }
    let manifest: ActionManifest;
    try {
      manifest = readManifest(dir, ref.uses);
    } catch (error) {
      if (isAppError(error)) throw new SetupFailure('job_setup_failed', error.message);
      throw error;
    }
    await prepared(ref.uses, { ref, sha: input.sha, dir, manifest }, depth);
  };
  return visit;
}

function dockerUnsupported(uses: string, runtime: ActionRuntime): SetupFailure {
  return new SetupFailure(
    'unsupported_feature',
    `Docker container actions are not supported by the local executor here: ${runtime.dockerUnavailable} (${uses}). Set LOCAL_RUNTIME to a container runtime (docker or podman) to run them.`,
  );
}

/** Recreates `source` at `target` with hard links to its files; false (target emptied) when links are refused (EXDEV…). */
function linkTree(source: string, target: string): boolean {
  const walk = (from: string, to: string): void => {
    for (const entry of readdirSync(from)) {
      const src = join(from, entry);
      const dst = join(to, entry);
      const info = lstatSync(src);
      if (info.isDirectory()) {
        mkdirSync(dst);
        walk(src, dst);
      } else if (info.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
      else if (info.isFile()) linkSync(src, dst);
    }
  };
  try {
    walk(source, target);
    return true;
  } catch {
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    return false;
  }
}
