-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "parentSubmissionId" UUID,
ADD COLUMN     "subtaskId" TEXT;

-- CreateTable
CREATE TABLE "InstanceTestSet" (
    "instanceId" TEXT NOT NULL,
    "baseSubmissionId" UUID,
    "oracleSubmissionId" UUID,
    "basePassing" TEXT[],
    "gapTests" TEXT[],
    "p0" INTEGER NOT NULL,
    "pStar" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "InstanceTestSet_pkey" PRIMARY KEY ("instanceId")
);

-- CreateTable
CREATE TABLE "Track" (
    "id" UUID NOT NULL,
    "instanceId" TEXT NOT NULL,
    "runId" UUID,
    "maxRounds" INTEGER NOT NULL DEFAULT 20,
    "status" TEXT NOT NULL DEFAULT 'open',
    "p0" INTEGER,
    "pStar" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Track_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TrackRound" (
    "id" UUID NOT NULL,
    "trackId" UUID NOT NULL,
    "roundNumber" INTEGER NOT NULL,
    "submissionId" UUID NOT NULL,
    "patch" TEXT NOT NULL,
    "cumulativePatch" TEXT NOT NULL,
    "keptFromRound" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrackRound_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Submission_parentSubmissionId_idx" ON "Submission"("parentSubmissionId");

-- CreateIndex
CREATE INDEX "Track_instanceId_idx" ON "Track"("instanceId");

-- CreateIndex
CREATE INDEX "Track_runId_idx" ON "Track"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "TrackRound_submissionId_key" ON "TrackRound"("submissionId");

-- CreateIndex
CREATE UNIQUE INDEX "TrackRound_trackId_roundNumber_key" ON "TrackRound"("trackId", "roundNumber");

-- AddForeignKey
ALTER TABLE "InstanceTestSet" ADD CONSTRAINT "InstanceTestSet_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Track" ADD CONSTRAINT "Track_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Track" ADD CONSTRAINT "Track_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrackRound" ADD CONSTRAINT "TrackRound_trackId_fkey" FOREIGN KEY ("trackId") REFERENCES "Track"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrackRound" ADD CONSTRAINT "TrackRound_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
