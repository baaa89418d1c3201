import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { invalidInput } from '../errors.js';

/** Archive for job logs and artifacts: gzip files under DATA_DIR (an S3-compatible store can implement the same interface). */
export interface LogStore {
  put(key: string, content: Readable): Promise<{ sizeBytes: number; sha256: string }>;
  /**
   * The stored content, or null. `chunkBytes`: read, decompress and buffer this many bytes at a time (the
   * classifier passes LOG_READ_BYTES; the defaults, 64 KiB read and 16 KiB decompressed, suit readers that hold
   * many streams open at once).
   */
  open(key: string, options?: { chunkBytes?: number }): Promise<Readable | null>;
}

export function createFileLogStore(root: string): LogStore {
  const pathOf = (key: string): string => {
    const clean = normalize(key);
    if (clean.startsWith('..') || clean.startsWith('/')) throw invalidInput('invalid_key', `invalid storage key ${key}`);
    return join(root, `${clean}.gz`);
  };
  return {
    async put(key, content) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const hash = createHash('sha256');
      let sizeBytes = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
      await pipeline(content, meter, createGzip(), createWriteStream(temporary));
      await rename(temporary, target);
      return { sizeBytes, sha256: hash.digest('hex') };
    },
    async open(key, options = {}) {
      const target = pathOf(key);
      try {
        await stat(target);
      } catch {
        return null;
      }
      const chunk = options.chunkBytes;
      const buffered = chunk === undefined ? {} : { highWaterMark: chunk };
      const out = new PassThrough(buffered);
      pipeline(createReadStream(target, buffered), createGunzip(chunk === undefined ? {} : { chunkSize: chunk }), out).catch((error: unknown) => out.destroy(error as Error));
      return out;
    },
  };
}
