import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { copyFiles, matchFiles } from '../artifacts.js';
import { hostView } from '../job-runner/host-view.js';
import type { StepRuntime } from '../job-runner/step-runtime.js';
import { assertNoSymlinkEscape } from '../sandbox/index.js';
import type { BuiltinAction } from './index.js';
import { failStep } from './index.js';

const NAME = /^[^":<>|*?\\/\r\n]+$/;

/** actions/upload-artifact (v4 semantics): copies the matched files to `<artifactsDir>/<name>/`. */
export const uploadArtifact: BuiltinAction = async (rt, inputs) => {
  const { input, state } = rt;
  const name = inputs.name === undefined || inputs.name === '' ? 'artifact' : inputs.name;
  if (!NAME.test(name)) return failStep(rt, `The artifact name is not valid: ${name}`);
  const patterns = (inputs.path ?? '').split('\n').map((p) => p.trim()).filter((p) => p !== '');
  if (patterns.length === 0) return failStep(rt, 'Input required and not supplied: path');
  const matched = matchFiles(state.workspace, patterns.map((p) => (p.startsWith('!') ? `!${hostView(state, p.slice(1))}` : hostView(state, p))));
  const files = withinJob(rt, matched.files);
  const { base } = matched;
  const ifNone = inputs['if-no-files-found'] ?? 'warn';
  if (files.length === 0) {
    const message = `No files were found with the provided path: ${patterns.join('\n')}. No artifacts will be uploaded.`;
    if (ifNone === 'error') return failStep(rt, message);
    if (ifNone === 'warn') {
      state.log.line(`##[warning]${message}`);
      state.annotations.push({ level: 'warning', message, stepNumber: rt.number });
    } else state.log.line(message);
    return { outcome: 'success', timedOut: false };
  }
  if (input.artifacts.has(name)) {
    return failStep(
      rt,
      'Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run',
    );
  }
  const dest = join(input.artifactsDir, name);
  state.log.line(`With the provided path, there will be ${files.length} file${files.length === 1 ? '' : 's'} uploaded`);
  const sizeBytes = copyFiles(files, base, dest);
  input.artifacts.set(name, { name, path: dest, sizeBytes });
  state.log.line(`Artifact ${name} has been successfully uploaded! Final size is ${sizeBytes} bytes.`);
  rt.outputs['artifact-id'] = String(input.artifacts.size);
  return { outcome: 'success', timedOut: false };
};

/** actions/download-artifact: copies artifacts uploaded earlier in this run into the workspace. */
export const downloadArtifact: BuiltinAction = async (rt, inputs) => {
  const { input, state } = rt;
  const target = hostView(state, resolve(state.workspace, inputs.path ?? '.'));
  const guard = state.sandbox === null ? undefined : (path: string): void => assertNoSymlinkEscape(state.jobDir, path);
  const names = inputs.name !== undefined && inputs.name !== '' ? [inputs.name] : [...input.artifacts.keys()];
  for (const name of names) {
    const artifact = input.artifacts.get(name);
    if (artifact === undefined) return failStep(rt, `Artifact not found for name: ${name}`);
    const files = walk(artifact.path);
    const dest = inputs.name !== undefined && inputs.name !== '' ? target : join(target, name);
    copyFiles(files, artifact.path, dest, guard);
    state.log.line(`Artifact download completed successfully: ${name} (${files.length} files)`);
  }
  rt.outputs['download-path'] = target;
  return { outcome: 'success', timedOut: false };
};

/**
 * With a sandbox, only files that really are in the job directory (not through a link a step planted to the
 * worker's files): the executor reads them as its own user and serves them to whoever reads the artifacts.
 */
function withinJob(rt: StepRuntime, files: string[]): string[] {
  if (rt.state.sandbox === null) return files;
  const job = realpathSync(rt.state.jobDir);
  return files.filter((file) => {
    try {
      const real = realpathSync(file);
      if (real.startsWith(`${job}${sep}`)) return true;
    } catch {
      // vanished
    }
    rt.state.log.line(`##[warning]Skipping ${file}: it is not a file of this job`);
    return false;
  });
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}
