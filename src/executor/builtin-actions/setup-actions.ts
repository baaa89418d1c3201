import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { HostInterpreter } from '../host-tools.js';
import { findNodes, findPythons, versionSatisfies } from '../host-tools.js';
import type { StepRuntime } from '../job-runner/step-runtime.js';
import type { BuiltinAction } from './index.js';
import { failStep } from './index.js';

function describe(found: HostInterpreter[]): string {
  return found.length === 0 ? 'none' : found.map((f) => `${f.version} (${f.binary})`).join(', ');
}

/** Makes `python`, `python3` and `pythonX.Y` resolve to the chosen interpreter, first in PATH. */
function pythonShims(rt: StepRuntime, chosen: HostInterpreter): string {
  const dir = join(rt.state.temp, '_tool', 'python', chosen.version, 'bin');
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
    requested = readFileSync(file, 'utf8').split('\n')[0]?.trim();
  }
  const pathDirs = (rt.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  const found = await findPythons(pathDirs, rt.input.pythonVersionsDirs);
  const wanted = requested === undefined || requested === '' ? undefined : requested;
  const chosen = wanted === undefined ? found[0] : found.find((f) => versionSatisfies(f.version, wanted));
  if (chosen === undefined) {
    return failStep(rt, `python-version ${wanted ?? '(any)'} requested; available: ${describe(found)}`);
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
  const pathDirs = (rt.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  const found = await findNodes(pathDirs);
  const chosen = requested === undefined || requested === '' ? found[0] : found.find((f) => versionSatisfies(f.version, requested));
  if (chosen === undefined) {
    return failStep(rt, `node-version ${requested ?? '(any)'} requested; available: ${describe(found)}`);
  }
  rt.state.addedPath.unshift(dirname(chosen.binary));
  rt.outputs['node-version'] = `v${chosen.version}`;
  rt.state.log.line(`Found in cache @ ${dirname(dirname(chosen.binary))}`);
  rt.state.log.line('##[group]Environment details');
  rt.state.log.line(`node: v${chosen.version}`);
  rt.state.log.line('##[endgroup]');
  return { outcome: 'success', timedOut: false };
};
