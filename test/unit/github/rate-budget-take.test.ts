import { describe, expect, it } from 'vitest';
import { createMemoryRateBudget } from '../../../src/github/index.js';

describe('counted-ahead budget (in process)', () => {
  it('reserves within the REST and write windows; a write counts against both, a read only against REST', async () => {
    // maxWaitMs 0: a full window answers the wait instead of sleeping.
    const budget = createMemoryRateBudget({ maxWaitMs: 0, windows: { restMs: 60_000, writeMs: 60_000, slackMs: 0 } });
    const limits = { restPerHour: 4, writesPerMinute: 2 };
    expect(await budget.take('installation-1', { write: true }, limits)).toBe(0);
    expect(await budget.take('installation-1', { write: true }, limits)).toBe(0);
    expect(await budget.take('installation-1', { write: true }, limits)).toBeGreaterThan(59_000);
    expect(await budget.take('installation-1', { write: false }, limits)).toBe(0);
    expect(await budget.take('installation-1', { write: false }, limits)).toBe(0);
    expect(await budget.take('installation-1', { write: false }, limits)).toBeGreaterThan(59_000);
    // Keys are independent, and no limits means nothing is counted.
    expect(await budget.take('installation-2', { write: true }, limits)).toBe(0);
    expect(await budget.take('installation-1', { write: true }, {})).toBe(0);
  });
});
