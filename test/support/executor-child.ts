/**
 * A stand-in worker process for tests of the step sandbox: runs one workflow with {@link runFixtureWorkflow} in
 * this process, whose environment the test chose (so /proc/<pid>/environ holds it, as a real worker's does), and
 * prints `{ conclusion, logs }` as JSON. Run: `node --import tsx test/support/executor-child.ts '<json input>'`.
 */
import { readFileSync } from 'node:fs';
import type { RunWorkflowOptions } from '../../src/executor/index.js';
import { runFixtureWorkflow } from './executor-fixtures.js';

export interface ExecutorChildInput {
  repo: { root: string; gitDir: string; sha: string };
  workflow: string;
  options: Pick<RunWorkflowOptions, 'sandbox' | 'secretValues' | 'outputCapBytes'>;
}

export interface ExecutorChildOutput {
  conclusion: string;
  logs: Record<string, string>;
}

const input = JSON.parse(process.argv[2] ?? '{}') as ExecutorChildInput;
const run = await runFixtureWorkflow({ ...input.repo, cleanup: () => undefined }, input.workflow, input.options);
const output: ExecutorChildOutput = {
  conclusion: run.result.conclusion,
  logs: Object.fromEntries(run.result.jobs.map((job) => [job.name, job.logPath === null ? '' : readFileSync(job.logPath, 'utf8')])),
};
process.stdout.write(JSON.stringify(output));
