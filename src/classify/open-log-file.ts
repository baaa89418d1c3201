import { createReadStream, type ReadStream } from 'node:fs';

/**
 * Bytes read from a log file at a time. Node's default (64 KiB) leaves the classifier waiting on the thread pool
 * between chunks for about a third of its time on a 200 MB log (bench/classify.ts); 1 MiB keeps the next read in
 * flight while a chunk is parsed, and stays within the memory bound (two chunks at most are held).
 */
export const LOG_READ_BYTES = 1 << 20;

/** A job log on disk, streamed in LOG_READ_BYTES chunks for `classifyJob` / `parseLog`. */
export const openLogFile = (path: string): ReadStream => createReadStream(path, { highWaterMark: LOG_READ_BYTES });
