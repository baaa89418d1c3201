import type { Readable } from 'node:stream';
import { invalidInput } from '../errors.js';

export interface ReadLinesOptions {
  /** A longer line is refused (memory stays bounded by one line). */
  maxLineBytes: number;
  /** The whole stream may not exceed this many bytes. */
  maxTotalBytes?: number;
  /** Sees every chunk as it is read (e.g. to hash the exact bytes of a request). */
  onChunk?: (chunk: Buffer) => void;
  /**
   * When reading stops before the end (a limit, or the caller stopped): with this set, the rest of the stream is
   * read and discarded, up to this many further bytes, so that an HTTP client still gets the answer instead of a
   * reset connection; beyond it (or without it) the stream is destroyed.
   */
  drainBytes?: number;
}

/** Yields the lines of a UTF-8 stream (LF or CRLF) with their 1-based numbers, holding at most one line in memory. */
export async function* readLines(stream: Readable, options: ReadLinesOptions): AsyncGenerator<{ line: string; number: number }> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  let number = 0;
  let finished = false;
  const emit = (): string => {
    const text = Buffer.concat(pending, pendingBytes).toString('utf8');
    pending = [];
    pendingBytes = 0;
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  try {
    for await (const raw of stream.iterator({ destroyOnReturn: false })) {
      const chunk: Buffer = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
      total += chunk.length;
      if (options.maxTotalBytes !== undefined && total > options.maxTotalBytes) {
        throw invalidInput('body_too_large', `the request body exceeds ${options.maxTotalBytes} bytes (BODY_LIMIT_BYTES); nothing was written: split it into smaller requests`, { limitBytes: options.maxTotalBytes }, 413);
      }
      options.onChunk?.(chunk);
      let start = 0;
      for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, start)) {
        pending.push(chunk.subarray(start, index));
        pendingBytes += index - start;
        checkLine(pendingBytes, number + 1, options.maxLineBytes);
        number += 1;
        yield { line: emit(), number };
        start = index + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        checkLine(pendingBytes, number + 1, options.maxLineBytes);
      }
    }
    if (pendingBytes > 0) {
      number += 1;
      yield { line: emit(), number };
    }
    finished = true;
  } finally {
    if (!finished) abandon(stream, options.drainBytes);
  }
}

function checkLine(bytes: number, line: number, max: number): void {
  if (bytes <= max) return;
  throw invalidInput('line_too_large', `line ${line} is longer than ${max} bytes; nothing was written`, undefined, 413);
}

/** Discards the unread rest of a stream (up to `drainBytes`), or destroys it. */
function abandon(stream: Readable, drainBytes: number | undefined): void {
  if (drainBytes === undefined || stream.destroyed || stream.readableEnded) {
    stream.destroy();
    return;
  }
  let drained = 0;
  stream.on('error', () => undefined);
  stream.on('data', (chunk: Buffer | string) => {
    drained += chunk.length;
    if (drained > drainBytes) stream.destroy();
  });
  stream.resume();
}
