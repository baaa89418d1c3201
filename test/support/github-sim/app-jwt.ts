import { createSign } from 'node:crypto';

/** Signs an App JWT (RS256) the way GitHub expects: iat 60 s in the past, exp at most 10 minutes ahead. */
export function signAppJwt(appId: number | string, privateKeyPem: string, now = Date.now(), ttlSeconds = 540): string {
  const seconds = Math.floor(now / 1000);
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify({ iat: seconds - 60, exp: seconds + ttlSeconds, iss: String(appId) })).toString('base64url');
  const signer = createSign('RSA-SHA256');
  signer.update(`${header}.${payload}`);
  return `${header}.${payload}.${signer.sign(privateKeyPem, 'base64url')}`;
}
