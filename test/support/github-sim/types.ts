import type { CiConclusion } from '../../../src/domain/ci-events.js';

export type AccountType = 'Organization' | 'User' | 'Bot';

export interface SimAccount {
  login: string;
  id: number;
  type: AccountType;
}

export type Permissions = Record<string, 'read' | 'write' | 'admin'>;

export interface SimInstallation {
  id: number;
  account: SimAccount;
  permissions: Permissions;
  repositorySelection: 'all' | 'selected';
  /** Repository full names when repositorySelection is 'selected'. */
  repositories: string[];
  events: string[];
  createdAt: string;
  updatedAt: string;
}

export interface SimToken {
  token: string;
  installationId: number;
  permissions: Permissions;
  expiresAt: number;
  /** Lower-case full names the token was narrowed to (`repositories` in the token request); null: the installation's. */
  repositories: string[] | null;
}

export type WorkflowState = 'active' | 'disabled_fork' | 'disabled_manually' | 'disabled_inactivity' | 'deleted';

export interface SimWorkflow {
  id: number;
  repoId: number;
  path: string;
  name: string;
  state: WorkflowState;
  createdAt: string;
  updatedAt: string;
}

export interface SimRepo {
  id: number;
  owner: SimAccount;
  name: string;
  fullName: string;
  gitDir: string;
  defaultBranch: string;
  private: boolean;
  description: string | null;
  parentId: number | null;
  sourceId: number | null;
  createdAt: string;
  updatedAt: string;
  pushedAt: string;
  /** Epoch ms when an asynchronous fork becomes ready; null once ready. Infinity: stays "being created". */
  readyAt: number | null;
  actionsEnabled: boolean;
  workflows: SimWorkflow[];
}

export type RunStatus = 'requested' | 'queued' | 'in_progress' | 'completed' | 'waiting' | 'pending';

export interface SimStep {
  name: string;
  number: number;
  status: 'queued' | 'in_progress' | 'completed' | 'pending';
  conclusion: CiConclusion | null;
  startedAt: string | null;
  completedAt: string | null;
}

export interface SimJob {
  id: number;
  runId: number;
  runAttempt: number;
  /** The workflow's `jobs.<key>` key, when the runner reported it (matrix legs share it). */
  key: string | null;
  name: string;
  status: RunStatus;
  conclusion: CiConclusion | null;
  createdAt: string;
  startedAt: string;
  completedAt: string | null;
  runnerName: string | null;
  labels: string[];
  steps: SimStep[];
  log: string;
}

export interface SimAttempt {
  attempt: number;
  status: RunStatus;
  conclusion: CiConclusion | null;
  createdAt: string;
  updatedAt: string;
  runStartedAt: string;
  /** `rerun-failed-jobs`: jobs of earlier attempts listed in this attempt with their old results (same ids). */
  carriedJobIds?: number[];
}

export interface SimRun {
  id: number;
  repoId: number;
  workflowId: number;
  name: string;
  path: string;
  headSha: string;
  headBranch: string | null;
  event: string;
  runNumber: number;
  checkSuiteId: number;
  displayTitle: string;
  headCommit: { id: string; treeId: string; message: string; timestamp: string; author: { name: string; email: string }; committer: { name: string; email: string } };
  attempts: SimAttempt[];
  /** Set by faults: the run stays queued forever. */
  neverStart: boolean;
}

export interface SimArtifact {
  id: number;
  runId: number;
  repoId: number;
  name: string;
  zip: Uint8Array;
  createdAt: string;
  expiresAt: string;
}

export interface SimCheckRunAction {
  label: string;
  description: string;
  identifier: string;
}

export interface SimCheckRun {
  id: number;
  repoId: number;
  name: string;
  headSha: string;
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  conclusion: CiConclusion | null;
  startedAt: string | null;
  completedAt: string | null;
  detailsUrl: string | null;
  externalId: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotations: unknown[] };
  actions: SimCheckRunAction[];
  checkSuiteId: number;
  /** 'app' for the simulated App, 'actions' for jobs of workflow runs. */
  owner: 'app' | 'actions';
}

export interface SimCheckSuite {
  id: number;
  repoId: number;
  headSha: string;
  headBranch: string | null;
  owner: 'app' | 'actions';
  createdAt: string;
  updatedAt: string;
  completedSent: boolean;
  headCommit: SimRun['headCommit'];
}

export interface SimDelivery {
  id: number;
  guid: string;
  event: string;
  action: string | null;
  installationId: number | null;
  repositoryId: number | null;
  deliveredAt: string;
  redelivery: boolean;
  duration: number;
  status: string;
  statusCode: number;
  requestHeaders: Record<string, string>;
  payload: Record<string, unknown>;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
}

export interface SimState {
  app: { id: number; slug: string; name: string; nodeId: string; owner: SimAccount; createdAt: string; clientId: string };
  accounts: Map<string, SimAccount>;
  installations: Map<number, SimInstallation>;
  tokens: Map<string, SimToken>;
  repos: Map<string, SimRepo>;
  runs: Map<number, SimRun>;
  jobs: Map<number, SimJob>;
  artifacts: Map<number, SimArtifact>;
  checkRuns: Map<number, SimCheckRun>;
  checkSuites: Map<number, SimCheckSuite>;
  deliveries: SimDelivery[];
  ids: Record<'account' | 'repo' | 'installation' | 'workflow' | 'run' | 'job' | 'artifact' | 'checkSuite' | 'delivery' | 'hook', number>;
  rate: Map<string, { used: number; resetAt: number }>;
}
