/**
 * Input hygiene for anything a client sends: Postgres refuses text with a NUL character (`\u0000`, in text and
 * jsonb alike), strings that are not valid UTF-16 (a lone surrogate) cannot be encoded as UTF-8, nesting
 * thousands deep overflows the stack of every recursive reader after JSON.parse (serializers, Prisma), and a
 * single oversized field is never legitimate. Such input is refused before anything is written.
 */
export interface HygieneLimits {
  /** Deepest nesting of objects and arrays (the top-level value is depth 1). */
  maxDepth: number;
  /** Longest string value, in UTF-16 code units (documents excepted, see documentFields). */
  maxStringLength: number;
  /** Longest object key. */
  maxKeyLength: number;
  /**
   * Keys whose string values are documents (a patch, a workflow, a log): their size is checked where they are
   * read, with their own limit and answer (PATCH_MAX_BYTES → 413 `patch_too_large`), and by the body limit.
   */
  documentFields: readonly string[];
}

export const DEFAULT_HYGIENE_LIMITS: HygieneLimits = {
  maxDepth: 64,
  maxStringLength: 64 * 1024,
  maxKeyLength: 1024,
  // Instance rows may also carry their lists as JSON-encoded strings (logs, subtasks, test ids, changed files).
  documentFields: ['patch', 'diff', 'workflow', 'log', 'logs', 'subtasks', 'testPatch', 'test_patch', 'base_passing_tests', 'changed_files'],
};

export type HygieneCode = 'invalid_characters' | 'nesting_too_deep' | 'field_too_large';

export interface HygieneProblem {
  code: HygieneCode;
  /** Where, e.g. `body.metadata.notes` or `query.cursor`. */
  path: string;
  message: string;
}

/** A NUL, or a surrogate that is not part of a pair (the string is not well-formed UTF-16). */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or null when it can. */
export function textProblem(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (found === null) return null;
  return found[0] === '\u0000' ? 'contains a NUL character (\\u0000)' : 'is not valid Unicode (a lone surrogate)';
}

interface Frame {
  value: unknown;
  depth: number;
  key: string | number | null;
  parent: Frame | null;
}

const SIMPLE_KEY = /^[A-Za-z_$][\w$-]*$/;

function pathOf(frame: Frame, root: string): string {
  const parts: string[] = [];
  for (let at: Frame | null = frame; at !== null && at.key !== null; at = at.parent) {
    // JSON.stringify escapes NUL and lone surrogates: the path is safe to send back and to log.
    parts.push(typeof at.key === 'number' ? `[${at.key}]` : SIMPLE_KEY.test(at.key) ? `.${at.key}` : `[${JSON.stringify(at.key.slice(0, 64))}]`);
  }
  return root + parts.reverse().join('');
}

/**
 * The first problem in a parsed JSON value (or a query / params object), or null. Iterative: a value nested
 * 100,000 deep is reported, not a stack overflow.
 */
export function findInputProblem(value: unknown, root: string, limits: HygieneLimits = DEFAULT_HYGIENE_LIMITS): HygieneProblem | null {
  const stack: Frame[] = [{ value, depth: 1, key: null, parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem !== null) return { code: 'invalid_characters', path: pathOf(frame, root), message: `${pathOf(frame, root)} ${problem}` };
      if (current.length > limits.maxStringLength && !(typeof frame.key === 'string' && limits.documentFields.includes(frame.key))) {
        return { code: 'field_too_large', path: pathOf(frame, root), message: `${pathOf(frame, root)} is longer than ${limits.maxStringLength} characters` };
      }
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (frame.depth > limits.maxDepth) return { code: 'nesting_too_deep', path: pathOf(frame, root), message: `${pathOf(frame, root)} is nested deeper than ${limits.maxDepth} levels` };
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], depth: frame.depth + 1, key: index, parent: frame });
      continue;
    }
    for (const [key, child] of Object.entries(current)) {
      const at: Frame = { value: child, depth: frame.depth + 1, key, parent: frame };
      const problem = textProblem(key);
      if (problem !== null) return { code: 'invalid_characters', path: pathOf(at, root), message: `the key ${pathOf(at, root)} ${problem}` };
      if (key.length > limits.maxKeyLength) return { code: 'field_too_large', path: pathOf(frame, root), message: `${pathOf(frame, root)} has a key longer than ${limits.maxKeyLength} characters` };
      stack.push(at);
    }
  }
  return null;
}

/** Removes what Postgres cannot store from a text value derived from untrusted input (NUL dropped, lone surrogates replaced). */
export function storableText(text: string): string {
  if (textProblem(text) === null) return text;
  return text.replace(/\u0000/g, '').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
