import type { DemoInstance } from './build-demo.js';

/** A finished demo submission, as GET /v1/submissions/:id answers it. */
export interface DemoRow {
  state?: unknown;
  verdict?: unknown;
  observedLabels?: unknown;
}

/**
 * What is wrong with a finished row of `npm run demo`, or null when it is what the example expects: the verdict
 * (`instance.expected`), and for a baseline every error type the instance is labelled with among the observed ones
 * (a baseline that "failed" with Environment Error instead is wrong).
 */
export function unexpectedRow(instance: DemoInstance, kind: 'baseline' | 'candidate', row: DemoRow | undefined): string | null {
  const wanted = instance.expected[kind];
  const got = String(row?.verdict ?? row?.state ?? 'unfinished');
  if (got !== wanted) return `${instance.id} ${kind}: expected ${wanted}, got ${got}`;
  if (kind === 'candidate') return null;
  const observed = Array.isArray(row?.observedLabels) ? row.observedLabels.map(String) : [];
  const absent = instance.expected.errorTypes.filter((type) => !observed.includes(type));
  return absent.length === 0 ? null : `${instance.id} baseline: expected error types ${absent.join(', ')}, observed ${observed.join(', ') || 'none'}`;
}
