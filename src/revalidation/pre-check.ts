import type { Logger } from 'pino';
import { checkInstance, type InstanceCheckDeps, type InstanceCheckResult } from '../instances-check/index.js';
import type { Evidence } from './judge.js';

/** What an instance check found before any replay: the verdict it settles at once, with evidence; null to replay. */
export type PreCheck = (instanceId: string) => Promise<{ result: 'broken' | 'unreplayable'; evidence: Evidence[] } | null>;

/** Evidence of a failed instance check (src/instances-check), in the judge's terms. */
export function checkEvidence(check: InstanceCheckResult): Evidence[] {
  const evidence: Evidence[] = [];
  const missing = [check.commits.shaFail, check.commits.shaSuccess].filter((commit) => commit !== null && !commit.found);
  for (const commit of missing) evidence.push({ finding: 'commit_missing', side: commit === check.commits.shaFail ? 'baseline' : 'reference', message: commit?.message ?? `commit ${commit?.sha ?? ''} not found` });
  if (check.groundTruth.status === 'failed') evidence.push({ finding: 'ground_truth_does_not_apply', side: 'reference', message: check.groundTruth.message ?? 'the ground truth does not apply at sha_fail' });
  if (check.workflow.status === 'failed') evidence.push({ finding: 'workflow_invalid', side: 'baseline', message: check.workflow.message ?? 'the workflow does not standardize' });
  if (check.preflight.status === 'failed') evidence.push({ finding: 'preflight_blocked', side: 'baseline', message: check.preflight.message ?? check.preflight.blockers.map((blocker) => blocker.code).join(', ') });
  if (evidence.length === 0) evidence.push({ finding: check.problem === 'unreplayable' ? 'preflight_blocked' : 'commit_missing', side: 'baseline', message: check.reasons[0] ?? check.problem });
  return evidence;
}

/**
 * The worker's pre-check: `checkInstance` (part A) before a re-validation's first replay, so a broken or unreplayable
 * instance costs no replay. An unreachable upstream (transient) or a failing check proves nothing: the replays run.
 */
export function instanceCheckGate(deps: InstanceCheckDeps, logger: Logger): PreCheck {
  return async (instanceId) => {
    const instance = await deps.repos.instances.get(instanceId);
    if (instance === null) return null;
    let check: InstanceCheckResult;
    try {
      check = await checkInstance(deps, instance);
    } catch (error) {
      logger.warn({ err: error, instanceId }, 'instance check before re-validation failed: replaying instead');
      return null;
    }
    if (check.problem !== 'broken' && check.problem !== 'unreplayable') return null;
    return { result: check.problem, evidence: checkEvidence(check) };
  };
}
