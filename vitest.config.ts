import { defineConfig } from 'vitest/config';

/**
 * `npm test` (scripts/test-lanes.mjs) runs `--project faults` at normal priority beside `--project suite` under
 * `nice -n 10`, then `--project e2e` alone (1,340 s for the whole suite here, against 1,565 s one after the other).
 * `npx vitest run` alone runs everything in two groups, one after the other:
 * - first `e2e` and `suite`, two files at a time in all (one group: same maxWorkers and groupOrder). Vitest orders a
 *   group's files project by project, so the e2e files run first, beside each other, then the rest:
 *   - `suite` (test/unit/, test/integration/) in long-lived processes (`isolate: false`): the service's modules are
 *     loaded once per process instead of once per file (the unit tests: 90 s → 65 s here); every file there builds
 *     its own dependencies (schema, queue prefix, folders) and restores what it changes;
 *   - `e2e` (test/e2e/), each file in a fresh process, as these files start servers, workers and whole campaigns;
 * - then `faults` (test/faults/): campaigns that SIGKILL workers, stop Redis or Postgres and wait for 3-second leases and
 *   1.5-second queue locks to expire. They run one file at a time, and never beside CPU-bound files at the same
 *   priority, so a busy neighbour on a 2-core machine cannot starve a worker's lock renewals and turn a timing margin
 *   into a false failure.
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
        // Three minutes by default, not one: under `nice` beside the fault campaigns (npm test) tests run 2-5x slower
        // than alone (one that classifies a log through the CLI 5 times: 43 s, 1.5 s per call when idle), and CI
        // machines vary about 2x more. A timeout here catches a hang; it says nothing of speed (bench/ does).
        test: { name: 'suite', include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'], maxWorkers: 2, isolate: false, sequence: { groupOrder: 0 }, testTimeout: 180_000, hookTimeout: 180_000 },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'faults', include: ['test/faults/**/*.test.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
