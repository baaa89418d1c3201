/**
 * The most jobs of one run that GitHub can have queued or running at once, `needs:` respected: the largest set of
 * jobs none of which (transitively) needs another, each weighing its matrix legs. A job is queued only once every job
 * it needs has completed, so at any moment the run's queued and running jobs form such a set: reserving this many
 * slots, and handing a completed job's slot to the jobs that still wait (release only below `total - completed`),
 * never lets the run exceed what it holds. `lint → test (3 legs) → build` holds 3 slots instead of 5.
 */
export interface JobNode {
  id: string;
  /** Jobs it starts (matrix legs). */
  legs: number;
  needs: string[];
}

/** Above this many jobs the exact search is skipped and every job counts (safe, the pre-`needs` reservation). */
const MAX_EXACT = 16;

export function concurrentWidth(nodes: readonly JobNode[]): number {
  const total = nodes.reduce((sum, node) => sum + node.legs, 0);
  if (nodes.length === 0) return 0;
  if (nodes.length > MAX_EXACT) return total;
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  // before[i]: bit set of jobs i needs, transitively.
  const before = nodes.map(() => 0);
  const visit = (i: number, seen: Set<number>): number => {
    if (seen.has(i)) return before[i] ?? 0;
    seen.add(i);
    let mask = 0;
    for (const need of nodes[i]?.needs ?? []) {
      const j = index.get(need);
      if (j === undefined || j === i) continue;
      mask |= (1 << j) | visit(j, seen);
    }
    before[i] = mask;
    return mask;
  };
  for (let i = 0; i < nodes.length; i += 1) visit(i, new Set());
  let best = 0;
  for (let set = 1; set < 1 << nodes.length; set += 1) {
    let weight = 0;
    let independent = true;
    for (let i = 0; i < nodes.length && independent; i += 1) {
      if ((set & (1 << i)) === 0) continue;
      if (((before[i] ?? 0) & set) !== 0) independent = false;
      weight += nodes[i]?.legs ?? 0;
    }
    if (independent && weight > best) best = weight;
  }
  return Math.max(1, Math.min(total, best));
}
