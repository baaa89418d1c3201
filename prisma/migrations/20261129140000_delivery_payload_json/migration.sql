-- Webhook payloads are written once at intake and read once by a worker: keep them as `json` (validated text,
-- no conversion to jsonb's binary form) stored uncompressed out of line, which makes the intake's insert cheaper.
-- AlterTable
ALTER TABLE "WebhookDelivery" ALTER COLUMN "payload" SET DATA TYPE JSON;
ALTER TABLE "WebhookDelivery" ALTER COLUMN "payload" SET STORAGE EXTERNAL;
