import { createReadStream, type ReadStream } from 'node:fs';

/**
 * Bytes read from a log file at a time. Node's default (64 KiB) leaves the classifier waiting on the thread pool
 * between chunks; on the 200 MB log of bench/classify.ts a cold process took 520-550 ms with it, 420-440 ms with
 * 256 KiB and 430-510 ms with 1 MiB (whose larger chunks, pinned by a step's kept tail, also cost 5-8 MB of RSS).
 */
export const LOG_READ_BYTES = 256 * 1024;

/** A job log on disk, streamed in LOG_READ_BYTES chunks for `classifyJob` / `parseLog`. */
export const openLogFile = (path: string): ReadStream => createReadStream(path, { highWaterMark: LOG_READ_BYTES });
