import type { Rule, RuleState } from './rules/rule.js';
import { joinPrefilters, literalsOf } from './prefilter.js';
import { TailBuffer } from './tail-buffer.js';
import type { Evidence, LogLine, RuleHit } from './types.js';

export const LIMITS = {
  /** Rules read the last lines of a failing step: at most this many lines and bytes. */
  tailLines: 10_000,
  tailBytes: 1024 * 1024,
  commandChars: 4000,
  errorLinesPerStep: 50,
  errorLinesTotal: 200,
  evidencePerHit: 10,
  evidenceChars: 2000,
  findingsPerStep: 1000,
  ring: 16,
} as const;

/** A step being read: everything kept is bounded by LIMITS. */
export interface StepBuilder {
  title: string;
  command: string;
  inHeader: boolean;
  commandClosed: boolean;
  lineCount: number;
  ghStep?: string;
  startLine: number;
  endLine: number;
  startedAt?: string;
  /** Where the last timestamp of the step is (decoded when the step ends), and the number of its chunk. */
  lastStamp?: { buf: Buffer; start: number; length: number; origin: number };
  completedAt?: string;
  tail: TailBuffer;
  errorLines: LogLine[];
  exitCode?: number;
  hasError: boolean;
  hits: Map<string, RuleHit>;
  findingCount: number;
  state: RuleState;
  pending: { evidence: Evidence; remaining: number }[];
}

export interface CompiledRules {
  rules: Rule[];
  /** The rules' patterns joined into a few alternations: a line none of them matches is no rule's (empty: no rules). */
  prefilters: RegExp[];
  /** Per rule (same order), literals one of which a line must contain for the rule to match it, if known. */
  gates: (readonly string[] | undefined)[];
  headers: Rule[];
  /** Rules with a `disarmPattern`, tried on every line like headers. */
  disarms: Rule[];
}

export const newTail = (): TailBuffer => new TailBuffer(LIMITS.tailLines, LIMITS.tailBytes);

/** A new step reading into `tail` (one buffer serves the whole log: a step's tail is read when it ends). */
export function newStep(title: string, startLine: number, tail: TailBuffer, command = ''): StepBuilder {
  tail.clear();
  return {
    title,
    command,
    inHeader: false,
    commandClosed: false,
    lineCount: 0,
    startLine,
    endLine: startLine,
    errorLines: [],
    tail,
    hasError: false,
    hits: new Map(),
    findingCount: 0,
    state: {},
    pending: [],
  };
}

/** The rules that apply to a step with this command, and their prefilters. */
export function compileRules(all: readonly Rule[], command: string): CompiledRules {
  const rules = all.filter((rule) => rule.commandPattern === undefined || rule.commandPattern.test(command));
  const sources = rules.map((rule) => (rule.prefilterPattern ?? rule.linePattern).source);
  return {
    rules,
    prefilters: joinPrefilters(new Set(sources)),
    gates: sources.map(literalsOf),
    headers: rules.filter((rule) => rule.headerPattern !== undefined),
    disarms: rules.filter((rule) => rule.disarmPattern !== undefined),
  };
}

/** A ring of the last lines of the current step, for evidence context before a match. */
export class LineRing {
  private readonly lines: (LogLine | undefined)[] = new Array<LogLine | undefined>(LIMITS.ring);
  private next = 0;

  push(line: number, text: string): void {
    this.lines[this.next] = { line, text };
    this.next = (this.next + 1) % LIMITS.ring;
  }

  /** Up to `count` lines before the current one, not earlier than `fromLine`. */
  before(count: number, fromLine: number): LogLine[] {
    const out: LogLine[] = [];
    for (let i = 1; i <= Math.min(count, LIMITS.ring); i++) {
      const entry = this.lines[(this.next - i + LIMITS.ring * 2) % LIMITS.ring];
      if (entry === undefined || entry.line < fromLine) break;
      out.unshift(entry);
    }
    return out;
  }
}

const clip = (text: string): string =>
  text.length <= LIMITS.evidenceChars ? text : `${text.slice(0, LIMITS.evidenceChars - 1)}…`;

/** Appends a following line to evidence still waiting for its `after` context. */
export function feedPending(step: StepBuilder, line: number, text: string): void {
  if (step.pending.length === 0) return;
  for (const item of step.pending) {
    item.evidence.text = clip(`${item.evidence.text}\n${text}`);
    item.evidence.endLine = line;
    item.remaining--;
  }
  step.pending = step.pending.filter((item) => item.remaining > 0);
}

/** Runs the step's rules on one output line; the first matching rule (line, and previous line if it asks) wins. */
export function applyRules(step: StepBuilder, compiled: CompiledRules, line: number, text: string, ring: LineRing): void {
  if (compiled.prefilters.length === 0) return;
  for (const rule of compiled.headers) {
    const h = (rule.headerPattern as RegExp).exec(text);
    if (h === null) continue;
    // The first group that took part names the path, the next one the line (patterns may be alternations).
    const at = h.findIndex((group, i) => i > 0 && group !== undefined);
    const path = at > 0 ? h[at] : undefined;
    if (path === undefined) continue;
    const line = h[at + 1];
    step.state.header = line === undefined ? { path } : { path, line: Number(line) };
  }
  for (const rule of compiled.disarms) {
    if (!(rule.disarmPattern as RegExp).test(text)) continue;
    (step.state.disarmed ??= new Set()).add(rule.id);
  }
  if (!compiled.prefilters.some((prefilter) => prefilter.test(text))) return;
  for (let i = 0; i < compiled.rules.length; i++) {
    const rule = compiled.rules[i] as Rule;
    // A line without any of the rule's literals cannot match it: no need to run (or first compile) its pattern.
    const gate = compiled.gates[i];
    if (gate !== undefined && !gate.some((literal) => text.includes(literal))) continue;
    const m = rule.linePattern.exec(text);
    if (m === null) continue;
    if (step.state.disarmed?.has(rule.id) === true) continue;
    if (rule.previousPattern !== undefined) {
      const prev = ring.before(1, step.startLine)[0];
      const p = prev === undefined || prev.line !== line - 1 ? null : rule.previousPattern.exec(prev.text);
      if (p === null) continue;
      step.state.previous = p;
    }
    recordHit(step, rule, m, line, text, ring);
    if (rule.also !== undefined) recordHit(step, { ...rule, id: `${rule.id}/also`, type: rule.also, findingParser: undefined }, m, line, text, ring);
    return;
  }
}

function recordHit(step: StepBuilder, rule: Rule, m: RegExpExecArray, line: number, text: string, ring: LineRing): void {
  let hit = step.hits.get(rule.id);
  if (hit === undefined) {
    hit = { ruleId: rule.id, type: rule.type, tool: rule.tool, fallback: rule.fallback === true, yieldsTo: rule.yieldsTo ?? [], count: 0, evidence: [], findings: [] };
    step.hits.set(rule.id, hit);
  }
  hit.count++;
  const last = hit.evidence[hit.evidence.length - 1];
  if (last !== undefined && last.endLine >= line - 1) {
    if (last.endLine < line) {
      last.text = clip(`${last.text}\n${text}`);
      last.endLine = line;
    }
  } else if (hit.evidence.length < LIMITS.evidencePerHit) {
    const before = ring.before(rule.context?.before ?? 0, step.startLine);
    const evidence: Evidence = {
      startLine: before[0]?.line ?? line,
      endLine: line,
      text: clip([...before.map((entry) => entry.text), text].join('\n')),
      tool: rule.tool,
      rule: rule.id,
    };
    hit.evidence.push(evidence);
    const after = rule.context?.after ?? 0;
    if (after > 0) step.pending.push({ evidence, remaining: after });
  }
  if (rule.findingParser !== undefined && step.findingCount < LIMITS.findingsPerStep) {
    const finding = rule.findingParser(m, step.state);
    if (finding !== undefined) {
      step.findingCount++;
      hit.findings.push({ ...finding, level: finding.level ?? 'failure', tool: rule.tool, rule: rule.id });
    }
  }
}
