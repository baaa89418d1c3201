-- Account pool (issue 19): several benchmark owners / App installations at once, each with its plan's
-- concurrent-job limit and rate budget; upstream repositories (their benchmark repositories) assigned to one
-- account stably.

-- CreateTable
CREATE TABLE "BenchAccount" (
    "owner" TEXT NOT NULL,
    "installationId" BIGINT,
    "concurrentJobs" INTEGER NOT NULL,
    "restPerHour" INTEGER NOT NULL DEFAULT 5000,
    "writesPerMinute" INTEGER NOT NULL DEFAULT 80,
    "runnerLabels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "state" TEXT NOT NULL DEFAULT 'active',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "BenchAccount_pkey" PRIMARY KEY ("owner")
);

-- CreateTable
CREATE TABLE "AccountAssignment" (
    "upstreamOwner" TEXT NOT NULL,
    "upstreamName" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "assignedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "movedAt" TIMESTAMPTZ(3),

    CONSTRAINT "AccountAssignment_pkey" PRIMARY KEY ("upstreamOwner","upstreamName")
);

-- CreateIndex
CREATE INDEX "AccountAssignment_account_idx" ON "AccountAssignment"("account");
