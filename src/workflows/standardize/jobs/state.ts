/** The per-job state the job filter works on, and the mapping of step purposes to removal rules. */
import type { YAMLMap } from 'yaml';
import type { RemovalRule, ReportEntry } from '../../types.js';
import type { StepPurpose } from '../../classify/index.js';
import type { GuardContext } from '../../guards.js';

export interface Drop {
  /** `soft`: a kept job that needs it keeps it; `hard`: jobs that need it go too. */
  strength: 'hard' | 'soft';
  rule: RemovalRule;
  reason: string;
  evidence: string;
}

/** A step removed from the job (what the job decisions read). */
export interface Removal {
  rule: RemovalRule;
  detail: string;
  evidence: string;
  /** Whether the step ran unconditionally (or only upstream): a repository write that always runs makes the job a bot. */
  unconditional: boolean;
  /** A step that served the job's other steps (a path filter), not what the job is for. */
  incidental?: boolean;
}

export interface JobState {
  id: string;
  node: YAMLMap;
  drop: Drop | undefined;
  /** Step-level entries, reported only if the job stays. */
  pending: ReportEntry[];
  needs: string[];
  aggregator: boolean;
  removals: Removal[];
  /** The upstream-only clause removed from the job's `if:` (`github.repository == 'o/r'`), if any. */
  upstreamGuard: string | undefined;
  /** The job's `if:` ran it only for pull requests (its pull-request clauses were removed). */
  pullRequestOnly: boolean;
  /** Steps that obtain cloud or app credentials (kept until the job's other steps are judged). */
  credentialSteps: Array<{ step: YAMLMap; target: string; label: string; detail: string; evidence: string }>;
}

export interface JobsContext {
  guards: GuardContext;
  /** Whether a job that stays downloads artifacts (then uploads stay). */
  keepUploads: boolean;
  /** The workflow runs only on schedule, dispatch or repository events (no push, pull request or call). */
  maintenanceOnly: boolean;
  /** The original step positions (for report targets). */
  stepIndex: (step: unknown, fallback: number) => number;
  /** The upstream repository (`owner/name`): checking it out is checking out the commit under test. */
  upstreamRepository?: string | undefined;
  /** Judges a call of a local reusable workflow by what the callee does once standardized. */
  judgeCallee?: ((path: string, inputs: Readonly<Record<string, unknown>>) => CalleeVerdict) | undefined;
}

export type CalleeVerdict =
  | { kind: 'validates' }
  | { kind: 'nothing-to-validate'; reason: string }
  | { kind: 'unknown' };

export function ruleOfPurpose(purpose: StepPurpose): RemovalRule {
  switch (purpose) {
    case 'publish':
    case 'registry-login':
      return 'publishing';
    case 'release':
      return 'release';
    case 'pages':
    case 'deploy':
      return 'deployment';
    case 'notification':
      return 'notification';
    case 'coverage-upload':
      return 'coverage-upload';
    case 'artifact-upload':
      return 'artifact-upload';
    case 'repo-write':
      return 'repo-write';
    case 'security-upload':
      return 'security-upload';
    case 'debug-session':
      return 'debug-session';
    case 'benchmark-service':
      return 'benchmark-service';
    case 'external-upload':
      return 'publishing';
    case 'cloud-credentials':
    case 'credentials':
      return 'secret-bound';
    case 'setup':
    case 'work':
      return 'no-validation-left';
  }
}

/** The rule a guard's drop reason stands for. */
export function ruleOfGuardDrop(reason: string): RemovalRule {
  if (reason.includes('schedule')) return 'schedule-only';
  if (reason.includes('repository variable')) return 'upstream-only';
  if (reason.includes('tags') || reason.includes('release')) return 'release-only';
  return 'event-only';
}
