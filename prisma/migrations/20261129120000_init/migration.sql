-- CreateTable
CREATE TABLE "Instance" (
    "id" TEXT NOT NULL,
    "dataset" TEXT NOT NULL DEFAULT 'ci-repair-bench',
    "language" TEXT NOT NULL DEFAULT 'Python',
    "repoOwner" TEXT NOT NULL,
    "repoName" TEXT NOT NULL,
    "sourceRepoOwner" TEXT,
    "upstreamUrl" TEXT,
    "headBranch" TEXT,
    "workflowName" TEXT,
    "workflowFilename" TEXT,
    "workflowPath" TEXT NOT NULL,
    "workflow" TEXT NOT NULL,
    "shaFail" TEXT NOT NULL,
    "shaSuccess" TEXT,
    "diff" TEXT NOT NULL,
    "changedFiles" JSONB NOT NULL DEFAULT '[]',
    "commitDate" TIMESTAMPTZ(3),
    "logs" JSONB NOT NULL DEFAULT '[]',
    "labels" TEXT[],
    "rawLabels" TEXT[],
    "protectedPaths" TEXT[],
    "oracleSha" TEXT,
    "subtasks" JSONB,
    "basePassingTests" TEXT[],
    "pythonVersion" TEXT,
    "installCommand" TEXT,
    "health" TEXT NOT NULL DEFAULT 'unknown',
    "healthCheckedAt" TIMESTAMPTZ(3),
    "contentHash" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Instance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BenchRepo" (
    "id" UUID NOT NULL,
    "backend" TEXT NOT NULL,
    "upstreamOwner" TEXT NOT NULL,
    "upstreamName" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "githubRepoId" BIGINT,
    "actionsEnabled" BOOLEAN NOT NULL DEFAULT false,
    "lastSyncAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "BenchRepo_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Submission" (
    "id" UUID NOT NULL,
    "runId" UUID,
    "instanceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'candidate',
    "patch" TEXT NOT NULL,
    "patchSha256" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "requestHash" TEXT,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "verdict" TEXT,
    "reason" TEXT,
    "errorMessage" TEXT,
    "benchRepoId" UUID,
    "branch" TEXT,
    "headSha" TEXT,
    "checkRunId" BIGINT,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "standardization" JSONB,
    "revertedFiles" TEXT[],
    "observedLabels" TEXT[],
    "trackId" UUID,
    "roundNumber" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "preparedAt" TIMESTAMPTZ(3),
    "publishedAt" TIMESTAMPTZ(3),
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "cancelRequestedAt" TIMESTAMPTZ(3),
    "enqueuedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Submission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkflowRun" (
    "id" UUID NOT NULL,
    "submissionId" UUID NOT NULL,
    "githubRunId" BIGINT NOT NULL,
    "runAttempt" INTEGER NOT NULL DEFAULT 1,
    "repoFullName" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "headBranch" TEXT,
    "name" TEXT,
    "path" TEXT,
    "event" TEXT,
    "status" TEXT NOT NULL,
    "conclusion" TEXT,
    "htmlUrl" TEXT,
    "runStartedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WorkflowRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" UUID NOT NULL,
    "workflowRunId" UUID NOT NULL,
    "githubJobId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "conclusion" TEXT,
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "runnerName" TEXT,
    "labels" TEXT[],
    "htmlUrl" TEXT,
    "failedStep" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Step" (
    "id" UUID NOT NULL,
    "jobId" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "conclusion" TEXT,
    "startedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Step_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JobLog" (
    "id" UUID NOT NULL,
    "jobId" UUID NOT NULL,
    "storageKey" TEXT NOT NULL,
    "sizeBytes" BIGINT NOT NULL,
    "sha256" TEXT NOT NULL,
    "compressed" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JobLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FailureLabel" (
    "id" UUID NOT NULL,
    "submissionId" UUID NOT NULL,
    "jobId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "tool" TEXT,
    "stepName" TEXT,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "findings" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FailureLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TestResult" (
    "id" UUID NOT NULL,
    "submissionId" UUID NOT NULL,
    "testId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "durationMs" INTEGER,
    "message" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TestResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "action" TEXT,
    "hookId" BIGINT,
    "installationId" BIGINT,
    "repoFullName" TEXT,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'received',
    "error" TEXT,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Revalidation" (
    "id" UUID NOT NULL,
    "instanceId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" TEXT,
    "submissionIds" TEXT[],
    "details" JSONB NOT NULL DEFAULT '{}',
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Revalidation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Instance_repoOwner_repoName_idx" ON "Instance"("repoOwner", "repoName");
CREATE INDEX "Instance_health_idx" ON "Instance"("health");
CREATE INDEX "Instance_labels_idx" ON "Instance" USING GIN ("labels");
CREATE UNIQUE INDEX "BenchRepo_backend_upstreamOwner_upstreamName_key" ON "BenchRepo"("backend", "upstreamOwner", "upstreamName");
CREATE UNIQUE INDEX "BenchRepo_backend_owner_name_key" ON "BenchRepo"("backend", "owner", "name");
CREATE UNIQUE INDEX "Submission_idempotencyKey_key" ON "Submission"("idempotencyKey");
CREATE INDEX "Submission_runId_state_idx" ON "Submission"("runId", "state");
CREATE INDEX "Submission_instanceId_idx" ON "Submission"("instanceId");
CREATE INDEX "Submission_state_enqueuedAt_idx" ON "Submission"("state", "enqueuedAt");
CREATE INDEX "Submission_headSha_idx" ON "Submission"("headSha");
CREATE INDEX "WorkflowRun_submissionId_idx" ON "WorkflowRun"("submissionId");
CREATE UNIQUE INDEX "WorkflowRun_githubRunId_runAttempt_key" ON "WorkflowRun"("githubRunId", "runAttempt");
CREATE UNIQUE INDEX "Job_githubJobId_key" ON "Job"("githubJobId");
CREATE INDEX "Job_workflowRunId_idx" ON "Job"("workflowRunId");
CREATE UNIQUE INDEX "Step_jobId_number_key" ON "Step"("jobId", "number");
CREATE UNIQUE INDEX "JobLog_jobId_key" ON "JobLog"("jobId");
CREATE INDEX "FailureLabel_submissionId_idx" ON "FailureLabel"("submissionId");
CREATE UNIQUE INDEX "FailureLabel_jobId_type_key" ON "FailureLabel"("jobId", "type");
CREATE UNIQUE INDEX "TestResult_submissionId_testId_key" ON "TestResult"("submissionId", "testId");
CREATE INDEX "WebhookDelivery_status_receivedAt_idx" ON "WebhookDelivery"("status", "receivedAt");
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");
CREATE INDEX "Revalidation_instanceId_startedAt_idx" ON "Revalidation"("instanceId", "startedAt");

-- AddForeignKey
ALTER TABLE "Submission" ADD CONSTRAINT "Submission_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Submission" ADD CONSTRAINT "Submission_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "Submission" ADD CONSTRAINT "Submission_benchRepoId_fkey" FOREIGN KEY ("benchRepoId") REFERENCES "BenchRepo"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "WorkflowRun" ADD CONSTRAINT "WorkflowRun_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Job" ADD CONSTRAINT "Job_workflowRunId_fkey" FOREIGN KEY ("workflowRunId") REFERENCES "WorkflowRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Step" ADD CONSTRAINT "Step_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "JobLog" ADD CONSTRAINT "JobLog_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "FailureLabel" ADD CONSTRAINT "FailureLabel_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "FailureLabel" ADD CONSTRAINT "FailureLabel_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "TestResult" ADD CONSTRAINT "TestResult_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Revalidation" ADD CONSTRAINT "Revalidation_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;
