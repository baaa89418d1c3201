import type { Logger } from 'pino';
import { isOutage } from '../queue/index.js';

export interface OutageRetryOptions {
  /** Give up (rethrow) once the database has been away this long. */
  deadlineMs: number;
  logger: Logger;
  /** What is being retried, for the log. */
  what: string;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Runs `work`, and while it fails because the database is unavailable, waits and runs it again (1 s doubling up
 * to 15 s) until it succeeds or the deadline passes. For work that cannot be handed back to the queue, such as
 * recording the events of a run the local executor is performing right now. Other errors are rethrown at once.
 */
export async function retryDuringOutage<T>(work: () => Promise<T>, options: OutageRetryOptions): Promise<T> {
  const since = Date.now();
  let delay = options.baseDelayMs ?? 1000;
  for (let tries = 1; ; tries += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isOutage(error) || Date.now() - since >= options.deadlineMs) throw error;
      options.logger.warn({ code: 'database_unavailable', what: options.what, tries, delayMs: delay }, 'database unavailable; retrying');
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, options.maxDelayMs ?? 15_000);
    }
  }
}
