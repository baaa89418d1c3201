import { describe, expect, it } from 'vitest';
import { nextOutage, outageDelay, pastDeadline } from '../../../src/queue/outage.js';

describe('database outage bookkeeping of a queue job', () => {
  const policy = { deadlineMs: 600_000, baseDelayMs: 20, maxDelayMs: 50 };

  it('counts tries of one outage even when the job comes back late (a loaded machine)', () => {
    let state = nextOutage(undefined, 1_000, policy);
    state = nextOutage(state, 1_500, policy);
    state = nextOutage(state, 30_000, policy);
    expect(state).toEqual({ since: 1_000, last: 30_000, tries: 3, gaveUp: false });
    expect(outageDelay(state, policy)).toBe(50);
  });

  it('starts a new outage after a minute and four maximal waits without one', () => {
    const first = nextOutage(nextOutage(undefined, 0, policy), 100, policy);
    expect(nextOutage(first, 100 + 60_001, policy)).toEqual({ since: 60_101, last: 60_101, tries: 1, gaveUp: false });
    const slow = { deadlineMs: 600_000, maxDelayMs: 30_000 };
    expect(nextOutage(nextOutage(undefined, 0, slow), 110_000, slow).tries).toBe(2);
    expect(nextOutage(nextOutage(undefined, 0, slow), 120_001, slow).tries).toBe(1);
  });

  it('is past the deadline from the outage start, not from the last try', () => {
    const state = nextOutage(nextOutage(undefined, 0, policy), 50_000, policy);
    expect(pastDeadline(state, 599_999, policy)).toBe(false);
    expect(pastDeadline(state, 600_000, policy)).toBe(true);
  });
});
