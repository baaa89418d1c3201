import { createHmac, timingSafeEqual } from 'node:crypto';

/** Checks `X-Hub-Signature-256` (`sha256=` + hex HMAC-SHA256 of the raw body) in constant time. */
export function verifyWebhookSignature(secret: string, rawBody: Buffer, signature: string | undefined): boolean {
  if (signature === undefined || !signature.startsWith('sha256=') || signature.length !== 71) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(signature.slice(7), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
