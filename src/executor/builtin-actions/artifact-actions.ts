import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { copyFiles, matchFiles } from '../artifacts.js';
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
  const { files, base } = matchFiles(state.workspace, patterns);
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
  const target = resolve(state.workspace, inputs.path ?? '.');
  const names = inputs.name !== undefined && inputs.name !== '' ? [inputs.name] : [...input.artifacts.keys()];
  for (const name of names) {
    const artifact = input.artifacts.get(name);
    if (artifact === undefined) return failStep(rt, `Artifact not found for name: ${name}`);
    const files = walk(artifact.path);
    const dest = inputs.name !== undefined && inputs.name !== '' ? target : join(target, name);
    copyFiles(files, artifact.path, dest);
    state.log.line(`Artifact download completed successfully: ${name} (${files.length} files)`);
  }
  rt.outputs['download-path'] = target;
  return { outcome: 'success', timedOut: false };
};

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}
