import type { Repositories } from '../db/index.js';
import { INSTANCE_HEALTH, INSTANCE_LIFECYCLE } from '../domain/states.js';

/** The benchmark's health (`ci-replay health`, `GET /v1/health/instances`). */
export interface HealthSummary {
  total: number;
  byHealth: Record<string, number>;
  byLifecycle: Record<string, number>;
  /** What changed since the last cycle (REVALIDATE_INTERVAL_HOURS ago, 24 h when the schedule is off). */
  since: string;
  changes: {
    verdicts: { instanceId: string; previous: string | null; result: string; revalidationId: string; at: string }[];
    transitions: { instanceId: string; from: string; to: string; reason: string; actor: string; at: string }[];
  };
  /** Instances out of the default scope of reports, with why. */
  nonActive: { instanceId: string; lifecycle: string; health: string; reason: string | null; since: string | null }[];
  flakinessByRepo: { repo: string; instances: number; checked: number; flaky: number; flakyShareMean: number | null }[];
  oldestCheck: { instanceId: string | null; checkedAt: string | null; neverChecked: number };
}

const LIMIT = 200;
const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

export async function healthSummary(repos: Pick<Repositories, 'instanceHealth'>, options: { cycleHours: number; now?: Date }): Promise<HealthSummary> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - (options.cycleHours > 0 ? options.cycleHours : 24) * 3_600_000);
  const [byHealthRaw, byLifecycleRaw, verdicts, transitions, nonActive, flakiness, oldest] = await Promise.all([
    repos.instanceHealth.countsBy('health'),
    repos.instanceHealth.countsBy('lifecycle'),
    repos.instanceHealth.verdictChangesSince(since, LIMIT),
    repos.instanceHealth.transitionsSince(since, LIMIT),
    repos.instanceHealth.nonActive(LIMIT),
    repos.instanceHealth.flakinessByRepo(),
    repos.instanceHealth.oldestCheck(),
  ]);
  const zeroes = (keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, 0]));
  const byHealth = { ...zeroes(INSTANCE_HEALTH), ...byHealthRaw };
  const byLifecycle = { ...zeroes(INSTANCE_LIFECYCLE), ...byLifecycleRaw };
  return {
    total: Object.values(byLifecycle).reduce((sum, count) => sum + count, 0),
    byHealth,
    byLifecycle,
    since: since.toISOString(),
    changes: {
      verdicts: verdicts.map((row) => ({ instanceId: row.instanceId, previous: row.previous, result: row.result, revalidationId: row.revalidationId, at: row.completedAt.toISOString() })),
      transitions: transitions.map((row) => ({ instanceId: row.instanceId, from: row.fromStatus, to: row.toStatus, reason: row.reason, actor: row.actor, at: row.createdAt.toISOString() })),
    },
    nonActive: nonActive.map((row) => ({ instanceId: row.id, lifecycle: row.lifecycle, health: row.health, reason: row.lifecycleReason, since: iso(row.lifecycleChangedAt) })),
    flakinessByRepo: flakiness.map((row) => ({ repo: row.repo, instances: row.instances, checked: row.checked, flaky: row.flaky, flakyShareMean: row.meanShare })),
    oldestCheck: { instanceId: oldest.instance?.id ?? null, checkedAt: iso(oldest.instance?.healthCheckedAt ?? null), neverChecked: oldest.neverChecked },
  };
}

/** The summary as text for the CLI. */
export function renderHealthSummary(summary: HealthSummary): string {
  const lines: string[] = [];
  const counts = (record: Record<string, number>) => Object.entries(record).map(([key, count]) => `${key} ${count}`).join(', ');
  lines.push(`instances: ${summary.total}`);
  lines.push(`lifecycle: ${counts(summary.byLifecycle)}`);
  lines.push(`verdicts:  ${counts(summary.byHealth)}`);
  const oldest = summary.oldestCheck;
  lines.push(`oldest check: ${oldest.instanceId === null ? 'none' : `${oldest.instanceId} (${oldest.checkedAt ?? 'never checked'})`}; never checked: ${oldest.neverChecked}`);
  lines.push('', `changes since ${summary.since}:`);
  if (summary.changes.verdicts.length === 0 && summary.changes.transitions.length === 0) lines.push('  none');
  for (const change of summary.changes.verdicts) lines.push(`  ${change.instanceId}: ${change.previous ?? '(first check)'} → ${change.result}`);
  for (const change of summary.changes.transitions) lines.push(`  ${change.instanceId}: ${change.from} → ${change.to} (${change.actor}: ${change.reason})`);
  if (summary.nonActive.length > 0) {
    lines.push('', 'not active (left out of reports by default):');
    for (const row of summary.nonActive) lines.push(`  ${row.instanceId}: ${row.lifecycle}, ${row.health}${row.reason === null ? '' : ` — ${row.reason}`}`);
  }
  const flaky = summary.flakinessByRepo.filter((row) => row.flaky > 0);
  lines.push('', 'flakiness by repository:');
  if (flaky.length === 0) lines.push('  no flaky instance');
  for (const row of flaky) {
    lines.push(`  ${row.repo}: ${row.flaky} of ${row.instances} flaky${row.flakyShareMean === null ? '' : `, mean share of disagreeing repeats ${(row.flakyShareMean * 100).toFixed(0)}%`}`);
  }
  return `${lines.join('\n')}\n`;
}
