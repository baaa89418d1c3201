import { createHmac, timingSafeEqual } from 'node:crypto';

export type DownloadKind = 'job-logs' | 'artifact';

function sign(key: Buffer, kind: DownloadKind, id: number, expires: number): string {
  return createHmac('sha256', key).update(`${kind}/${id}/${expires}`).digest('hex');
}

/** A short-lived URL on the simulator, like the blob-storage URLs GitHub redirects log and artifact downloads to. */
export function signedUrl(base: string, key: Buffer, kind: DownloadKind, id: number, ttlMs: number): string {
  const expires = Date.now() + ttlMs;
  return `${base}/_sim/download/${kind}/${id}?expires=${expires}&sig=${sign(key, kind, id, expires)}`;
}

export function verifySignedUrl(key: Buffer, kind: DownloadKind, id: number, query: URLSearchParams): 'ok' | 'expired' | 'invalid' {
  const expires = Number(query.get('expires'));
  const sig = query.get('sig') ?? '';
  const expected = sign(key, kind, id, expires);
  if (sig.length !== expected.length || !timingSafeEqual(Buffer.from(sig), Buffer.from(expected))) return 'invalid';
  return Date.now() > expires ? 'expired' : 'ok';
}
