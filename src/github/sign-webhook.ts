import { createHmac } from 'node:crypto';

/** `X-Hub-Signature-256` of a webhook body as GitHub computes it (`sha256=` + hex HMAC-SHA256 with the webhook secret). */
export function signWebhookPayload(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
