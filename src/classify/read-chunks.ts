import { TextDecoder } from 'node:util';
import type { ChunkSource, LogInput } from './types.js';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface ChunkReader {
  encoding: () => TextEncoding;
  /** UTF-8 bytes of the log without a byte-order mark, in the chunks the source delivered. */
  chunks: AsyncGenerator<Buffer>;
  /**
   * The caller no longer points into this chunk (nor any slice of it): a source that reuses memory (`ChunkSource`)
   * may read later bytes into it. Nothing for other sources.
   */
  release: (chunk: Buffer) => void;
}

const isChunkSource = (input: LogInput): input is ChunkSource => typeof (input as Partial<ChunkSource>).release === 'function';

function detectEncoding(head: Uint8Array): { encoding: TextEncoding; skip: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  return { encoding: 'utf-8', skip: 0 };
}

async function* sourceChunks(input: LogInput): AsyncGenerator<Buffer> {
  if (typeof input === 'string') {
    yield Buffer.from(input, 'utf8');
    return;
  }
  if (input instanceof Uint8Array) {
    yield Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    return;
  }
  for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
    yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
  }
}

/**
 * Streams a log as UTF-8 byte chunks: strips a byte-order mark and transcodes UTF-16 LE/BE (with BOM). Lines are
 * split by the caller, so no per-line strings are made for lines nobody reads.
 */
export function readChunks(input: LogInput): ChunkReader {
  let encoding: TextEncoding = 'utf-8';
  async function* chunks(): AsyncGenerator<Buffer> {
    let decoder: TextDecoder | undefined;
    let first = true;
    let head: Buffer = Buffer.alloc(0);
    for await (const raw of sourceChunks(input)) {
      let chunk = raw;
      if (first) {
        // A BOM needs up to 3 bytes: wait for them.
        head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
        if (head.length < 3) continue;
        first = false;
        const detected = detectEncoding(head);
        encoding = detected.encoding;
        chunk = head.subarray(detected.skip);
        if (encoding !== 'utf-8') decoder = new TextDecoder(encoding, { ignoreBOM: true });
      }
      if (decoder === undefined) {
        yield chunk;
        continue;
      }
      const text = decoder.decode(chunk, { stream: true });
      // the decoder keeps what it needs of a character cut at the chunk's end: the raw chunk is free
      release(raw);
      yield Buffer.from(text, 'utf8');
    }
    if (first && head.length > 0) {
      const detected = detectEncoding(head);
      yield head.subarray(detected.skip);
    }
    if (decoder !== undefined) {
      const rest = decoder.decode();
      if (rest.length > 0) yield Buffer.from(rest, 'utf8');
    }
  }
  const release = (chunk: Buffer): void => {
    if (isChunkSource(input)) input.release(chunk);
  };
  return { encoding: () => encoding, chunks: chunks(), release };
}
