-- CreateTable
CREATE TABLE "SubmissionBatch" (
    "id" UUID NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "runId" UUID NOT NULL,
    "requestHash" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SubmissionBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SubmissionBatch_idempotencyKey_key" ON "SubmissionBatch"("idempotencyKey");

-- CreateIndex
CREATE INDEX "SubmissionBatch_runId_idx" ON "SubmissionBatch"("runId");

-- AddForeignKey
ALTER TABLE "SubmissionBatch" ADD CONSTRAINT "SubmissionBatch_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
