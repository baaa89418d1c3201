import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { invalidInput } from '../errors.js';

/** Bytes read from an archived file at a time, and buffered for its reader. */
const READ_CHUNK_BYTES = 256 * 1024;

/** Archive for job logs and artifacts: gzip files under DATA_DIR (an S3-compatible store can implement the same interface). */
export interface LogStore {
  put(key: string, content: Readable): Promise<{ sizeBytes: number; sha256: string }>;
  open(key: string): Promise<Readable | null>;
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
    async open(key) {
      const target = pathOf(key);
      try {
        await stat(target);
      } catch {
        return null;
      }
      // Large chunks (zlib's default is 16 KiB, a file stream's 64 KiB): the classifier reads what this returns,
      // and small chunks leave it waiting on the thread pool between them (src/classify/open-log-file.ts).
      const out = new PassThrough({ highWaterMark: READ_CHUNK_BYTES });
      pipeline(createReadStream(target, { highWaterMark: READ_CHUNK_BYTES }), createGunzip({ chunkSize: READ_CHUNK_BYTES }), out).catch((error: unknown) => out.destroy(error as Error));
      return out;
    },
  };
}
