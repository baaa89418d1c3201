/**
 * Normalized CI events: what both backends (GitHub webhooks / reconciler, and the local executor)
 * feed into the same event handler. Field names and values follow GitHub's workflow_run and
 * workflow_job payloads; ids are decimal strings because GitHub ids exceed 2^31 and must survive JSON.
 */
export type CiStatus = 'requested' | 'queued' | 'waiting' | 'pending' | 'in_progress' | 'completed';
export type CiConclusion =
  | 'success'
  | 'failure'
  | 'cancelled'
  | 'skipped'
  | 'neutral'
  | 'timed_out'
  | 'action_required'
  | 'stale'
  | 'startup_failure';

export interface StepOutcome {
  number: number;
  name: string;
  status: 'queued' | 'in_progress' | 'completed' | 'pending';
  conclusion: CiConclusion | null;
  startedAt: string | null;
  completedAt: string | null;
}

export interface WorkflowRunEvent {
  kind: 'workflow_run';
  repoFullName: string;
  runId: string;
  runAttempt: number;
  headSha: string;
  headBranch: string | null;
  name: string | null;
  path: string | null;
  event: string | null;
  status: CiStatus;
  conclusion: CiConclusion | null;
  htmlUrl: string | null;
  runStartedAt: string | null;
  updatedAt: string | null;
}

export interface WorkflowJobEvent {
  kind: 'workflow_job';
  repoFullName: string;
  runId: string;
  runAttempt: number;
  jobId: string;
  headSha: string;
  headBranch: string | null;
  name: string;
  status: CiStatus;
  conclusion: CiConclusion | null;
  startedAt: string | null;
  completedAt: string | null;
  runnerName: string | null;
  labels: string[];
  steps: StepOutcome[];
  htmlUrl: string | null;
}

export type CiEvent = WorkflowRunEvent | WorkflowJobEvent;
