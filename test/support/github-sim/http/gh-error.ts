/** An error answered in GitHub's shape: `{ message, documentation_url, status }`. */
export class GhError extends Error {
  readonly status: number;
  readonly documentationUrl: string;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(status: number, message: string, options: { documentationUrl?: string; headers?: Record<string, string>; extra?: Record<string, unknown> } = {}) {
    super(message);
    this.status = status;
    this.documentationUrl = options.documentationUrl ?? 'https://docs.github.com/rest';
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  body(): Record<string, unknown> {
    return { message: this.message, documentation_url: this.documentationUrl, status: String(this.status), ...this.extra };
  }
}

export const notFoundError = (): GhError => new GhError(404, 'Not Found');
export const validationError = (message: string, errors?: unknown[]): GhError =>
  new GhError(422, message, { extra: errors ? { errors } : {} });
