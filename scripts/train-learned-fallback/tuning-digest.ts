import { createHash } from 'node:crypto';

/**
 * What the learned fallback was trained on: a digest of the failing tuning logs' files and labels, in file order.
 * A model trained on other logs (the corpus grew, a label changed, or an evaluation log slipped in) has another.
 */
export function tuningDigest(entries: readonly { file: string; labels: readonly string[] }[]): string {
  const lines = entries.map((e) => `${e.file}\t${[...e.labels].sort().join(',')}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
