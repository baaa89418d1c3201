import type { z } from 'zod';
import { invalidInput } from '../errors.js';

/** Parses a request part with zod, or throws a 400 naming each bad field. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'query' | 'params' | 'headers'): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message }));
  throw invalidInput('invalid_request', issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), { issues });
}
