import { detach } from './detach.js';
import { mapSteps } from './map-steps.js';
import { normalizeLine, splitGhRunViewLine, timestampLength } from './normalize-line.js';
import { readChunks } from './read-chunks.js';
import type { Rule } from './rules/rule.js';
import { LIMITS, LineRing, applyRules, compileRules, feedPending, newStep, newTail, type StepBuilder } from './scanner.js';
import type { LogInput, LogLayout, LogLine, ParsedLog, ParsedStep, StepInput } from './types.js';

export interface ParseLogOptions {
  steps?: StepInput[];
  /** Rules run on the output of every step that printed `##[error]` (the classifier passes its table). */
  rules?: readonly Rule[];
  /** Keep this many last output lines (normalized) of every step that printed `##[error]`, for log segments. */
  keepTailLines?: number;
  /**
   * The job failed: when the log has no step markers and no `##[error]` line at all (tool output pasted as it is),
   * read it as one failing step.
   */
  assumeFailure?: boolean;
}

const EXIT_CODE = /^Process completed with exit code (\d+)\./;
const NL = 10;
const CR = 13;
const TAB = 9;
const HASH = 35;
const BRACKET = 91;
const MAX_LINE_BYTES = 64 * 1024;
const POST = 'Post job cleanup.';
const CLEANING = 'Cleaning up orphan processes';

/** Length of the `2025-04-07T12:57:33.2943173Z ` prefix at `s` (0 when there is none). */
function stampLength(buf: Buffer, s: number, e: number): number {
  const c = buf[s] as number;
  if (c < 48 || c > 57 || buf[s + 4] !== 45 || buf[s + 10] !== 84) return 0;
  if (buf[s + 27] === 90 && (e === s + 28 || buf[s + 28] === 32)) return Math.min(29, e - s);
  return timestampLength(buf.toString('latin1', s, Math.min(e, s + 40)));
}

/**
 * Parses a GitHub job log in one streaming pass over its bytes: splits it into steps (`##[group]Run ...` blocks,
 * the job's set-up and clean-up), records `##[error]` lines and exit codes, runs the given rules on the output of
 * failing steps, and maps the blocks onto the job's step list when one is given.
 *
 * Memory stays bounded whatever the log's size: each step keeps only its last lines (LIMITS.tailLines /
 * LIMITS.tailBytes, as byte ranges) until it ends, and rules read that window of a step that failed; tools print
 * what failed last (test summaries, linter reports, the traceback that ended a process).
 */
export async function parseLog(input: LogInput, opts: ParseLogOptions = {}): Promise<ParsedLog> {
  const rules = opts.rules ?? [];
  const reader = readChunks(input);
  const steps: ParsedStep[] = [];
  const errorLines: LogLine[] = [];
  let layout: LogLayout | undefined;
  let lineNo = 0;
  const tail = newTail();
  let step = newStep('Set up job', 1, tail);

  const finish = (): void => {
    if (step.lineCount > 0) steps.push(finishStep(step, steps.length, rules, opts.keepTailLines ?? 0));
  };
  const startStep = (title: string, command: string, inHeader: boolean, ghStep?: string): void => {
    finish();
    step = newStep(title, lineNo, tail, command);
    step.inHeader = inHeader;
    if (ghStep !== undefined) step.ghStep = ghStep;
  };

  const onLine = (buf: Buffer, start: number, end: number): void => {
    lineNo++;
    let s = start;
    const e = end > start && buf[end - 1] === CR ? end - 1 : end;
    if (layout === undefined && e > s) {
      const head = buf.toString('utf8', s, Math.min(e, s + 2048));
      layout = splitGhRunViewLine(head) !== undefined ? 'gh-run-view' : timestampLength(head) > 0 ? 'raw' : 'plain';
    }
    if (layout === 'gh-run-view') {
      const a = buf.indexOf(TAB, s);
      const b = a >= 0 && a < e ? buf.indexOf(TAB, a + 1) : -1;
      if (b >= 0 && b < e) {
        const column = buf.toString('utf8', a + 1, b);
        s = b + 1;
        if (buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf) s += 3;
        if (step.ghStep !== column) {
          if (step.lineCount === 0) {
            step.title = column;
            step.ghStep = column;
          } else {
            startStep(column, '', false, column);
          }
        }
      }
    }
    const off = stampLength(buf, s, e);
    const t = s + off;
    if (buf[t] === HASH && buf[t + 1] === HASH && buf[t + 2] === BRACKET) {
      const text = normalizeLine(buf.toString('utf8', t, e)).text;
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
        step.tail.push(lineNo, buf, s, e);
      } else if (!step.inHeader) {
        step.tail.push(lineNo, buf, s, e);
      }
    } else if (step.inHeader) {
      const text = normalizeLine(buf.toString('utf8', t, e)).text;
      if (text.startsWith('shell: ')) step.commandClosed = true;
      else if (!step.commandClosed && step.command.length < LIMITS.commandChars) step.command += `\n${text}`;
    } else if (layout !== 'gh-run-view' && e - t === POST.length && buf.toString('latin1', t, e) === POST) {
      startStep('Post job cleanup', '', false);
    } else if (layout !== 'gh-run-view' && e - t >= CLEANING.length && buf[t] === 67 && buf.toString('latin1', t, t + CLEANING.length) === CLEANING) {
      startStep('Complete job', '', false);
    } else {
      step.tail.push(lineNo, buf, s, e);
    }
    if (off > 0) {
      if (step.startedAt === undefined) step.startedAt = buf.toString('latin1', s, s + off).trimEnd();
      step.lastStamp = { buf, start: s, length: off };
    }
    step.endLine = lineNo;
    step.lineCount++;
  };

  let carry: Buffer | undefined;
  for await (const chunk of reader.chunks) {
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, pos);
      if (nl < 0) break;
      if (carry !== undefined) {
        const line = Buffer.concat([carry, chunk.subarray(pos, Math.min(nl, pos + MAX_LINE_BYTES))]);
        carry = undefined;
        onLine(line, 0, line.length);
      } else {
        onLine(chunk, pos, Math.min(nl, pos + MAX_LINE_BYTES));
      }
      pos = nl + 1;
    }
    if (pos < chunk.length) {
      const rest = chunk.subarray(pos, Math.min(chunk.length, pos + MAX_LINE_BYTES));
      carry = carry === undefined ? Buffer.from(rest) : Buffer.concat([carry, rest]).subarray(0, MAX_LINE_BYTES);
    }
  }
  if (carry !== undefined && carry.length > 0) onLine(carry, 0, carry.length);
  if (opts.assumeFailure === true && steps.length === 0 && !step.hasError && step.title === 'Set up job') {
    step.title = 'Log';
    step.hasError = true;
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
      if (i++ >= keepFrom) kept.push({ line, text });
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
    hits: [...b.hits.values()],
  };
  if (b.startedAt !== undefined) step.startedAt = b.startedAt;
  const last = b.lastStamp;
  if (last !== undefined) step.completedAt = last.buf.toString('latin1', last.start, last.start + last.length).trimEnd();
  if (b.exitCode !== undefined) step.exitCode = b.exitCode;
  if (kept.length > 0) step.tail = kept;
  return step;
}
