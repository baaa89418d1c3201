import { RequestError } from '@octokit/request-error';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { createMemoryRateBudget, mapGithubError, verifyWebhookSignature } from '../../../src/github/index.js';

const failure = (status: number, headers: Record<string, string> = {}) =>
  new RequestError('failed', status, { request: { method: 'POST', url: 'https://api.github.com/repos/o/r/check-runs', headers: {} }, response: { status, url: '', headers, data: {} } });

describe('mapGithubError', () => {
  it('maps by status and headers only', () => {
    const kinds = (error: unknown) => {
      const mapped = mapGithubError(error) as AppError;
      return [mapped.kind, mapped.code, mapped.retryAfterMs];
    };
    expect(kinds(failure(502))).toEqual(['transient', 'github_unavailable', undefined]);
    expect(kinds(failure(409))).toEqual(['transient', 'github_conflict', undefined]);
    expect(kinds(failure(403, { 'retry-after': '7' }))).toEqual(['rate_limited', 'rate_limited', 7000]);
    expect(kinds(failure(429, { 'retry-after': '2' }))).toEqual(['rate_limited', 'rate_limited', 2000]);
    const reset = String(Math.ceil(Date.now() / 1000) + 30);
    const primary = mapGithubError(failure(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })) as AppError;
    expect(primary.kind).toBe('rate_limited');
    expect(primary.retryAfterMs).toBeGreaterThan(25_000);
    expect(kinds(failure(403))).toEqual(['permanent', 'github_forbidden', undefined]);
    expect(kinds(failure(404))).toEqual(['permanent', 'github_not_found', undefined]);
    expect(kinds(failure(422))).toEqual(['invalid_input', 'github_unprocessable', undefined]);
    const plain = new Error('not a request error');
    expect(mapGithubError(plain)).toBe(plain);
  });
});

describe('rate budget', () => {
  it('pauses a key until the reset when the remaining quota falls under the reserve', async () => {
    const budget = createMemoryRateBudget({ reserve: 10, maxWaitMs: 3000 });
    await budget.observe('k', { 'x-ratelimit-remaining': '500', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60) });
    let started = Date.now();
    await budget.waitTurn('k');
    // Wide margins: "does not wait" versus "waits for the pause", not a timing test.
    expect(Date.now() - started).toBeLessThan(500);
    await budget.pause('k', 1000);
    started = Date.now();
    await budget.waitTurn('k');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    await budget.waitTurn('other');
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts only sha256 HMACs of the exact bytes', async () => {
    const { createHmac } = await import('node:crypto');
    const body = Buffer.from('{"a": 1}');
    const good = `sha256=${createHmac('sha256', 's').update(body).digest('hex')}`;
    expect(verifyWebhookSignature('s', body, good)).toBe(true);
    expect(verifyWebhookSignature('s', Buffer.from('{"a":1}'), good)).toBe(false);
    expect(verifyWebhookSignature('t', body, good)).toBe(false);
    expect(verifyWebhookSignature('s', body, undefined)).toBe(false);
    expect(verifyWebhookSignature('s', body, good.replace('sha256=', 'sha1='))).toBe(false);
  });
});
