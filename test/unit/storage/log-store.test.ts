import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyJob, LOG_READ_BYTES } from '../../../src/classify/index.js';
import { createFileLogStore } from '../../../src/storage/log-store.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'log-store-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const collect = async (stream: Readable): Promise<{ bytes: Buffer; largest: number }> => {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return { bytes: Buffer.concat(parts), largest: Math.max(...parts.map((part) => part.length)) };
};

describe('file log store', () => {
  it('gives back the bytes it archived, with their size and hash, in small chunks unless asked for large ones', async () => {
    const store = createFileLogStore(root);
    // 3.5 MiB of incompressible bytes: several compressed read chunks and several gunzip outputs.
    const content = randomBytes(3.5 * 1024 * 1024);
    const stored = await store.put('runs/1/jobs/2', Readable.from([content.subarray(0, 1000), content.subarray(1000)]));
    expect(stored).toEqual({ sizeBytes: content.length, sha256: createHash('sha256').update(content).digest('hex') });
    const plain = await collect((await store.open('runs/1/jobs/2')) as Readable);
    expect(plain.bytes.equals(content)).toBe(true);
    // Readers that hold many streams at once (a run's log segments) keep zlib's 16 KiB output chunks.
    expect(plain.largest).toBeLessThanOrEqual(16 * 1024);
    const large = await collect((await store.open('runs/1/jobs/2', { chunkBytes: LOG_READ_BYTES })) as Readable);
    expect(large.bytes.equals(content)).toBe(true);
    expect(large.largest).toBeGreaterThan(64 * 1024);
    expect(large.largest).toBeLessThanOrEqual(LOG_READ_BYTES);
  });

  it('classifies an archived log read back in large chunks the same as the log itself', async () => {
    const store = createFileLogStore(root);
    const filler = Array.from({ length: 20_000 }, (_, i) => `2025-04-07T12:00:00.0000000Z tests/test_m.py::test_${i} PASSED`).join('\n');
    const log = [
      '2025-04-07T12:00:00.0000000Z ##[group]Run ./scripts/test',
      '2025-04-07T12:00:00.0000000Z ./scripts/test',
      '2025-04-07T12:00:00.0000000Z shell: /usr/bin/bash -e {0}',
      '2025-04-07T12:00:00.0000000Z ##[endgroup]',
      filler,
      '2025-04-07T12:00:01.0000000Z FAILED tests/test_m.py::test_x - assert 1 == 2',
      '2025-04-07T12:00:01.0000000Z ========================= 1 failed, 20000 passed in 9.00s =========================',
      '2025-04-07T12:00:01.0000000Z ##[error]Process completed with exit code 1.',
      '',
    ].join('\n');
    await store.put('job.log', Readable.from([Buffer.from(log)]));
    const direct = await classifyJob({ log });
    const archived = await classifyJob({ log: (await store.open('job.log', { chunkBytes: LOG_READ_BYTES })) as Readable });
    expect(direct.labels.map((label) => label.type)).toContain('Test Failure');
    expect(archived.labels).toEqual(direct.labels);
    expect(archived.parsed.lineCount).toBe(direct.parsed.lineCount);
  });

  it('answers null for a key it does not hold and refuses keys that leave its root', async () => {
    const store = createFileLogStore(root);
    expect(await store.open('missing')).toBeNull();
    await expect(store.open('../outside')).rejects.toThrow(/invalid storage key/);
  });
});
