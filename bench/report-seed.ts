/**
 * Inserts a synthetic CI-Repair-Bench dataset (src/scoring/synthetic) into a migrated database: instances,
 * runs and submissions with every state and verdict. Shared by bench/report-db.ts and the report tests.
 */
import type pg from 'pg';
import type { CiInstance, CiRunInput } from '../src/scoring/index.js';

const EPOCH = Date.UTC(2026, 0, 1);

/** A UUID that sorts like (run, index), so ties on createdAt order like the input array. */
const orderedId = (run: number, index: number): string =>
  `00000000-${String(run).padStart(4, '0')}-4000-8000-${String(index).padStart(12, '0')}`;

const runUuid = (run: number): string => `10000000-0000-4000-8000-${String(run).padStart(12, '0')}`;

/** Inserts the dataset; returns the runs as stored (database ids, createdAt as dates), ready for buildCiRepairReport. */
export async function seedCiDataset(pool: pg.Pool, data: { instances: readonly CiInstance[]; runs: readonly CiRunInput[] }): Promise<CiRunInput[]> {
  const { instances, runs } = data;
  await pool.query(
    `INSERT INTO "Instance" ("id", "repoOwner", "repoName", "workflowPath", "workflow", "shaFail", "diff", "labels", "rawLabels", "protectedPaths", "basePassingTests", "health", "lifecycle", "lifecycleReason", "contentHash", "updatedAt")
     SELECT i.id, split_part(i.repo, '/', 1), split_part(i.repo, '/', 2), '.github/workflows/ci.yml', 'on: push', repeat('a', 40), '',
            ARRAY(SELECT json_array_elements_text(i.labels::json)), '{}', '{}', '{}', i.health, COALESCE(i.lifecycle, 'active'), i."lifecycleReason", 'x', now()
     FROM json_to_recordset($1::json) AS i(id text, repo text, labels text, health text, lifecycle text, "lifecycleReason" text)`,
    [JSON.stringify(instances.map((instance) => ({ id: instance.id, repo: instance.repo, labels: JSON.stringify(instance.labels), health: instance.health, lifecycle: instance.lifecycle ?? 'active', lifecycleReason: instance.lifecycleReason ?? null })))],
  );
  const stored: CiRunInput[] = [];
  for (const [r, run] of runs.entries()) {
    const id = runUuid(r);
    await pool.query(`INSERT INTO "Run" ("id", "label") VALUES ($1, $2)`, [id, run.label]);
    const rows = run.submissions.map((submission, index) => ({
      id: orderedId(r, index),
      instanceId: submission.instanceId,
      state: submission.state,
      verdict: submission.verdict,
      reason: submission.reason ?? null,
      observed: JSON.stringify(submission.observedLabels),
      createdAt: new Date(EPOCH + Number(submission.createdAt)).toISOString(),
    }));
    for (let start = 0; start < rows.length; start += 5000) {
      await pool.query(
        `INSERT INTO "Submission" ("id", "runId", "instanceId", "kind", "patch", "patchSha256", "state", "verdict", "reason", "observedLabels", "revertedFiles", "createdAt", "updatedAt")
         SELECT s.id::uuid, $2::uuid, s."instanceId", 'candidate', '', 'x', s.state, s.verdict, s.reason,
                ARRAY(SELECT json_array_elements_text(s.observed::json)), '{}', s."createdAt"::timestamptz, now()
         FROM json_to_recordset($1::json) AS s(id text, "instanceId" text, state text, verdict text, reason text, observed text, "createdAt" text)`,
        [JSON.stringify(rows.slice(start, start + 5000)), id],
      );
    }
    stored.push({
      id,
      label: run.label,
      submissions: run.submissions.map((submission) => ({ ...submission, createdAt: new Date(EPOCH + Number(submission.createdAt)) })),
    });
  }
  return stored;
}
