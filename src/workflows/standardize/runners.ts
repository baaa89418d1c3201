/** Replaces retired GitHub-hosted runner images, on which jobs would wait forever. */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { keyOf, mapAt, pairsOf, walkStrings } from '../nodes.js';

/** Retired image → the closest image still offered (older Pythons stay available on ubuntu-22.04). */
export const RETIRED_RUNNERS: Readonly<Record<string, string>> = {
  'ubuntu-16.04': 'ubuntu-22.04',
  'ubuntu-18.04': 'ubuntu-22.04',
  'ubuntu-20.04': 'ubuntu-22.04',
  'macos-10.15': 'macos-latest',
  'macos-11': 'macos-latest',
  'macos-12': 'macos-latest',
  'macos-13': 'macos-latest',
  'windows-2016': 'windows-latest',
  'windows-2019': 'windows-latest',
};

export function replaceRetiredRunners(jobs: YAMLMap): ReportEntry[] {
  const report: ReportEntry[] = [];
  for (const pair of pairsOf(jobs)) {
    if (!isMap(pair.value)) continue;
    const job: YAMLMap = pair.value;
    const jobId = keyOf(pair);
    const places: Array<[unknown, string]> = [[job.get('runs-on', true), `jobs.${jobId}.runs-on`]];
    const matrix = mapAt(mapAt(job, 'strategy'), 'matrix');
    if (matrix !== undefined) places.push([matrix, `jobs.${jobId}.strategy.matrix`]);
    for (const [node, path] of places) {
      if (!isScalar(node) && !isSeq(node) && !isMap(node)) continue;
      walkStrings(node, path, ({ scalar, path: where }) => {
        const replacement = RETIRED_RUNNERS[String(scalar.value)];
        if (replacement === undefined) return;
        report.push({ action: 'rewrote-runner', target: where, reason: `${String(scalar.value)} is retired; replaced by ${replacement}` });
        scalar.value = replacement;
      });
    }
  }
  return report;
}
