/**
 * Thrown by a processor that gives its job back instead of finishing it (the worker is shutting down past its grace
 * period; the processor released its lease first): the worker puts the job back at the head of the queue, without
 * spending an attempt, and the next worker takes it first.
 */
export class HandBack extends Error {
  constructor(readonly reason: string) {
    super(`job handed back: ${reason}`);
    this.name = 'HandBack';
  }
}

export const isHandBack = (error: unknown): error is HandBack => error instanceof HandBack;
