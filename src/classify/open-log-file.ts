import { open } from 'node:fs/promises';
import type { ChunkSource } from './types.js';

/**
 * Bytes read from a log file at a time. On the 200 MB log of bench/classify.ts (cold process, reused buffers):
 * 345-380 ms with 256 KiB, 294-334 ms with 1 MiB, at 2-3 MB more peak RSS (a step's kept tail pins the chunks it
 * points into).
 */
export const LOG_READ_BYTES = 1024 * 1024;

/** Buffers a file's reader keeps for reuse at most: a step's kept tail (1 MiB) spans a few chunks. */
const POOL_MAX = 8;

/**
 * A job log on disk for `classifyJob` / `parseLog`: its bytes in chunks (`chunkBytes`, LOG_READ_BYTES by default)
 * read with `FileHandle.read`, one read ahead so the disk and the parser overlap. The parser hands back each chunk it
 * no longer points into (`release`) and later chunks are read into that memory: through `fs.createReadStream`
 * (a new buffer per chunk) a worker that had classified a log before took 280-300 ms on the 200 MB log of
 * bench/classify.ts and peaked at 96-100 MB RSS, with reused buffers 190-220 ms and 85 MB. The file is opened on
 * the first read and closed when the reading ends, fails or is abandoned; a missing or unreadable file rejects that
 * first read with the system's error (ENOENT, EACCES, EISDIR).
 */
export function openLogFile(path: string, chunkBytes = LOG_READ_BYTES): ChunkSource {
  const mine = new WeakMap<ArrayBufferLike, Buffer>();
  const free: Buffer[] = [];
  const take = (): Buffer => {
    const reused = free.pop();
    if (reused !== undefined) return reused;
    const buffer = Buffer.allocUnsafeSlow(chunkBytes);
    mine.set(buffer.buffer, buffer);
    return buffer;
  };
  return {
    release(chunk: Buffer): void {
      const whole = mine.get(chunk.buffer);
      if (whole === undefined || free.includes(whole) || free.length >= POOL_MAX) return;
      free.push(whole);
    },
    async *[Symbol.asyncIterator]() {
      const file = await open(path, 'r');
      try {
        const read = async (): Promise<Buffer> => {
          const buffer = take();
          const { bytesRead } = await file.read(buffer, 0, chunkBytes, null);
          return buffer.subarray(0, bytesRead);
        };
        let next = read();
        for (;;) {
          const chunk = await next;
          if (chunk.length === 0) return;
          next = read();
          // a read ahead that fails after the reader stopped must not be an unhandled rejection
          next.catch(() => undefined);
          yield chunk;
        }
      } finally {
        await file.close();
      }
    },
  };
}
