/**
 * Times a CI-Repair-Bench report generated from Postgres: seeds 567 instances and 10,000 submissions (every
 * state and verdict, resubmissions, missing instances) into a scratch schema, then loads + computes + renders.
 * Run: `npx tsx bench/report-db.ts [runs] [iterations]` (DATABASE_URL, default the local test database).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDb, createRepositories, migrate } from '../src/db/index.js';
import { migrationsDir } from '../src/paths.js';
import { loadCiRepairInputs, loadCiRepairReport, runReport } from '../src/reports/index.js';
import { renderReport } from '../src/scoring/index.js';
import { syntheticCiDataset } from '../src/scoring/synthetic/ci-dataset.js';
import { seedCiDataset } from './report-seed.js';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ci_replay_test';
const runCount = Number(process.argv[2] ?? 1);
const iterations = Number(process.argv[3] ?? 20);
const schema = `bench_${randomBytes(4).toString('hex')}`;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function time(label: string, action: () => Promise<unknown>): Promise<void> {
  await action();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = performance.now();
    await action();
    samples.push(performance.now() - start);
  }
  console.log(`${label.padEnd(44)} median ${median(samples).toFixed(2).padStart(8)} ms   max ${Math.max(...samples).toFixed(2).padStart(8)} ms`);
}

const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
const db = createDb({ url, schema });
try {
  await migrate({ pool: db.pool, dir: migrationsDir() });
  const data = syntheticCiDataset({ seed: 20261129, instances: 567, submissions: 10_000, runs: runCount });
  const seedStart = performance.now();
  const runs = await seedCiDataset(db.pool, data);
  console.log(`seeded ${data.instances.length} instances, ${runs.reduce((n, run) => n + run.submissions.length, 0)} submissions in ${runs.length} run(s) in ${(performance.now() - seedStart).toFixed(0)} ms`);
  const deps = { repos: createRepositories(db) };
  const ids = runs.map((run) => run.id);
  const first = await loadCiRepairReport(deps, ids);
  console.log(`labels in scope ${first.labels}; strict success rate of ${first.runs[0]?.label}: ${first.runs[0]?.successRateStrict.percent?.toFixed(1)}%`);
  await time('load inputs (2 queries)', () => loadCiRepairInputs(deps, ids));
  await time('load + compute', () => loadCiRepairReport(deps, ids));
  await time('load + compute + render json', () => runReport(deps, ids, { format: 'json' }));
  await time('load + compute + render markdown by type', () => runReport(deps, ids, { format: 'markdown', by: 'type' }));
  await time('load + compute + render all views/formats', async () => {
    const report = await loadCiRepairReport(deps, ids);
    for (const format of ['table', 'markdown', 'csv', 'json'] as const) {
      for (const by of ['summary', 'type', 'repo', 'instance', 'observed'] as const) renderReport(report, format, { by });
    }
  });
} finally {
  await db.close();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
}
