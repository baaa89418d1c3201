/**
 * Times the pure part of a CI-Repair-Bench report: 10,000 submissions over 567 instances (published
 * per-type occurrences, all 12 types, every submission state and verdict), computed and rendered in
 * every format and view. Run: `npx tsx bench/report.ts [runs] [iterations]`.
 * The database-backed timing (seed Postgres, load + compute + render) is bench/report-db.ts.
 */
import { performance } from 'node:perf_hooks';
import { buildCiRepairReport, renderReport, type ReportFormat, type ReportView } from '../src/scoring/index.js';
import { syntheticCiDataset } from '../src/scoring/synthetic/ci-dataset.js';

const runCount = Number(process.argv[2] ?? 1);
const iterations = Number(process.argv[3] ?? 20);
const { instances, runs } = syntheticCiDataset({ seed: 20261129, instances: 567, submissions: 10_000, runs: runCount });

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function time(label: string, action: () => unknown): void {
  action();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = performance.now();
    action();
    samples.push(performance.now() - start);
  }
  console.log(`${label.padEnd(34)} median ${median(samples).toFixed(2).padStart(8)} ms   max ${Math.max(...samples).toFixed(2).padStart(8)} ms`);
}

console.log(`${instances.length} instances, ${runs.reduce((n, run) => n + run.submissions.length, 0)} submissions, ${runs.length} run(s), ${iterations} iterations`);
const report = buildCiRepairReport(instances, runs);
console.log(`labels in scope ${report.labels}; strict success rate of ${report.runs[0]?.label}: ${report.runs[0]?.successRateStrict.percent?.toFixed(1)}%`);
time('compute report', () => buildCiRepairReport(instances, runs));
const formats: ReportFormat[] = ['table', 'markdown', 'csv', 'json'];
const views: ReportView[] = ['summary', 'type', 'repo', 'instance', 'observed'];
for (const format of formats) {
  for (const by of views) time(`render ${format} by ${by}`, () => renderReport(report, format, { by }));
}
time('compute + render all views/formats', () => {
  const fresh = buildCiRepairReport(instances, runs);
  for (const format of formats) for (const by of views) renderReport(fresh, format, { by });
});
