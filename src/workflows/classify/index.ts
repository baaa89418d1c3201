/** What a step or job is for: validation work, setup, or something that does not validate. */
import { actionName, knownAction, SCRIPT_WRITE } from './actions.js';
import { COVERAGE_UPLOAD, isInstallOnly, RUN_RULES } from './commands.js';
import type { StepClass, StepFacts, StepPurpose } from './types.js';

export type { StepClass, StepFacts, StepPurpose } from './types.js';
export { actionName, BUILD_PUSH_ACTIONS, WRAPPER_ACTIONS } from './actions.js';
export { isInstallOnly, REMOVED_COMMAND, runsValidation, stripPublishingCommands } from './commands.js';
export { anyPublishWord, isLiveServiceJobName, isModelOrCloudSecret, isPublishingSecret, publishWordInName } from './names.js';

function firstLine(run: string): string {
  const line = run.trim().split('\n').find((candidate) => candidate.trim() !== '' && !candidate.trim().startsWith('#')) ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

export function classifyStep(step: StepFacts): StepClass {
  if (step.uses !== undefined) {
    const name = actionName(step.uses);
    if (name.startsWith('./')) {
      const setup = /(?:^|[/_-])(?:setup|install|cache|bootstrap|prepare|env|environment|deps|dependencies|uv_setup|python|rust|go|node|docker|tilt|preload)[\w-]*\/?$|setup|install|bootstrap/i.test(name);
      return { purpose: setup ? 'setup' : 'work', detail: 'local action', evidence: name };
    }
    if (name === 'actions/github-script') {
      const script = typeof step.with?.script === 'string' ? step.with.script : '';
      const write = SCRIPT_WRITE.exec(script);
      return write === null
        ? { purpose: 'work', detail: name, evidence: name }
        : { purpose: 'repo-write', detail: 'writes to the repository or its issues through the GitHub API', evidence: `${name}: ${write[0].trim()}` };
    }
    const known = knownAction(name);
    if (known !== undefined) return { purpose: known[0], detail: known[1], evidence: name };
    return { purpose: 'work', detail: name, evidence: name };
  }
  const run = step.run ?? '';
  for (const [purpose, detail, pattern] of RUN_RULES) {
    const match = pattern.exec(run);
    if (match !== null) return { purpose, detail, evidence: lineOf(run, match.index) };
  }
  const coverage = COVERAGE_UPLOAD.exec(run);
  if (coverage !== null) return { purpose: 'coverage-upload', detail: 'uploads coverage', evidence: lineOf(run, coverage.index) };
  if (isInstallOnly(run)) return { purpose: 'setup', detail: 'installs dependencies', evidence: firstLine(run) };
  return { purpose: 'work', detail: 'runs commands', evidence: firstLine(run) };
}

/** The (trimmed, shortened) line of a script at a character offset. */
function lineOf(run: string, index: number): string {
  const start = run.lastIndexOf('\n', index) + 1;
  const end = run.indexOf('\n', index);
  const line = run.slice(start, end === -1 ? undefined : end).trim();
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

/** Purposes that never validate the code: such steps are removed. */
export function isNonValidating(purpose: StepPurpose): boolean {
  return purpose !== 'setup' && purpose !== 'work' && purpose !== 'artifact-upload' && purpose !== 'cloud-credentials' && purpose !== 'credentials';
}

/** Runner labels that a benchmark copy cannot use (self-hosted machines, GPUs, TPUs). */
export function unavailableRunner(labels: readonly string[]): string | undefined {
  return labels.find((label) => /^self-hosted$|gpu|cuda|tpu|\ba100\b|\bh100\b|\bt4\b/i.test(label));
}
