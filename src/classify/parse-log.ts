import { detach } from './detach.js';
import { CLEANUP_TITLES, SETUP_TITLE, clearAnnotatedSteps, inferFailingStep } from './failing-steps.js';
import { mapSteps } from './map-steps.js';
import { ghColumns, skipBom, stampLength } from './line-prefix.js';
import { dedentLines, unquoteLines } from './quoted-output.js';
import { toolLine } from './tool-line.js';
import { normalizeLine } from './normalize-line.js';
import { readChunks } from './read-chunks.js';
import type { Rule } from './rules/rule.js';
import { detectTools } from './rules/signatures.js';
import { stripTaskPrefixes } from './task-prefix.js';
import { LIMITS, LineRing, applyRules, compileRules, feedPending, newStep, newTail, type StepBuilder } from './scanner.js';
import type { LogInput, LogLine, ParsedLog, ParsedStep, StepInput } from './types.js';

export interface ParseLogOptions {
  steps?: StepInput[];
  /** Rules run on the output of every step that printed `##[error]` (the classifier passes its table). */
  rules?: readonly Rule[];
  /** Keep this many last output lines (normalized) of every step that printed `##[error]`, for log segments. */
  keepTailLines?: number;
  /**
   * The job failed: when the log has no step markers and no `##[error]` line at all (tool output pasted as it is),
   * read it as one failing step; when it has markers but ends before any step said it failed (a quote cut inside
   * the failing step), read its last step.
   */
  assumeFailure?: boolean;
}

const EXIT_CODE = /^Process completed with exit code (\d+)\./;
const NL = 10;
const CR = 13;
const HASH = 35;
const BRACKET = 91;
const MAX_LINE_BYTES = 64 * 1024;
const POST = 'Post job cleanup.';
const CLEANING = 'Cleaning up orphan processes';

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
  let ghSeen = false;
  let rawSeen = false;
  /** A `##[group]` or `##[error]` marker was read: the log has structure, its failing steps can be read. */
  let structured = false;
  const speculate = opts.assumeFailure === true;
  let lineNo = 0;
  const tail = newTail();
  let step = newStep(SETUP_TITLE, 1, tail);

  /** `run:` steps (their header names a `shell:`): one that fails ends with `Process completed with exit code N.` */
  const shellSteps = new Set<ParsedStep>();
  const finish = (last = false): void => {
    if (step.lineCount === 0) return;
    // A failed job's structured log that ends before any step said it failed was cut inside the failing step; not
    // when it ends in the job's set-up (judge-job reads that as the runner's failure) or its clean-up.
    const cut =
      last && structured && !step.hasError && step.title !== SETUP_TITLE && !CLEANUP_TITLES.has(step.title) && !steps.some((x) => x.failed);
    const done = finishStep(step, steps.length, rules, opts.keepTailLines ?? 0, speculate && (!structured || cut));
    if (step.commandClosed) shellSteps.add(done);
    steps.push(done);
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
    // GitHub's raw lines start with the timestamp (the common case, decided on the first bytes); `gh run view`
    // lines with their columns; anything else may carry a byte-order mark.
    let off = stampLength(buf, s, e);
    const gh = off > 0 ? undefined : ghColumns(buf, s, e);
    if (gh !== undefined) {
      ghSeen = true;
      // A new job or a new step column starts a new step; the title is the step column.
      const key = buf.toString('utf8', start, gh.b);
      s = gh.t;
      off = stampLength(buf, s, e);
      if (step.ghStep !== key) {
        const title = buf.toString('utf8', gh.a + 1, gh.b);
        if (step.lineCount === 0) {
          step.title = title;
          step.ghStep = key;
        } else {
          startStep(title, '', false, key);
        }
      }
    } else if (off === 0) {
      const bom = skipBom(buf, s, e);
      if (bom !== s) {
        s = bom;
        off = stampLength(buf, s, e);
      }
    }
    const ghLine = gh !== undefined;
    if (off > 0) rawSeen = true;
    const t = s + off;
    if (buf[t] === HASH && buf[t + 1] === HASH && buf[t + 2] === BRACKET) {
      const text = normalizeLine(buf.toString('utf8', t, e)).text;
      if (text.startsWith('##[group]') || text.startsWith('##[error]')) structured = true;
      if (text.startsWith('##[group]Run ')) {
        const command = text.slice(13);
        if (ghLine && step.command === '' && step.lineCount === 0) {
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
        step.tail.push(lineNo, buf, s, e, origin);
      } else if (!step.inHeader) {
        step.tail.push(lineNo, buf, s, e, origin);
      }
    } else if (step.inHeader) {
      const text = normalizeLine(buf.toString('utf8', t, e)).text;
      if (text.startsWith('shell: ')) step.commandClosed = true;
      else if (!step.commandClosed && step.command.length < LIMITS.commandChars) step.command += `\n${text}`;
    } else if (!ghLine && e - t === POST.length && buf.toString('latin1', t, e) === POST) {
      startStep('Post job cleanup', '', false);
    } else if (!ghLine && e - t >= CLEANING.length && buf[t] === 67 && buf.toString('latin1', t, t + CLEANING.length) === CLEANING) {
      startStep('Complete job', '', false);
    } else {
      step.tail.push(lineNo, buf, s, e, origin);
    }
    if (off > 0) {
      if (step.startedAt === undefined) step.startedAt = buf.toString('latin1', s, s + off).trimEnd();
      const stamp = step.lastStamp;
      if (stamp === undefined) {
        step.lastStamp = { buf, start: s, length: off, origin };
      } else {
        stamp.buf = buf;
        stamp.start = s;
        stamp.length = off;
        stamp.origin = origin;
      }
    }
    step.endLine = lineNo;
    step.lineCount++;
  };

  // Chunks read so far that a kept line or the step's last timestamp still points into; `origin` numbers the chunk
  // being split. A line joined across chunks is a copy: it counts as the current chunk's.
  let origin = 0;
  const held: { origin: number; chunk: Buffer }[] = [];
  let carry: Buffer | undefined;
  for await (const chunk of reader.chunks) {
    origin++;
    held.push({ origin, chunk });
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
    // A chunk no kept line and not the step's last timestamp points into is the source's to reuse.
    // Both lists ascend by origin: one merged walk.
    const pinned = tail.pinnedOrigins();
    const stamp = step.lastStamp?.origin;
    let p = 0;
    let kept = 0;
    for (const h of held) {
      while (p < pinned.length && (pinned[p] as number) < h.origin) p++;
      if (h.origin === stamp || pinned[p] === h.origin) held[kept++] = h;
      else reader.release(h.chunk);
    }
    held.length = kept;
  }
  if (carry !== undefined && carry.length > 0) onLine(carry, 0, carry.length);
  finish(true);
  clearAnnotatedSteps(steps, shellSteps);
  if (opts.assumeFailure === true && !steps.some((x) => x.failed)) inferFailingStep(steps);
  mapSteps(steps, opts.steps);
  return {
    layout: ghSeen ? 'gh-run-view' : rawSeen ? 'raw' : 'plain',
    encoding: reader.encoding(),
    lineCount: lineNo,
    steps,
    errorLines,
    failedSteps: steps.filter((x) => x.failed),
  };
}

/** Ends a step: runs the rules over the kept output of a step that printed `##[error]`. */
function finishStep(b: StepBuilder, index: number, rules: readonly Rule[], keepTailLines: number, speculative: boolean): ParsedStep {
  const kept: LogLine[] = [];
  const read = b.hasError || speculative;
  if (read && (rules.length > 0 || keepTailLines > 0)) {
    // The tail is bounded (LIMITS.tailLines, LIMITS.tailBytes): decoded once, read twice.
    const lines: LogLine[] = [];
    for (const [line, raw] of b.tail.entries()) lines.push({ line, text: normalizeLine(raw).text });
    const keepFrom = lines.length - keepTailLines;
    for (let i = Math.max(0, keepFrom); i < lines.length; i++) kept.push(lines[i] as LogLine);
    if (rules.length > 0) {
      // Rules read each tool's own line (tool-line.ts), behind a Markdown quote and a monorepo runner's package
      // prefix, and output quoted with an indent on every line without it.
      const toolLines = dedentLines(stripTaskPrefixes(unquoteLines(lines).map(({ line, text }) => ({ line, text: toolLine(text) }))));
      // Wrappers (make, tox, nox, scripts) hide the tool: its output names it.
      const compiled = compileRules(rules, `${b.command}\n${detectTools(toolLines)}`);
      const ring = new LineRing();
      for (const { line, text } of toolLines) {
        feedPending(b, line, text);
        applyRules(b, compiled, line, text, ring);
        ring.push(line, text);
      }
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
  if (speculative && !b.hasError) step.speculative = true;
  if (b.startedAt !== undefined) step.startedAt = b.startedAt;
  const last = b.lastStamp;
  if (last !== undefined) step.completedAt = last.buf.toString('latin1', last.start, last.start + last.length).trimEnd();
  if (b.exitCode !== undefined) step.exitCode = b.exitCode;
  if (kept.length > 0) step.tail = kept;
  return step;
}
