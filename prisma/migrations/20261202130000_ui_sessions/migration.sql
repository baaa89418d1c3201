-- Dashboard sessions: a token login at /ui creates one; the browser holds a signed cookie with the random session
-- secret, the database only its SHA-256. Revoking the token or deleting the token row ends its sessions.
CREATE TABLE "UiSession" (
    "id" UUID NOT NULL,
    "secretHash" TEXT NOT NULL,
    "tokenId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "UiSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "UiSession_secretHash_key" ON "UiSession"("secretHash");

-- CreateIndex
CREATE INDEX "UiSession_expiresAt_idx" ON "UiSession"("expiresAt");

-- AddForeignKey
ALTER TABLE "UiSession" ADD CONSTRAINT "UiSession_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "ApiToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;
