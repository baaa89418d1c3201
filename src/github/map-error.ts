import { AppError, invalidInput, rateLimited, transient } from '../errors.js';

interface RequestFailure {
  status: number;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
  request?: { method?: string; url?: string };
}

function isRequestFailure(error: unknown): error is RequestFailure {
  return typeof error === 'object' && error !== null && 'status' in error && typeof (error as { status: unknown }).status === 'number' && 'request' in error;
}


/** Whether a failed response is a rate limit (primary or secondary), and how long to wait. */
export function rateLimitWait(status: number, headers: Record<string, string | number | undefined>, now = Date.now()): number | null {
  const retryAfter = headers['retry-after'];
  if (status === 429 || (status === 403 && retryAfter !== undefined)) return Math.max(1, Number(retryAfter ?? 60)) * 1000;
  if (status === 403 && String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset'] ?? 0) * 1000;
    return Math.max(1000, reset - now + 1000);
  }
  return null;
}

/**
 * Maps an Octokit request error to the typed errors of src/errors.ts (decided by status and headers only):
 * 5xx, network and 409 (repository being created) → transient; 403 secondary / 429 / exhausted primary →
 * rate_limited with retryAfterMs; 422 → invalid_input; 401, 403, 404 and other 4xx → permanent.
 */
export function mapGithubError(error: unknown): unknown {
  if (error instanceof AppError || !isRequestFailure(error)) return error;
  // Thrown by the client's own fetch (the installation's budget is spent): Octokit wraps it as a 500.
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof AppError) return cause;
  const where = `${error.request?.method ?? 'GET'} ${(error.request?.url ?? '').replace(/\?.*$/, '')}`;
  const status = error.status;
  const wait = rateLimitWait(status, error.response?.headers ?? {});
  if (wait !== null) return rateLimited(`GitHub rate limit on ${where}`, wait, error);
  if (status >= 500 || status === 0 || status === 409) return transient(status === 409 ? 'github_conflict' : 'github_unavailable', `GitHub answered ${status} to ${where}`, error);
  if (status === 422) {
    const mapped = invalidInput('github_unprocessable', `GitHub rejected ${where} (422)`, error.response?.data, 422);
    return Object.assign(mapped, { cause: error });
  }
  const code = status === 404 ? 'github_not_found' : status === 401 ? 'github_unauthorized' : status === 403 ? 'github_forbidden' : 'github_client_error';
  return new AppError('permanent', `GitHub answered ${status} to ${where}`, { code, status, cause: error });
}

