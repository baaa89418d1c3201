-- Benchmark health (issue 17): lifecycle of an instance, its history of transitions, and one open re-validation per instance.

-- AlterTable
ALTER TABLE "Instance" ADD COLUMN "lifecycle" TEXT NOT NULL DEFAULT 'active',
ADD COLUMN "lifecycleReason" TEXT,
ADD COLUMN "lifecycleChangedAt" TIMESTAMPTZ(3);

-- Instances already judged unhealthy start as suspects (they were excluded from reports before; they still are).
UPDATE "Instance" SET "lifecycle" = 'suspect', "lifecycleReason" = 'health ' || "health", "lifecycleChangedAt" = CURRENT_TIMESTAMP
WHERE "health" IN ('flaky', 'drifted', 'unreplayable');

-- CreateIndex
CREATE INDEX "Instance_lifecycle_idx" ON "Instance"("lifecycle");

-- AlterTable
ALTER TABLE "Revalidation" ADD COLUMN "repeats" INTEGER NOT NULL DEFAULT 2,
ADD COLUMN "trigger" TEXT NOT NULL DEFAULT 'operator';

-- CreateTable
CREATE TABLE "InstanceTransition" (
    "id" UUID NOT NULL,
    "instanceId" TEXT NOT NULL,
    "fromStatus" TEXT NOT NULL,
    "toStatus" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "revalidationId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InstanceTransition_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "InstanceTransition_instanceId_createdAt_idx" ON "InstanceTransition"("instanceId", "createdAt");

-- CreateIndex
CREATE INDEX "InstanceTransition_createdAt_idx" ON "InstanceTransition"("createdAt");

-- AddForeignKey
ALTER TABLE "InstanceTransition" ADD CONSTRAINT "InstanceTransition_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- At most one open (pending or running) re-validation per instance: a scheduler that runs twice (a restarted worker,
-- two workers) cannot start a second one. Older duplicates, if any, are closed first.
UPDATE "Revalidation" r SET "status" = 'completed', "result" = 'inconclusive', "completedAt" = CURRENT_TIMESTAMP
WHERE r."status" IN ('pending', 'running')
  AND EXISTS (SELECT 1 FROM "Revalidation" n WHERE n."instanceId" = r."instanceId" AND n."status" IN ('pending', 'running') AND (n."startedAt", n."id") > (r."startedAt", r."id"));

CREATE UNIQUE INDEX "Revalidation_one_open_per_instance" ON "Revalidation"("instanceId") WHERE "status" IN ('pending', 'running');
