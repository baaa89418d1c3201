import { defineConfig } from 'vitest/config';

/**
 * Two groups, run one after the other:
 * - `suite`: everything but the fault campaigns, two files at a time;
 * - `faults` (test/faults/): campaigns that SIGKILL workers, stop Redis or Postgres and wait for 3-second leases and
 *   1.5-second queue locks to expire. They run last and one file at a time, so a busy neighbour on a 2-core machine
 *   cannot starve a worker's lock renewals and turn a timing margin into a false failure.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/faults/**'], maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'faults', include: ['test/faults/**/*.test.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
