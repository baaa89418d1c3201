import { createHmac, timingSafeEqual } from 'node:crypto';

export function signBody(secret: string, body: string | Buffer, algorithm: 'sha256' | 'sha1' = 'sha256'): string {
  return `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;
}

/** Verifies an `X-Hub-Signature-256` header against the raw body, as a receiver would. */
export function verifySignature(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const actual = Buffer.from(header);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
