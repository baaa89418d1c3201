import { detach } from './detach.js';
import { mapSteps } from './map-steps.js';
import { normalizeLine, splitGhRunViewLine, timestampLength } from './normalize-line.js';
import { readLines } from './read-lines.js';
import type { Rule } from './rules/rule.js';
import { LIMITS, LineRing, applyRules, compileRules, feedPending, newStep, type StepBuilder } from './scanner.js';
import type { LogInput, LogLayout, LogLine, ParsedLog, ParsedStep, StepInput } from './types.js';

export interface ParseLogOptions {
  steps?: StepInput[];
  /** Rules run on the output of every step that printed `##[error]` (the classifier passes its table). */
  rules?: readonly Rule[];
  /** Keep this many last output lines (normalized) of every step that printed `##[error]`, for log segments. */
  keepTailLines?: number;
}

const EXIT_CODE = /^Process completed with exit code (\d+)\./;
const HASH = 35;

/**
 * Parses a GitHub job log in one streaming pass: splits it into steps (`##[group]Run ...` blocks, the job's
 * set-up and clean-up), records `##[error]` lines and exit codes, runs the given rules on the output of failing
 * steps, and maps the blocks onto the job's step list when one is given.
 *
 * Memory stays bounded whatever the log's size: each step keeps only its last lines (LIMITS.tailLines /
 * LIMITS.tailChars) until it ends, and rules read that window of a step that failed; tools print what failed
 * last (test summaries, linter reports, the traceback that ended a process).
 */
export async function parseLog(input: LogInput, opts: ParseLogOptions = {}): Promise<ParsedLog> {
  const rules = opts.rules ?? [];
  const reader = readLines(input);
  const steps: ParsedStep[] = [];
  const errorLines: LogLine[] = [];
  let layout: LogLayout | undefined;
  let lineNo = 0;
  let step = newStep('Set up job', 1);

  const finish = (): void => {
    if (step.lineCount > 0) steps.push(finishStep(step, steps.length, rules, opts.keepTailLines ?? 0));
  };
  const startStep = (title: string, command: string, inHeader: boolean, ghStep?: string): void => {
    finish();
    step = newStep(title, lineNo, command);
    step.inHeader = inHeader;
    if (ghStep !== undefined) step.ghStep = ghStep;
  };

  for await (const batch of reader.batches) {
    for (const raw of batch) {
      lineNo++;
      let body = raw;
      if (layout === undefined && raw.length > 0) layout = splitGhRunViewLine(raw) !== undefined ? 'gh-run-view' : 'raw';
      if (layout === 'gh-run-view') {
        const split = splitGhRunViewLine(raw);
        if (split !== undefined) {
          body = split.rest;
          if (step.ghStep !== split.step) {
            if (step.lineCount === 0) {
              step.title = split.step;
              step.ghStep = split.step;
            } else {
              startStep(split.step, '', false, split.step);
            }
          }
        }
      }
      const off = timestampLength(body);
      if (body.charCodeAt(off) === HASH && body.startsWith('##[', off)) {
        const text = normalizeLine(body).text;
        if (text.startsWith('##[group]Run ')) {
          const command = text.slice(13);
          if (layout === 'gh-run-view' && step.command === '' && step.lineCount === 0) {
            step.command = command;
            step.inHeader = true;
          } else {
            startStep(`Run ${command}`, command, true);
          }
        } else if (text.startsWith('##[endgroup]')) {
          step.inHeader = false;
        } else if (text.startsWith('##[error]')) {
          const message = text.slice(9);
          step.hasError = true;
          step.inHeader = false;
          const code = EXIT_CODE.exec(message);
          if (code !== null) step.exitCode = Number(code[1]);
          if (step.errorLines.length < LIMITS.errorLinesPerStep) step.errorLines.push({ line: lineNo, text: detach(message) });
          if (errorLines.length < LIMITS.errorLinesTotal) errorLines.push({ line: lineNo, text: detach(message) });
          step.tail.push(lineNo, body);
        } else if (!step.inHeader) {
          step.tail.push(lineNo, body);
        }
      } else if (step.inHeader) {
        const text = normalizeLine(body).text;
        if (text.startsWith('shell: ')) step.commandClosed = true;
        else if (!step.commandClosed && step.command.length < LIMITS.commandChars) step.command += `\n${text}`;
      } else if (layout !== 'gh-run-view' && body.startsWith('Post job cleanup.', off) && body.length === off + 17) {
        startStep('Post job cleanup', '', false);
      } else if (layout !== 'gh-run-view' && body.startsWith('Cleaning up orphan processes', off)) {
        startStep('Complete job', '', false);
      } else {
        step.tail.push(lineNo, body);
      }
      if (off > 0) {
        if (step.startedAt === undefined) step.startedAt = detach(body.slice(0, off).trimEnd());
        step.lastStamped = body;
      }
      step.endLine = lineNo;
      step.lineCount++;
    }
  }
  finish();
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

/** Ends a step: runs the rules over the kept output of a step that printed `##[error]`. */
function finishStep(b: StepBuilder, index: number, rules: readonly Rule[], keepTailLines: number): ParsedStep {
  const kept: LogLine[] = [];
  if (b.hasError && (rules.length > 0 || keepTailLines > 0)) {
    const compiled = compileRules(rules, b.command);
    const ring = new LineRing();
    const keepFrom = b.tail.size - keepTailLines;
    let i = 0;
    for (const [line, raw] of b.tail.entries()) {
      const text = normalizeLine(raw).text;
      if (i++ >= keepFrom) kept.push({ line, text: detach(text) });
      if (rules.length === 0) continue;
      feedPending(b, line, text);
      applyRules(b, compiled, line, text, ring);
      ring.push(line, text);
    }
  }
  const step: ParsedStep = {
    index,
    title: detach(b.title),
    command: detach(b.command),
    startLine: b.startLine,
    endLine: b.endLine,
    errorLines: b.errorLines,
    failed: b.hasError,
    hits: [...b.hits.values()].map((hit) => ({
      ...hit,
      evidence: hit.evidence.map((e) => ({ ...e, text: detach(e.text) })),
      findings: hit.findings.map((f) => ({ ...f, path: detach(f.path), message: detach(f.message) })),
    })),
  };
  if (b.startedAt !== undefined) step.startedAt = b.startedAt;
  const lastOff = b.lastStamped === undefined ? 0 : timestampLength(b.lastStamped);
  if (b.lastStamped !== undefined && lastOff > 0) step.completedAt = detach(b.lastStamped.slice(0, lastOff).trimEnd());
  if (b.exitCode !== undefined) step.exitCode = b.exitCode;
  if (kept.length > 0) step.tail = kept;
  return step;
}
