import type { ReasonCode } from '../../../domain/states.js';
import type { LogLine } from '../../types.js';

/**
 * Where a rule looks:
 * - `job`: the runner's own `##[error]` lines anywhere in the log (a job timeout, a lost runner): they decide
 *   the whole job, whatever its steps printed;
 * - `setup`: the lines of a failed `Set up job` (the job never reached its first step);
 * - `step`: the output of the step whose failure ended the job (the first failed step).
 */
export type RuleScope = 'job' | 'setup' | 'step';

/**
 * When a `step` rule's match decides the job (see README "Outcomes", precedence):
 * - `always`: the match is the cause whatever else the step printed (a full disk, an unsupported feature);
 * - `exit-127`: decisive when the step exited 127 (the shell could not find the command); otherwise like `unexplained`;
 * - `exit-137`: only when the step was killed (exit 137), never otherwise;
 * - `unexplained`: only when no test, lint, format, type-check, syntax or configuration failure of the step's own
 *   tools explains its exit. Install failures (resolver, download, build) never explain a network error away: a
 *   `No matching distribution found` next to `Failed to establish a new connection` is the network; without any
 *   network line it is the repository's dependency problem (`failed`).
 */
export type Precedence = 'always' | 'exit-127' | 'exit-137' | 'unexplained';

/**
 * Who writes the lines a rule matches:
 * - `runner`: only the runner (GitHub's, or the local executor) writes them: time limits, a lost runner, the local
 *   executor's step limits, sandbox, set-up-job and unsupported-feature messages. A step can print the same text, so
 *   on a backend whose executor reports what it observed (the local one), such a match decides only when that
 *   report confirms it (same reason, same step); on GitHub the log is all there is.
 * - `step`: the output of the step's own programs (a full disk, an OOM kill, a missing command, an unreachable
 *   network, sudo refusing): judged from the log on every backend.
 */
export type Issuer = 'runner' | 'step';

export interface OutcomeRule {
  id: string;
  outcome: 'infra_error' | 'timed_out';
  reason: ReasonCode;
  scope: RuleScope;
  precedence: Precedence;
  issuer: Issuer;
  /** When set, the step's script (its `Run` group) must match too: the output means this only for such commands. */
  script?: RegExp;
  /** Lines that prove the rule (timestamps and ANSI codes already stripped); `undefined` when it does not apply. */
  match: (lines: readonly LogLine[]) => LogLine[] | undefined;
  /** A realistic excerpt (the step's command and its output) with where such output was seen: the rule's unit test. */
  example: { command: string; lines: string[]; exitCode?: number; source: string };
}

export const MAX_MATCHES = 3;

/** The first lines matching `pattern` (and `accept`, when given). */
export function lines(pattern: RegExp, accept?: (m: RegExpExecArray) => boolean): OutcomeRule['match'] {
  return (input) => {
    const found: LogLine[] = [];
    for (const line of input) {
      const m = pattern.exec(line.text);
      if (m === null || (accept !== undefined && !accept(m))) continue;
      found.push(line);
      if (found.length >= MAX_MATCHES) break;
    }
    return found.length > 0 ? found : undefined;
  };
}
