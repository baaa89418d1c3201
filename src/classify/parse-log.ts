import { mapSteps } from './map-steps.js';
import { normalizeLine, splitGhRunViewLine } from './normalize-line.js';
import { readLines } from './read-lines.js';
import type { Rule } from './rules/rule.js';
import { LIMITS, LineRing, applyRules, compileRules, feedPending, newStep, type StepBuilder } from './scanner.js';
import type { LogInput, LogLayout, LogLine, ParsedLog, ParsedStep, StepInput } from './types.js';

export interface ParseLogOptions {
  steps?: StepInput[];
  /** Rules run on every step's output in the same pass (the classifier passes its table). */
  rules?: readonly Rule[];
}

const EXIT_CODE = /^Process completed with exit code (\d+)\./;
const SHELL_LINE = /^shell: /;

/**
 * Parses a GitHub job log in one streaming pass: splits it into steps (`##[group]Run ...` blocks, the job's
 * set-up and clean-up), records `##[error]` lines and exit codes, runs the given rules on step output, and maps
 * the blocks onto the job's step list when one is given. Memory is bounded whatever the log's size.
 */
export async function parseLog(input: LogInput, opts: ParseLogOptions = {}): Promise<ParsedLog> {
  const rules = opts.rules ?? [];
  const reader = readLines(input);
  const builders: StepBuilder[] = [];
  const errorLines: LogLine[] = [];
  const ring = new LineRing();
  let layout: LogLayout | undefined;
  let lineNo = 0;
  let step = newStep('Set up job', 1);
  step.rules = compileRules(rules, '');
  builders.push(step);

  const startStep = (title: string, command: string, inHeader: boolean, ghStep?: string): void => {
    finishStep(step);
    step = newStep(title, lineNo, command);
    step.inHeader = inHeader;
    if (ghStep !== undefined) step.ghStep = ghStep;
    if (!inHeader) step.rules = compileRules(rules, command);
    builders.push(step);
  };

  for await (const batch of reader.batches) {
    for (const raw of batch) {
      lineNo++;
      let body = raw;
      let ghStep: string | undefined;
      if (layout === undefined && raw.length > 0) {
        layout = splitGhRunViewLine(raw) !== undefined ? 'gh-run-view' : 'raw';
      }
      if (layout === 'gh-run-view') {
        const split = splitGhRunViewLine(raw);
        if (split !== undefined) {
          body = split.rest;
          ghStep = split.step;
        }
      }
      const { text, timestamp } = normalizeLine(body);
      if (ghStep !== undefined && step.ghStep !== ghStep) {
        if (step.lineCount === 0) {
          step.title = ghStep;
          step.ghStep = ghStep;
        } else {
          startStep(ghStep, '', false, ghStep);
        }
      }
      if (text.startsWith('##[')) {
        if (text.startsWith('##[group]Run ')) {
          const command = text.slice(13);
          if (layout === 'gh-run-view' && step.command === '' && step.startLine === lineNo) {
            step.command = command;
            step.inHeader = true;
            step.rules = undefined;
          } else {
            startStep(`Run ${command}`, command, true, ghStep);
          }
        } else if (text.startsWith('##[endgroup]')) {
          if (step.inHeader) {
            step.inHeader = false;
            step.rules = compileRules(rules, step.command);
          }
        } else if (text.startsWith('##[error]')) {
          const message = text.slice(9);
          step.hasError = true;
          const code = EXIT_CODE.exec(message);
          if (code !== null) step.exitCode = Number(code[1]);
          if (step.errorLines.length < LIMITS.errorLinesPerStep) step.errorLines.push({ line: lineNo, text: message });
          if (errorLines.length < LIMITS.errorLinesTotal) errorLines.push({ line: lineNo, text: message });
          if (step.inHeader) {
            step.inHeader = false;
            step.rules = compileRules(rules, step.command);
          }
          feedPending(step, lineNo, text);
          applyRules(step, lineNo, text, ring);
          ring.push(lineNo, text);
        }
      } else if (step.inHeader) {
        if (SHELL_LINE.test(text)) step.commandClosed = true;
        else if (!step.commandClosed && step.command.length < LIMITS.commandChars) step.command += `\n${text}`;
      } else if (text === 'Post job cleanup.' && layout !== 'gh-run-view') {
        startStep('Post job cleanup', '', false);
      } else if (text.startsWith('Cleaning up orphan processes') && layout !== 'gh-run-view') {
        startStep('Complete job', '', false);
      } else {
        feedPending(step, lineNo, text);
        applyRules(step, lineNo, text, ring);
        ring.push(lineNo, text);
      }
      if (timestamp !== undefined) {
        if (step.startedAt === undefined) step.startedAt = timestamp;
        step.completedAt = timestamp;
      }
      step.endLine = lineNo;
      step.lineCount++;
    }
  }
  finishStep(step);
  const steps = builders.filter((b) => b.lineCount > 0).map((b, i) => toParsedStep(b, i));
  mapSteps(steps, opts.steps);
  return {
    layout: layout ?? 'plain',
    encoding: reader.encoding(),
    lineCount: lineNo,
    steps,
    errorLines,
    failedSteps: steps.filter((s) => s.failed),
  };
}

function finishStep(step: StepBuilder): void {
  step.pending = [];
}

function toParsedStep(b: StepBuilder, index: number): ParsedStep {
  const step: ParsedStep = {
    index,
    title: b.title,
    command: b.command,
    startLine: b.startLine,
    endLine: b.endLine,
    errorLines: b.errorLines,
    failed: b.hasError,
    hits: [...b.hits.values()],
  };
  if (b.startedAt !== undefined) step.startedAt = b.startedAt;
  if (b.completedAt !== undefined) step.completedAt = b.completedAt;
  if (b.exitCode !== undefined) step.exitCode = b.exitCode;
  return step;
}
