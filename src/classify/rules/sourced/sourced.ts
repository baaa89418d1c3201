import type { ErrorType } from '../../../domain/error-types.js';
import { outputRule, type Rule } from '../rule.js';

/**
 * A rule for one message a tool prints when it fails, as the tool's source (or documentation) words it; the example
 * is that message with its placeholders filled in. Its command is a wrapper, so nothing but the output decides.
 */
export const sourced = (id: string, type: ErrorType, tool: string, linePattern: RegExp, example: string, yieldsTo?: readonly ErrorType[]): Rule =>
  outputRule(`src-${id}`, type, tool, linePattern, example, yieldsTo === undefined ? {} : { yieldsTo });
