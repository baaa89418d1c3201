import { describe, expect, it } from 'vitest';
import { checkPredictions, parsePredictionsText } from '../../../src/cli/predictions.js';
import { batchKey } from '../../../src/cli/submit-command.js';
import { createStyle } from '../../../src/cli/style.js';
import { progressFrame, summarizeProgress } from '../../../src/cli/watch-display.js';
import type { DashboardRunRow } from '../../../src/db/index.js';

const PATCH = ['diff --git a/x.py b/x.py', '--- a/x.py', '+++ b/x.py', '@@ -1 +1 @@', '-a = 1', '+a = 2', ''].join('\n');

describe('predictions', () => {
  it('reads JSON Lines, a JSON array and the object keyed by instance id alike', () => {
    const row = { instance_id: 'i-1', model_patch: PATCH, model_name_or_path: 'agent' };
    const jsonl = parsePredictionsText(`${JSON.stringify(row)}\n\n${JSON.stringify({ ...row, instance_id: 'i-2' })}\n`);
    expect(jsonl.format).toBe('jsonl');
    expect(jsonl.predictions.map((p) => [p.instanceId, p.source, p.model])).toEqual([['i-1', 'line 1', 'agent'], ['i-2', 'line 3', 'agent']]);
    const array = parsePredictionsText(JSON.stringify([row, { model_patch: PATCH }], null, 2));
    expect(array.format).toBe('json');
    expect(array.predictions.map((p) => p.source)).toEqual(['entry 1']);
    expect(array.problems).toEqual([{ source: 'entry 2', instanceId: null, code: 'missing_instance_id', message: 'no "instance_id"' }]);
    const keyed = parsePredictionsText(JSON.stringify({ 'i-9': { model_patch: PATCH } }, null, 2));
    expect(keyed.predictions.map((p) => [p.instanceId, p.source])).toEqual([['i-9', 'key "i-9"']]);
    expect(() => parsePredictionsText('[{"instance_id": ')).toThrow(/not a valid JSON array/);
  });

  it('lists every problem in input order and keeps the valid predictions', async () => {
    const parsed = parsePredictionsText(
      [
        JSON.stringify({ instance_id: 'known', model_patch: PATCH }),
        'nope',
        JSON.stringify({ instance_id: 'unknown', model_patch: PATCH }),
        JSON.stringify({ instance_id: 'known', model_patch: PATCH }),
        JSON.stringify({ instance_id: 'other', model_patch: null }),
        JSON.stringify({ instance_id: 'big', model_patch: PATCH.replace('+a = 2', `+a = '${'x'.repeat(300)}'`) }),
      ].join('\n'),
    );
    const { valid, problems } = await checkPredictions(parsed, { patchMaxBytes: 200, instanceExists: async (id) => id !== 'unknown' });
    expect(valid.map((p) => p.instanceId)).toEqual(['known']);
    expect(problems.map((p) => [p.source, p.code])).toEqual([
      ['line 2', 'invalid_json'],
      ['line 3', 'unknown_instance'],
      ['line 4', 'duplicate_instance'],
      ['line 5', 'empty_patch'],
      ['line 6', 'patch_too_large'],
    ]);
  });

  it('derives one Idempotency-Key per input, run, batching and batch index', () => {
    const key = batchKey('a'.repeat(64), 'run', { batchSize: 100, skipInvalid: false }, 0);
    expect(key).toBe(batchKey('a'.repeat(64), 'run', { batchSize: 100, skipInvalid: false }, 0));
    expect(new Set([key, batchKey('a'.repeat(64), 'run', { batchSize: 100, skipInvalid: false }, 1), batchKey('b'.repeat(64), 'run', { batchSize: 100, skipInvalid: false }, 0), batchKey('a'.repeat(64), 'run', { batchSize: 50, skipInvalid: false }, 0)]).size).toBe(4);
    expect(key.length).toBeLessThanOrEqual(200);
  });
});

describe('watch display', () => {
  const now = new Date('2026-12-01T12:00:00Z');
  const row = (n: number, state: string, outcome: string | null, minutesAgo: number | null): DashboardRunRow => ({
    submissionId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    instanceId: `i-${n}`,
    repo: 'o/r',
    labels: [],
    state,
    verdict: null,
    outcome,
    reason: outcome === 'failed' ? 'ci_failed' : null,
    observedLabels: outcome === 'failed' ? ['Code Linting'] : [],
    createdAt: new Date(now.getTime() - 30 * 60_000),
    completedAt: minutesAgo === null ? null : new Date(now.getTime() - minutesAgo * 60_000),
  });

  it('counts, rates over the last 15 minutes, and estimates the time left at that rate', () => {
    const rows = [row(1, 'completed', 'passed', 20), row(2, 'completed', 'failed', 10), row(3, 'infra_error', 'infra_error', 5), row(4, 'running', null, null), row(5, 'queued', null, null), row(6, 'queued', null, null)];
    const progress = summarizeProgress(rows, now);
    expect(progress).toMatchObject({ total: 6, finished: 3, completed: 2, byState: { completed: 2, infra_error: 1, running: 1, queued: 2 }, byOutcome: { passed: 1, failed: 1, infra_error: 1 } });
    // 2 finished in the last 15 minutes: 2/15 per minute; 3 left → 22.5 minutes.
    expect(progress.perMinute).toBeCloseTo(2 / 15);
    expect(progress.etaSeconds).toBe(1350);
    expect(progress.latestFailures.map((f) => [f.instanceId, f.outcome, f.errorTypes])).toEqual([['i-3', 'infra_error', []], ['i-2', 'failed', ['Code Linting']]]);
    const plain = progressFrame({ id: 'run-id', label: 'camp' }, progress, createStyle(false));
    expect(plain.join('\n')).not.toContain('\u001b[');
    expect(plain[1]).toBe(`[${'#'.repeat(15)}${'.'.repeat(15)}] 3/6 finished (50%)`);
    expect(plain).toContain('0.1/min, ETA 22m30s');
    expect(progressFrame({ id: 'run-id', label: 'camp' }, progress, createStyle(true)).join('\n')).toContain('\u001b[32m');
    expect(summarizeProgress([row(1, 'queued', null, null)], now)).toMatchObject({ perMinute: null, etaSeconds: null });
  });
});
