-- Webhook payloads (~10 KB of JSON each) are stored as the bytes GitHub signed, verbatim. The intake has already
-- parsed them once (it needs the action, installation and repository); `json` made Postgres validate them a
-- second time, which cost more than the rest of the insert. lz4 shrinks them to about a third, fast enough for
-- the intake, and STORAGE MAIN keeps the compressed value in the row (no TOAST table and TOAST index insert)
-- whenever it fits in a page. Postgres CPU per delivery, in batches of 60 (bench notes in README):
-- about 47-75 µs as lz4 bytea, 89 µs as lz4 json, 153 µs as uncompressed json.
-- AlterTable
ALTER TABLE "WebhookDelivery" ALTER COLUMN "payload" SET DATA TYPE BYTEA USING convert_to("payload"::text, 'UTF8');
ALTER TABLE "WebhookDelivery" ALTER COLUMN "payload" SET COMPRESSION lz4;
ALTER TABLE "WebhookDelivery" ALTER COLUMN "payload" SET STORAGE MAIN;
