import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { invalidInput } from '../errors.js';
import { DEFAULT_HYGIENE_LIMITS, findInputProblem, type HygieneLimits } from '../util/input-hygiene.js';

/** Parses a request part with zod, or throws a 400 naming each bad field. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'query' | 'params' | 'headers'): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message }));
  throw invalidInput('invalid_request', issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), { issues });
}

const isStream = (value: unknown): boolean => typeof (value as { pipe?: unknown } | null)?.pipe === 'function';

/**
 * Input hygiene at the door, for every route (a preValidation hook): path parameters, the query and a parsed
 * JSON body may hold no NUL character and no lone surrogate, nest no deeper than `maxDepth`, and carry no string
 * longer than `maxStringLength` (documents such as a patch have their own limits); otherwise 400 with the
 * documented error shape, before the handler (and any write) runs. Raw bodies (webhook deliveries, JSONL streams,
 * uploads) are checked where they are read.
 */
export function inputHygieneHook(limits: HygieneLimits = DEFAULT_HYGIENE_LIMITS): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const parts: [string, unknown][] = [
      ['params', request.params],
      ['query', request.query],
    ];
    if (request.body !== undefined && !Buffer.isBuffer(request.body) && !isStream(request.body)) parts.push(['body', request.body]);
    for (const [where, value] of parts) {
      const problem = findInputProblem(value, where, limits);
      if (problem !== null) throw invalidInput(problem.code, problem.message, { path: problem.path });
    }
  };
}
