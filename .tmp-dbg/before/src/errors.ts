/**
 * Errors typed at the boundary. Retries are decided by `kind`, never by message text.
 * - invalid_input: the caller sent something wrong; never retried; HTTP 4xx.
 * - transient: a passing fault (network, 5xx, lock contention); retried with backoff.
 * - rate_limited: retry after `retryAfterMs`.
 * - permanent: will fail the same way again; not retried.
 */
export type ErrorKind = 'invalid_input' | 'transient' | 'rate_limited' | 'permanent';

export interface AppErrorOptions {
  code: string;
  status?: number;
  details?: unknown;
  retryAfterMs?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly status: number;
  readonly details: unknown;
  readonly retryAfterMs: number | undefined;

  constructor(kind: ErrorKind, message: string, options: AppErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.code = options.code;
    this.status = options.status ?? defaultStatus(kind);
    this.details = options.details;
    this.retryAfterMs = options.retryAfterMs;
  }
}

function defaultStatus(kind: ErrorKind): number {
  if (kind === 'invalid_input') return 400;
  if (kind === 'rate_limited') return 429;
  if (kind === 'transient') return 503;
  return 500;
}

export const invalidInput = (code: string, message: string, details?: unknown, status = 400): AppError =>
  new AppError('invalid_input', message, { code, details, status });

export const notFound = (what: string, id: string): AppError =>
  new AppError('invalid_input', `${what} ${id} does not exist`, { code: 'not_found', status: 404 });

export const conflict = (code: string, message: string, details?: unknown): AppError =>
  new AppError('invalid_input', message, { code, details, status: 409 });

export const transient = (code: string, message: string, cause?: unknown): AppError =>
  new AppError('transient', message, { code, cause });

export const rateLimited = (message: string, retryAfterMs: number, cause?: unknown): AppError =>
  new AppError('rate_limited', message, { code: 'rate_limited', retryAfterMs, cause });

export const permanent = (code: string, message: string, cause?: unknown): AppError =>
  new AppError('permanent', message, { code, cause });

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** Whether a failed job should be retried: only transient and rate-limited errors are. */
export function isRetryable(error: unknown): boolean {
  return isAppError(error) && (error.kind === 'transient' || error.kind === 'rate_limited');
}
