/** Steps a backend cannot run: actions it has no way to execute, shells it does not provide, commands that need root. */
import { reachable } from './conditions.js';
import { objAt, textOf, type JobView, type StepView } from './model.js';
import type { BackendCapabilities, Blocker } from './types.js';

/** The action name without its `@ref`, lower-cased: `actions/checkout` (as the local executor matches it). */
export function actionName(uses: string): string {
  const at = uses.lastIndexOf('@');
  return (at > 0 ? uses.slice(0, at) : uses).toLowerCase();
}

type ActionKind = 'local' | 'docker' | 'marketplace';

function kindOf(uses: string): ActionKind {
  if (uses.startsWith('./')) return 'local';
  if (uses.startsWith('docker://')) return 'docker';
  return 'marketplace';
}

const KIND_TEXT: Record<ActionKind, string> = {
  local: 'an action of the repository itself',
  docker: 'a Docker container action',
  marketplace: 'an action from another repository',
};

function actionBlocker(job: JobView, step: StepView, uses: string, capabilities: BackendCapabilities): Blocker | null {
  const kind = kindOf(uses);
  if (capabilities.actions[kind] || capabilities.actions.builtin.includes(actionName(uses))) return null;
  const builtins = capabilities.actions.builtin.length === 0 ? 'none' : capabilities.actions.builtin.join(', ');
  return {
    code: 'unsupported_action',
    job: job.id,
    step: step.display,
    evidence: uses,
    message: `step "${step.display}" of job ${job.id} uses ${uses}, ${KIND_TEXT[kind]}, which ${capabilities.label} cannot run (it runs only: ${builtins})`,
  };
}

function shellBlocker(job: JobView, step: StepView, capabilities: BackendCapabilities): Blocker | null {
  const shell =
    textOf(step.raw.shell) ?? textOf(objAt(objAt(job.raw.defaults).run).shell) ?? textOf(objAt(job.workflow.defaults.run).shell);
  if (shell === undefined || shell.includes('${{')) return null;
  const program = (shell.trim().split(/\s+/)[0] ?? '').toLowerCase();
  if (!capabilities.unsupportedShells.includes(program)) return null;
  return {
    code: 'unsupported_shell',
    job: job.id,
    step: step.display,
    evidence: shell,
    message: `step "${step.display}" of job ${job.id} runs its script with shell ${program}, which ${capabilities.label} does not provide`,
  };
}

/** `sudo` as a command word of a script line (after a separator, `(`, `$(`, a backtick or a keyword), not in a comment. */
const SUDO = /(?:^|[;&|(`{]|\b(?:then|do|else|exec|xargs|time|env)\s)\s*sudo(?=\s|$)/;

function sudoLine(script: string): string | undefined {
  return script
    .split('\n')
    .map((line) => line.trim())
    .find((line) => !line.startsWith('#') && SUDO.test(line));
}

function rootBlocker(job: JobView, step: StepView, capabilities: BackendCapabilities): Blocker | null {
  if (capabilities.root) return null;
  const shell = textOf(step.raw.shell) ?? '';
  const line = /^\s*sudo\s/.test(shell) ? shell : sudoLine(textOf(step.raw.run) ?? '');
  if (line === undefined) return null;
  return {
    code: 'root_required',
    job: job.id,
    step: step.display,
    evidence: line.length > 200 ? `${line.slice(0, 199)}…` : line,
    message: `step "${step.display}" of job ${job.id} runs sudo, which GitHub-hosted runners allow without a password; ${capabilities.label} runs steps as an unprivileged user that cannot become root`,
  };
}

/** Blockers of the steps that may run on Linux (steps guarded to Windows or macOS only are left out). */
export function stepBlockers(job: JobView, capabilities: BackendCapabilities): Blocker[] {
  const blockers: Blocker[] = [];
  for (const step of job.steps) {
    if (reachable(step.raw.if, job.combos).length === 0) continue;
    const uses = textOf(step.raw.uses);
    const found = uses !== undefined ? [actionBlocker(job, step, uses.trim(), capabilities)] : textOf(step.raw.run) !== undefined ? [shellBlocker(job, step, capabilities), rootBlocker(job, step, capabilities)] : [];
    for (const blocker of found) if (blocker !== null) blockers.push(blocker);
  }
  return blockers;
}
