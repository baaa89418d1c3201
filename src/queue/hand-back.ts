/**
 * Thrown by a processor that gives its job back instead of finishing it: the worker returns the job to the queue,
 * without spending an attempt, to be taken again after `delayMs` (0: at once) by any worker. Used when the worker is
 * shutting down past its grace period (the lease released first), and when another live worker holds the lease of
 * the job's submission (the job looks again once that lease could have expired).
 */
export class HandBack extends Error {
  constructor(
    readonly reason: string,
    readonly delayMs = 0,
  ) {
    super(`job handed back: ${reason}`);
    this.name = 'HandBack';
  }
}

export const isHandBack = (error: unknown): error is HandBack => error instanceof HandBack;
