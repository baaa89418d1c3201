import type { Readable } from 'node:stream';
import { invalidInput } from '../errors.js';

export interface ReadLinesOptions {
  /** A longer line is refused (memory stays bounded by one line). */
  maxLineBytes: number;
  /** The whole stream may not exceed this many bytes. */
  maxTotalBytes?: number;
}

/** Yields the lines of a UTF-8 stream (LF or CRLF) with their 1-based numbers, holding at most one line in memory. */
export async function* readLines(stream: Readable, options: ReadLinesOptions): AsyncGenerator<{ line: string; number: number }> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  let number = 0;
  const emit = (): string => {
    const text = Buffer.concat(pending, pendingBytes).toString('utf8');
    pending = [];
    pendingBytes = 0;
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for await (const raw of stream) {
    const chunk: Buffer = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
    total += chunk.length;
    if (options.maxTotalBytes !== undefined && total > options.maxTotalBytes) {
      stream.destroy();
      throw invalidInput('body_too_large', `the request body exceeds ${options.maxTotalBytes} bytes`, undefined, 413);
    }
    let start = 0;
    for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, index));
      pendingBytes += index - start;
      checkLine(pendingBytes, number + 1, options.maxLineBytes, stream);
      number += 1;
      yield { line: emit(), number };
      start = index + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      checkLine(pendingBytes, number + 1, options.maxLineBytes, stream);
    }
  }
  if (pendingBytes > 0) {
    number += 1;
    yield { line: emit(), number };
  }
}

function checkLine(bytes: number, line: number, max: number, stream: Readable): void {
  if (bytes <= max) return;
  stream.destroy();
  throw invalidInput('line_too_large', `line ${line} is longer than ${max} bytes`, undefined, 413);
}
