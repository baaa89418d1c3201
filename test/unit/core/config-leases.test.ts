import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('lease and fault-injection settings', () => {
  it('defaults: 60 s leases, 3 resumes, no fault injection', () => {
    expect(loadConfig({}).worker).toMatchObject({ leaseSeconds: 60, maxResumes: 3, faultPauseAt: undefined });
    expect(loadConfig({ LEASE_SECONDS: '5', LEASE_MAX_RESUMES: '0' }).worker).toMatchObject({ leaseSeconds: 5, maxResumes: 0 });
  });

  it('refuses leases under 2 s and an unknown fault step', () => {
    expect(() => loadConfig({ LEASE_SECONDS: '1' })).toThrow(/LEASE_SECONDS/);
    expect(() => loadConfig({ NODE_ENV: 'test', FAULT_PAUSE_AT: 'somewhere' })).toThrow(/FAULT_PAUSE_AT/);
  });

  it('allows FAULT_PAUSE_AT only with NODE_ENV=test (a production worker never stops on purpose)', () => {
    expect(loadConfig({ NODE_ENV: 'test', FAULT_PAUSE_AT: 'after-push' }).worker.faultPauseAt).toBe('after-push');
    expect(() => loadConfig({ NODE_ENV: 'production', FAULT_PAUSE_AT: 'after-push' })).toThrow(/FAULT_PAUSE_AT: is a fault-injection setting for tests: only allowed with NODE_ENV=test/);
    expect(() => loadConfig({ FAULT_PAUSE_AT: 'running' })).toThrow(/FAULT_PAUSE_AT/);
  });
});
