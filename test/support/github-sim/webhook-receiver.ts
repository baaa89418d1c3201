import { createServer } from 'node:http';
import { verifySignature } from './webhooks/sign.js';

export interface ReceivedDelivery {
  event: string;
  guid: string;
  headers: Record<string, string>;
  rawBody: string;
  payload: Record<string, unknown>;
  verified: boolean;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** Status the receiver answers with (default 200). */
  respondWith(status: number): void;
  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs?: number): Promise<ReceivedDelivery>;
  close(): Promise<void>;
}

/** A tiny HTTP receiver that verifies `X-Hub-Signature-256` with the secret, for tests. */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({
        event: headers['x-github-event'] ?? '',
        guid: headers['x-github-delivery'] ?? '',
        headers,
        rawBody,
        payload: JSON.parse(rawBody) as Record<string, unknown>,
        verified: verifySignature(secret, rawBody, headers['x-hub-signature-256']),
      });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('receiver did not bind');
  return {
    url: `http://127.0.0.1:${address.port}/webhooks`,
    received,
    respondWith(code) {
      status = code;
    },
    waitFor: (predicate, timeoutMs = 15_000) => waitFor(() => received.find(predicate), timeoutMs),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Polls until `probe` returns a value (not undefined/null/false). */
export async function waitFor<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 15_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`waitFor timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
