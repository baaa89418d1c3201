import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAppError } from '../../errors.js';
import { parseKeyValueFile, parsePathFile } from '../env-files.js';
import { readJobFile } from '../sandbox/index.js';
import { parseWorkflowCommand } from '../workflow-commands.js';
import type { Annotation } from '../types.js';
import type { JobInput, JobState } from './job-state.js';

/** What a step implementation (script or built-in action) gets. */
export interface StepRuntime {
  input: JobInput;
  state: JobState;
  number: number;
  name: string;
  /** The complete process environment of the step. */
  env: Record<string, string>;
  /** The variables shown in the log's `env:` block (workflow, job, GITHUB_ENV, step). */
  displayEnv: Record<string, string>;
  outputs: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
  files: { env: string; output: string; path: string; summary: string };
  /** Stop-commands token while commands are suspended. */
  stopToken: string | null;
  /** A JavaScript action's saved state: the deprecated `::save-state name=…::` command writes here (else ignored). */
  savedState?: Record<string, string>;
}

export type StepExecution = { outcome: 'success' | 'failure' | 'cancelled'; timedOut: boolean };

export function createFileCommands(temp: string): StepRuntime['files'] {
  const id = randomUUID();
  const dir = join(temp, '_runner_file_commands');
  const files = {
    env: join(dir, `set_env_${id}`),
    output: join(dir, `set_output_${id}`),
    path: join(dir, `add_path_${id}`),
    summary: join(dir, `step_summary_${id}`),
  };
  for (const f of Object.values(files)) writeFileSync(f, '');
  return files;
}

const ANNOTATION_LEVELS = { error: 'error', warning: 'warning', notice: 'notice' } as const;

function toInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number.parseInt(value, 10);
  return Number.isNaN(n) ? undefined : n;
}

/** Handles one output line of a step: a workflow command, or a plain log line. */
export function handleOutputLine(rt: StepRuntime, line: string): void {
  const { log } = rt.state;
  if (rt.stopToken !== null) {
    if (line.trim() === `::${rt.stopToken}::`) rt.stopToken = null;
    else log.line(line);
    return;
  }
  const command = parseWorkflowCommand(line);
  if (command === null) {
    log.line(line);
    return;
  }
  const { name, properties, message } = command;
  if (name === 'error' || name === 'warning' || name === 'notice') {
    const annotation: Annotation = { level: ANNOTATION_LEVELS[name], message: log.mask(message), stepNumber: rt.number };
    const assign = (key: 'file' | 'title', value: string | undefined): void => {
      if (value !== undefined) annotation[key] = value;
    };
    const assignNum = (key: 'line' | 'endLine' | 'col' | 'endColumn', value: number | undefined): void => {
      if (value !== undefined) annotation[key] = value;
    };
    assign('file', properties.file === undefined ? undefined : log.mask(properties.file));
    assign('title', properties.title === undefined ? undefined : log.mask(properties.title));
    assignNum('line', toInt(properties.line));
    assignNum('endLine', toInt(properties.endLine));
    assignNum('col', toInt(properties.col));
    assignNum('endColumn', toInt(properties.endColumn));
    rt.state.annotations.push(annotation);
    log.line(`##[${name}]${message}`);
    return;
  }
  if (name === 'group') return log.line(`##[group]${message}`);
  if (name === 'endgroup') return log.line('##[endgroup]');
  if (name === 'add-mask') return log.addMask(message);
  if (name === 'debug') return;
  if (name === 'stop-commands') {
    rt.stopToken = message;
    return;
  }
  if (name === 'save-state') {
    if (rt.savedState !== undefined && properties.name !== undefined) rt.savedState[properties.name] = message;
    return;
  }
  if (name === 'echo') return;
  if (name === 'set-output' && properties.name !== undefined) {
    rt.outputs[properties.name] = message;
    log.line(
      '##[warning]The `set-output` command is deprecated and will be disabled soon. Please upgrade to using Environment Files. For more information see: https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/',
    );
    return;
  }
  if (name === 'set-env' || name === 'add-path') {
    log.line(
      `##[error]Unable to process command '${line.trim()}' successfully.\n##[error]The \`${name}\` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the \`ACTIONS_ALLOW_UNSECURE_COMMANDS\` environment variable to \`true\`. For more information see: https://github.blog/changelog/2020-10-01-github-actions-deprecating-set-env-and-add-path-commands/`,
    );
    return;
  }
  log.line(line);
}

/** Largest environment file the executor reads back. */
const FILE_COMMAND_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Applies the step's environment files (GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY).
 * Returns false (after logging an error) when one of them is malformed: the step then fails. The files are read
 * without following links and only when regular: a step cannot make the executor read anything else.
 */
export function applyFileCommands(rt: StepRuntime): boolean {
  const read = (path: string): string => readJobFile(null, path, FILE_COMMAND_MAX_BYTES);
  let path: string;
  let summary: string;
  try {
    for (const [k, v] of parseKeyValueFile(read(rt.files.env), 'GITHUB_ENV')) rt.state.addedEnv[k] = v;
    for (const [k, v] of parseKeyValueFile(read(rt.files.output), 'GITHUB_OUTPUT')) rt.outputs[k] = v;
    path = read(rt.files.path);
    summary = read(rt.files.summary);
  } catch (error) {
    if (!isAppError(error)) throw error;
    rt.state.log.line(`##[error]${error.message}`);
    return false;
  }
  for (const dir of parsePathFile(path)) rt.state.addedPath.unshift(dir);
  if (summary !== '') rt.state.summary += summary.endsWith('\n') ? summary : `${summary}\n`;
  return true;
}
