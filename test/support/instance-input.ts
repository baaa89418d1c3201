import type { InstanceInput } from '../../src/db/index.js';

/** A minimal instance row for tests that write submissions, runs and jobs straight to the database. */
export const instanceInput = (id: string, over: Partial<InstanceInput> = {}): InstanceInput => ({
  id, dataset: 'ci-repair-bench', language: 'Python', repoOwner: 'acme', repoName: 'calc', sourceRepoOwner: null, upstreamUrl: null, headBranch: null,
  workflowName: null, workflowFilename: null, workflowPath: '.github/workflows/ci.yml', workflow: 'on: push\n', shaFail: 'a'.repeat(40), shaSuccess: null, diff: '',
  changedFiles: [], commitDate: null, logs: [], labels: [], rawLabels: [], protectedPaths: [], oracleSha: null, subtasks: null, basePassingTests: [],
  pythonVersion: null, installCommand: null, contentHash: id, metadata: {},
  ...over,
});
