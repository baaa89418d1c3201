import { randomUUID } from 'node:crypto';
import { nextId } from '../state.js';
import type { SimDelivery, SimState } from '../types.js';
import { signBody } from './sign.js';

/** GitHub does not deliver payloads over 25 MB. */
const MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;

export type WebhookEffect = 'drop' | 'duplicate' | 'fail' | { delayMs: number };

export interface WebhookFaultRule {
  event?: string;
  action?: string;
  /** How many matching deliveries the rule applies to (default 1). */
  times?: number;
  effect: WebhookEffect;
}

export interface WebhookMeta {
  installationId: number | null;
  repositoryId: number | null;
}

interface Outgoing {
  guid: string;
  event: string;
  action: string | null;
  payload: Record<string, unknown>;
  meta: WebhookMeta;
  redelivery: boolean;
}

export interface DelivererOptions {
  state: SimState;
  secret: string;
  hookId: number;
  getUrl: () => string | null;
  timeoutMs: number;
}

export interface Deliverer {
  emit(event: string, payload: Record<string, unknown>, meta: WebhookMeta): string;
  redeliver(deliveryId: number): boolean;
  rules: WebhookFaultRule[];
  hold(): void;
  release(order?: 'fifo' | 'reverse'): void;
  idle(): Promise<void>;
}

export function createDeliverer(options: DelivererOptions): Deliverer {
  const { state } = options;
  const rules: WebhookFaultRule[] = [];
  const inFlight = new Set<Promise<void>>();
  let held: Outgoing[] | null = null;

  const track = (promise: Promise<void>): void => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };

  const takeEffect = (out: Outgoing): WebhookEffect | null => {
    for (const rule of rules) {
      if (rule.event && rule.event !== out.event) continue;
      if (rule.action && rule.action !== out.action) continue;
      const left = rule.times ?? 1;
      if (left <= 0) continue;
      rule.times = left - 1;
      return rule.effect;
    }
    return null;
  };

  /** Applies any matching fault; resolves once the delivery (or its fault) has been handled. */
  const dispatch = (out: Outgoing): Promise<void> => {
    const effect = out.redelivery ? null : takeEffect(out);
    if (effect === 'drop') return Promise.resolve();
    if (effect === 'fail') {
      record(out, { status: 'Invalid HTTP Response: 502', statusCode: 502, duration: 0.01, responseHeaders: {}, responseBody: 'Bad Gateway', headers: headersFor(out, '') });
      return Promise.resolve();
    }
    if (effect === 'duplicate') return send(out).then(() => send(out));
    if (effect && typeof effect === 'object') return new Promise<void>((resolve) => setTimeout(resolve, effect.delayMs)).then(() => send(out));
    return send(out);
  };

  const headersFor = (out: Outgoing, body: string): Record<string, string> => ({
    Accept: '*/*',
    'Content-Type': 'application/json',
    'User-Agent': 'GitHub-Hookshot/5e8b5d1',
    'X-GitHub-Delivery': out.guid,
    'X-GitHub-Event': out.event,
    'X-GitHub-Hook-ID': String(options.hookId),
    'X-GitHub-Hook-Installation-Target-ID': String(state.app.id),
    'X-GitHub-Hook-Installation-Target-Type': 'integration',
    'X-Hub-Signature': signBody(options.secret, body, 'sha1'),
    'X-Hub-Signature-256': signBody(options.secret, body),
  });

  const record = (out: Outgoing, result: { status: string; statusCode: number; duration: number; responseHeaders: Record<string, string>; responseBody: string | null; headers: Record<string, string> }): void => {
    const delivery: SimDelivery = {
      id: nextId(state, 'delivery'),
      guid: out.guid,
      event: out.event,
      action: out.action,
      installationId: out.meta.installationId,
      repositoryId: out.meta.repositoryId,
      deliveredAt: new Date().toISOString(),
      redelivery: out.redelivery,
      duration: result.duration,
      status: result.status,
      statusCode: result.statusCode,
      requestHeaders: result.headers,
      payload: out.payload,
      responseHeaders: result.responseHeaders,
      responseBody: result.responseBody,
    };
    state.deliveries.push(delivery);
  };

  const send = async (out: Outgoing): Promise<void> => {
    const body = JSON.stringify(out.payload);
    const headers = headersFor(out, body);
    const url = options.getUrl();
    const started = performance.now();
    if (Buffer.byteLength(body) > MAX_PAYLOAD_BYTES) {
      record(out, { status: 'Payload too large', statusCode: 0, duration: 0, responseHeaders: {}, responseBody: null, headers });
      return;
    }
    if (!url) {
      record(out, { status: 'No webhook URL configured', statusCode: 0, duration: 0, responseHeaders: {}, responseBody: null, headers });
      return;
    }
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(options.timeoutMs) });
      const text = await response.text();
      const ok = response.status >= 200 && response.status < 300;
      record(out, {
        status: ok ? 'OK' : `Invalid HTTP Response: ${response.status}`,
        statusCode: response.status,
        duration: (performance.now() - started) / 1000,
        responseHeaders: Object.fromEntries(response.headers.entries()),
        responseBody: text.slice(0, 4096),
        headers,
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      record(out, { status: timedOut ? 'timed out' : 'failed to connect to host', statusCode: 0, duration: (performance.now() - started) / 1000, responseHeaders: {}, responseBody: null, headers });
    }
  };

  return {
    rules,
    emit(event, payload, meta) {
      const out: Outgoing = { guid: randomUUID(), event, action: typeof payload.action === 'string' ? payload.action : null, payload, meta, redelivery: false };
      if (held) held.push(out);
      else track(dispatch(out));
      return out.guid;
    },
    redeliver(deliveryId) {
      const original = state.deliveries.find((d) => d.id === deliveryId);
      if (!original) return false;
      const out: Outgoing = { guid: original.guid, event: original.event, action: original.action, payload: original.payload, meta: { installationId: original.installationId, repositoryId: original.repositoryId }, redelivery: true };
      track(send(out));
      return true;
    },
    hold() {
      held ??= [];
    },
    release(order = 'reverse') {
      const queue = held ?? [];
      held = null;
      const ordered = order === 'reverse' ? [...queue].reverse() : queue;
      // Released deliveries go out one after another, so the receiver sees exactly this order.
      track(ordered.reduce<Promise<void>>((previous, out) => previous.then(() => dispatch(out)), Promise.resolve()));
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
