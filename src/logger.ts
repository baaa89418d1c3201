import { pino, type Logger } from 'pino';

/** Paths redacted from every log line (secrets never reach logs). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-hub-signature-256"]',
  'headers.authorization',
  '*.token',
  '*.password',
  '*.privateKey',
  '*.webhookSecret',
  'token',
  'password',
  '*.*.token',
  '*.*.password',
  '*.*.privateKey',
  '*.headers.authorization',
  '*.request.headers.authorization',
  'err.request.headers.authorization',
  'err.response.headers.authorization',
];

export function createLogger(options: { level: string; pretty?: boolean; destination?: NodeJS.WritableStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'ci-replay' },
    },
    options.destination ?? process.stderr,
  );
}
