import type { InstanceRow, RunRow, SubmissionSummary } from '../db/index.js';

/** API representations: no patches or secrets, ids as strings, links to related resources. */
export function submissionView(submission: SubmissionSummary, baseUrl: string) {
  return {
    id: submission.id,
    instanceId: submission.instanceId,
    runId: submission.runId,
    kind: submission.kind,
    state: submission.state,
    verdict: submission.verdict,
    outcome: submission.outcome,
    reason: submission.reason,
    reasonDetails: submission.reasonDetails,
    error: submission.errorMessage,
    attempt: submission.attempt,
    branch: submission.branch,
    headSha: submission.headSha,
    checkRunId: submission.checkRunId === null ? null : submission.checkRunId.toString(),
    patchSha256: submission.patchSha256,
    revertedFiles: submission.revertedFiles,
    observedLabels: submission.observedLabels,
    standardization: submission.standardization,
    cancelRequested: submission.cancelRequestedAt !== null,
    timestamps: {
      created: submission.createdAt,
      updated: submission.updatedAt,
      prepared: submission.preparedAt,
      published: submission.publishedAt,
      started: submission.startedAt,
      completed: submission.completedAt,
    },
    links: {
      self: `${baseUrl}/v1/submissions/${submission.id}`,
      instance: `${baseUrl}/v1/instances/${encodeURIComponent(submission.instanceId)}`,
      ...(submission.runId !== null ? { run: `${baseUrl}/v1/runs/${submission.runId}` } : {}),
      jobs: `${baseUrl}/v1/submissions/${submission.id}/jobs`,
      logSegments: `${baseUrl}/v1/submissions/${submission.id}/logs/segments`,
    },
  };
}

/**
 * Whether the caller may read the instance's ground truth: operators always, submitters only on public
 * instances. `hidden` leaves out the fixed commit (`shaSuccess`), the patch (`diff`) and the files it changes
 * (`changedFiles`), the stored failure logs (`logs`), the oracle commit and the subtasks (hidden tests).
 */
export type GroundTruthAccess = 'visible' | 'hidden';

export function instanceSummaryView(instance: InstanceRow, groundTruth: GroundTruthAccess) {
  return {
    id: instance.id,
    dataset: instance.dataset,
    language: instance.language,
    repo: `${instance.repoOwner}/${instance.repoName}`,
    sourceRepoOwner: instance.sourceRepoOwner,
    shaFail: instance.shaFail,
    ...(groundTruth === 'visible' ? { shaSuccess: instance.shaSuccess } : {}),
    workflowPath: instance.workflowPath,
    labels: instance.labels,
    health: instance.health,
    lifecycle: instance.lifecycle,
    lifecycleReason: instance.lifecycleReason,
    commitDate: instance.commitDate,
    public: instance.public,
    groundTruth,
  };
}

export function instanceView(instance: InstanceRow, groundTruth: GroundTruthAccess) {
  return {
    ...instanceSummaryView(instance, groundTruth),
    upstreamUrl: instance.upstreamUrl,
    headBranch: instance.headBranch,
    workflowName: instance.workflowName,
    workflowFilename: instance.workflowFilename,
    workflow: instance.workflow,
    ...(groundTruth === 'visible' ? { diff: instance.diff, changedFiles: instance.changedFiles, logs: instance.logs } : {}),
    rawLabels: instance.rawLabels,
    protectedPaths: instance.protectedPaths,
    ...(groundTruth === 'visible' ? { oracleSha: instance.oracleSha, subtasks: instance.subtasks } : {}),
    basePassingTests: instance.basePassingTests,
    pythonVersion: instance.pythonVersion,
    installCommand: instance.installCommand,
    healthCheckedAt: instance.healthCheckedAt,
    createdAt: instance.createdAt,
    updatedAt: instance.updatedAt,
  };
}

export function runView(run: RunRow, counts: Record<string, number>, baseUrl: string) {
  return {
    id: run.id,
    label: run.label,
    metadata: run.metadata,
    createdAt: run.createdAt,
    submissions: { total: Object.values(counts).reduce((sum, count) => sum + count, 0), byState: counts },
    links: { self: `${baseUrl}/v1/runs/${run.id}`, submissions: `${baseUrl}/v1/submissions?runId=${run.id}`, report: `${baseUrl}/v1/runs/${run.id}/report` },
  };
}
