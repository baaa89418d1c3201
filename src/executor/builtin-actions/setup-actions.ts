import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { isAppError } from '../../errors.js';
import { assertNoSymlinkEscape, readJobFile } from '../sandbox/index.js';
import type { HostInterpreter } from '../host-tools.js';
import { findNodes, findPythons, versionSatisfies } from '../host-tools.js';
import type { StepRuntime } from '../job-runner/step-runtime.js';
import type { BuiltinAction } from './index.js';
import { failStep, failStepForPlatform } from './index.js';

/**
 * The PATH directories whose interpreters the executor may run (`--version`) to find one: with a sandbox, not
 * those inside the job directory (a step could have put a `python3` there, and the executor is not sandboxed).
 */
function probeDirs(rt: StepRuntime): string[] {
  const dirs = (rt.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  if (rt.state.sandbox === null) return dirs;
  const job = realpathSync(rt.state.jobDir);
  return dirs.filter((dir) => {
    try {
      const real = realpathSync(dir);
      return real !== job && !real.startsWith(`${job}${sep}`);
    } catch {
      return false;
    }
  });
}

function describe(found: HostInterpreter[]): string {
  return found.length === 0 ? 'none' : found.map((f) => `${f.version} (${f.binary})`).join(', ');
}

/** Makes `python`, `python3` and `pythonX.Y` resolve to the chosen interpreter, first in PATH. */
function pythonShims(rt: StepRuntime, chosen: HostInterpreter): string {
  const dir = join(rt.state.temp, '_tool', 'python', chosen.version, 'bin');
  assertNoSymlinkEscape(rt.state.jobDir, dir);
  mkdirSync(dir, { recursive: true });
  const minor = chosen.version.split('.').slice(0, 2).join('.');
  for (const name of ['python', 'python3', `python${minor}`]) {
    const link = join(dir, name);
    if (!existsSync(link)) symlinkSync(chosen.binary, link);
  }
  return dir;
}

export const setupPython: BuiltinAction = async (rt, inputs) => {
  let requested = inputs['python-version'];
  if ((requested === undefined || requested === '') && inputs['python-version-file'] !== undefined) {
    const file = resolve(rt.state.workspace, inputs['python-version-file']);
    if (!existsSync(file)) return failStep(rt, `The specified python version file at: ${file} doesn't exist.`);
    try {
      requested = readJobFile(rt.state.jobDir, file, 64 * 1024).split('\n')[0]?.trim();
    } catch (error) {
      if (isAppError(error)) return failStep(rt, error.message);
      throw error;
    }
  }
  const pathDirs = probeDirs(rt);
  const found = await findPythons(pathDirs, rt.input.pythonVersionsDirs);
  const wanted = requested === undefined || requested === '' ? undefined : requested;
  const chosen = wanted === undefined ? found[0] : found.find((f) => versionSatisfies(f.version, wanted));
  if (chosen === undefined) {
    return failStepForPlatform(rt, 'runner_tooling_missing', `python-version ${wanted ?? '(any)'} requested; available: ${describe(found)}`);
  }
  const shims = pythonShims(rt, chosen);
  const binDir = dirname(chosen.binary);
  rt.state.addedPath.unshift(shims, binDir);
  const location = dirname(binDir);
  for (const key of ['pythonLocation', 'Python_ROOT_DIR', 'Python2_ROOT_DIR', 'Python3_ROOT_DIR']) {
    rt.state.addedEnv[key] = location;
  }
  rt.state.addedEnv.PKG_CONFIG_PATH = join(location, 'lib', 'pkgconfig');
  rt.outputs['python-version'] = chosen.version;
  rt.outputs['python-path'] = chosen.binary;
  rt.state.log.line(`Successfully set up CPython (${chosen.version})`);
  rt.state.log.line(`Using host interpreter ${chosen.binary}`);
  return { outcome: 'success', timedOut: false };
};

export const setupNode: BuiltinAction = async (rt, inputs) => {
  const requested = inputs['node-version'];
  const pathDirs = probeDirs(rt);
  const found = await findNodes(pathDirs);
  const chosen = requested === undefined || requested === '' ? found[0] : found.find((f) => versionSatisfies(f.version, requested));
  if (chosen === undefined) {
    return failStepForPlatform(rt, 'runner_tooling_missing', `node-version ${requested ?? '(any)'} requested; available: ${describe(found)}`);
  }
  rt.state.addedPath.unshift(dirname(chosen.binary));
  rt.outputs['node-version'] = `v${chosen.version}`;
  rt.state.log.line(`Found in cache @ ${dirname(dirname(chosen.binary))}`);
  rt.state.log.line('##[group]Environment details');
  rt.state.log.line(`node: v${chosen.version}`);
  rt.state.log.line('##[endgroup]');
  return { outcome: 'success', timedOut: false };
};
