import type { ParsedStep, StepInput } from './types.js';

const sameName = (block: ParsedStep, step: StepInput): boolean =>
  step.name === block.title || step.name === `Run ${block.command.split('\n')[0] ?? ''}`;

const seconds = (iso: string | null | undefined): number | undefined => {
  if (iso === undefined || iso === null) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
};

/**
 * Maps parsed blocks onto the job's steps (in place): by order when the counts agree, else by name in order,
 * else by timestamps. A mapped block's `failed` follows the step's conclusion.
 */
export function mapSteps(blocks: ParsedStep[], steps: StepInput[] | undefined): void {
  if (steps === undefined || steps.length === 0) return;
  const ran = steps.filter((s) => s.conclusion !== 'skipped').sort((a, b) => a.number - b.number);
  const assign = (block: ParsedStep, step: StepInput): void => {
    block.stepNumber = step.number;
    block.stepName = step.name;
    block.failed = step.conclusion === 'failure' || step.conclusion === 'timed_out' || step.conclusion === 'cancelled';
  };
  if (ran.length === blocks.length) {
    blocks.forEach((block, i) => assign(block, ran[i] as StepInput));
    return;
  }
  let cursor = 0;
  const taken = new Set<number>();
  for (const block of blocks) {
    const at = ran.findIndex((step, i) => i >= cursor && sameName(block, step));
    if (at < 0) continue;
    assign(block, ran[at] as StepInput);
    taken.add(at);
    cursor = at + 1;
  }
  for (const block of blocks) {
    if (block.stepNumber !== undefined) continue;
    const t = seconds(block.startedAt);
    if (t === undefined) continue;
    const at = ran.findIndex((step, i) => {
      if (taken.has(i)) return false;
      const from = seconds(step.startedAt);
      const to = seconds(step.completedAt);
      return from !== undefined && to !== undefined && t >= from && t <= to;
    });
    if (at < 0) continue;
    assign(block, ran[at] as StepInput);
    taken.add(at);
  }
}
