/** What makes a replay show that the instance's own data is broken (it cannot be prepared, whatever the world does). */
export interface BrokenCause {
  finding: 'commit_missing' | 'ground_truth_does_not_apply' | 'workflow_invalid';
  message: string;
}

interface ReplayFacts {
  kind: 'baseline' | 'reference';
  state?: string;
  outcome?: string | null;
  reason?: string | null;
  errorMessage?: string | null;
  reasonDetails?: unknown;
}

/** Error codes of the git and workflow layers (src/git, src/workflows) that say the instance's data is at fault. */
const CODES: Record<string, BrokenCause['finding']> = {
  commit_not_found: 'commit_missing',
  not_a_commit: 'commit_missing',
  base_missing: 'commit_missing',
  invalid_workflow: 'workflow_invalid',
  nothing_to_validate: 'workflow_invalid',
  unknown_template: 'workflow_invalid',
  missing_placeholder: 'workflow_invalid',
  unknown_placeholder: 'workflow_invalid',
  invalid_template: 'workflow_invalid',
};

/**
 * A prepare failure keeps only git's or the standardizer's message (src/pipeline/prepare.ts): these are the
 * messages of the permanent errors above (src/git/objects.ts, mirror-cache.ts, apply-patch, src/workflows/parse.ts,
 * standardize, templates).
 */
const MESSAGES: [RegExp, BrokenCause['finding']][] = [
  [/upstream does not have|commit_not_found|is not a commit|base commit \S+ is not in the mirror|not our ref/i, 'commit_missing'],
  [/is not valid YAML|is not a workflow|no validation jobs left|invalid_workflow|has no placeholder|needs a value for|there is no workflow template/i, 'workflow_invalid'],
];

const codeOf = (details: unknown): string | undefined =>
  typeof details === 'object' && details !== null && 'code' in details && typeof details.code === 'string' ? details.code : undefined;

/** The broken-data cause a replay shows, or null (it ran, or it stopped for the platform's reasons). */
export function brokenCause(replay: ReplayFacts): BrokenCause | null {
  const message = replay.errorMessage ?? '';
  if (replay.state === 'patch_failed' || replay.outcome === 'patch_failed') {
    return {
      finding: 'ground_truth_does_not_apply',
      message: replay.kind === 'reference' ? `the ground truth does not apply at sha_fail${message === '' ? '' : `: ${message}`}` : `the unpatched commit could not be prepared${message === '' ? '' : `: ${message}`}`,
    };
  }
  if (replay.outcome !== 'infra_error' && replay.state !== 'infra_error') return null;
  if (replay.reason !== null && replay.reason !== undefined && !['infra_error', 'prepare_failed'].includes(replay.reason)) return null;
  const code = codeOf(replay.reasonDetails);
  const byCode = code === undefined ? undefined : CODES[code];
  if (byCode !== undefined) return { finding: byCode, message: message === '' ? code ?? byCode : message };
  for (const [pattern, finding] of MESSAGES) if (pattern.test(message)) return { finding, message };
  return null;
}
