-- Submission leases (issue 13): every non-terminal submission past `queued` is owned by a worker instance until
-- a time; the recovery sweep resumes expired leases from the last durable state.

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "leaseOwner" TEXT,
ADD COLUMN     "leaseExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "resumeCount" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Submission_state_leaseExpiresAt_idx" ON "Submission"("state", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "Submission_leaseOwner_idx" ON "Submission"("leaseOwner");
