-- Verdict integrity (issue 12): outcomes with reasons and evidence, ownership, public instances,
-- per-dataset protection policy.

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "ownerTokenId" UUID,
ADD COLUMN     "outcome" TEXT,
ADD COLUMN     "reasonDetails" JSONB;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "ownerTokenId" UUID;

-- AlterTable
ALTER TABLE "Track" ADD COLUMN     "ownerTokenId" UUID;

-- AlterTable
ALTER TABLE "Instance" ADD COLUMN     "public" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "WorkflowRun" ADD COLUMN     "outcome" TEXT,
ADD COLUMN     "outcomeReason" TEXT;

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "outcome" TEXT,
ADD COLUMN     "outcomeReason" TEXT,
ADD COLUMN     "outcomeEvidence" JSONB;

-- CreateTable
CREATE TABLE "DatasetPolicy" (
    "dataset" TEXT NOT NULL,
    "protection" TEXT NOT NULL DEFAULT 'ground-truth',
    "protectedPaths" TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "DatasetPolicy_pkey" PRIMARY KEY ("dataset")
);

-- CreateIndex
CREATE INDEX "Submission_ownerTokenId_idx" ON "Submission"("ownerTokenId");

-- CreateIndex
CREATE INDEX "Run_ownerTokenId_idx" ON "Run"("ownerTokenId");
