import { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import type { LogInput } from './types.js';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface LineBatches {
  encoding: () => TextEncoding;
  batches: AsyncGenerator<string[]>;
}

/** Longest line kept whole; longer lines are cut (a 200 MB single-line log must not take 400 MB). */
const MAX_LINE_CHARS = 64 * 1024;

function detectEncoding(head: Uint8Array): { encoding: TextEncoding; skip: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  return { encoding: 'utf-8', skip: 0 };
}

async function* chunksOf(input: LogInput): AsyncGenerator<Uint8Array | string> {
  if (typeof input === 'string') {
    yield input;
    return;
  }
  if (input instanceof Uint8Array) {
    yield input;
    return;
  }
  for await (const chunk of input as Readable) {
    yield typeof chunk === 'string' ? chunk : (chunk as Uint8Array);
  }
}

/**
 * Streams a log as batches of lines: handles a byte-order mark, UTF-16 LE/BE (with BOM) and CRLF line ends.
 * Memory stays bounded by one chunk plus one (capped) partial line.
 */
export function readLines(input: LogInput): LineBatches {
  let encoding: TextEncoding = 'utf-8';
  async function* batches(): AsyncGenerator<string[]> {
    let decoder: TextDecoder | undefined;
    let carry = '';
    let first = true;
    for await (const chunk of chunksOf(input)) {
      let text: string;
      if (typeof chunk === 'string') {
        text = first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
      } else {
        if (decoder === undefined) {
          const detected = detectEncoding(chunk);
          encoding = detected.encoding;
          decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
          text = decoder.decode(chunk.subarray(detected.skip), { stream: true });
        } else {
          text = decoder.decode(chunk, { stream: true });
        }
      }
      first = false;
      const lines = splitLines(carry + text);
      carry = lines.pop() ?? '';
      if (carry.length > MAX_LINE_CHARS) {
        lines.push(carry.slice(0, MAX_LINE_CHARS));
        carry = '';
      }
      if (lines.length > 0) yield lines;
    }
    if (decoder !== undefined) carry += decoder.decode();
    if (carry.length > 0) yield [carry.endsWith('\r') ? carry.slice(0, -1) : carry];
  }
  return { encoding: () => encoding, batches: batches() };
}

/** Splits on LF (dropping a CR before it); the last element is the unterminated rest. */
function splitLines(text: string): string[] {
  const out = text.split('\n');
  for (let i = 0; i < out.length - 1; i++) {
    const line = out[i] as string;
    if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) out[i] = line.slice(0, -1);
    if (line.length > MAX_LINE_CHARS) out[i] = (out[i] as string).slice(0, MAX_LINE_CHARS);
  }
  return out;
}

export const toReadable = (text: string): Readable => Readable.from([Buffer.from(text, 'utf8')]);
