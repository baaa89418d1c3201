import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { transient } from '../errors.js';

/**
 * Records staged on disk between reading a request and writing it to the database in one transaction: memory holds
 * one write buffer and one read chunk, whatever the request's size. Records are structured-cloned (dates survive).
 */
export interface Spool<T> {
  /** Records written so far. */
  readonly count: number;
  write(record: T): Promise<void>;
  /** The records in write order, in chunks of at most `maxRecords` records and about `maxBytes` bytes; may be read again. */
  chunks(limits?: { maxRecords?: number; maxBytes?: number }): AsyncGenerator<T[]>;
  /** Removes the file; the spool is unusable afterwards. */
  dispose(): Promise<void>;
}

const WRITE_BUFFER_BYTES = 256 * 1024;
const READ_BUFFER_BYTES = 256 * 1024;
const FRAME_HEADER = 4;

/** Creates an empty spool in a private temporary directory (`dir`, default the system's). */
export async function createSpool<T>(dir = tmpdir()): Promise<Spool<T>> {
  const folder = await io(() => mkdtemp(join(dir, 'ci-replay-spool-')));
  const file = join(folder, 'records');
  let handle: FileHandle | null = await io(() => open(file, 'w+', 0o600));
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let count = 0;

  const flush = async (): Promise<void> => {
    if (pendingBytes === 0 || handle === null) return;
    const buffers = pending;
    pending = [];
    pendingBytes = 0;
    const target = handle;
    await io(() => target.writev(buffers));
  };

  return {
    get count() {
      return count;
    },
    async write(record) {
      if (handle === null) throw new Error('the spool was disposed');
      const body = serialize(record);
      const header = Buffer.allocUnsafe(FRAME_HEADER);
      header.writeUInt32BE(body.length);
      pending.push(header, body);
      pendingBytes += FRAME_HEADER + body.length;
      count += 1;
      if (pendingBytes >= WRITE_BUFFER_BYTES) await flush();
    },
    async *chunks(limits = {}) {
      const maxRecords = limits.maxRecords ?? 250;
      const maxBytes = limits.maxBytes ?? 8 * 1024 * 1024;
      await flush();
      if (handle === null) throw new Error('the spool was disposed');
      const reader = handle;
      // One read buffer, reused (grown only for a record larger than it): reading allocates nothing but the records.
      let buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
      let start = 0;
      let end = 0;
      let position = 0;
      /** Makes at least `bytes` unread bytes available; false at the end of the file. */
      const fill = async (bytes: number): Promise<boolean> => {
        if (end - start >= bytes) return true;
        if (bytes > buffer.length) {
          const larger = Buffer.allocUnsafe(Math.max(bytes, buffer.length * 2));
          buffer.copy(larger, 0, start, end);
          buffer = larger;
        } else {
          buffer.copy(buffer, 0, start, end);
        }
        end -= start;
        start = 0;
        while (end < bytes) {
          const { bytesRead } = await io(() => reader.read(buffer, end, buffer.length - end, position));
          if (bytesRead === 0) return false;
          end += bytesRead;
          position += bytesRead;
        }
        return true;
      };
      let chunk: T[] = [];
      let chunkBytes = 0;
      while (await fill(FRAME_HEADER)) {
        const length = buffer.readUInt32BE(start);
        if (!(await fill(FRAME_HEADER + length))) throw new Error('the spool file ends inside a record');
        chunk.push(deserialize(buffer.subarray(start + FRAME_HEADER, start + FRAME_HEADER + length)) as T);
        start += FRAME_HEADER + length;
        chunkBytes += length;
        if (chunk.length >= maxRecords || chunkBytes >= maxBytes) {
          yield chunk;
          chunk = [];
          chunkBytes = 0;
        }
      }
      if (chunk.length > 0) yield chunk;
    },
    async dispose() {
      const target = handle;
      handle = null;
      pending = [];
      await target?.close().catch(() => undefined);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A failing temporary disk (full, gone) is a passing fault of this host: the client may try again. */
async function io<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw transient('spool_unavailable', 'the request could not be staged on this server\'s temporary disk; try again', error);
  }
}
