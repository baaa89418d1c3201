import type { DeliveryHook } from '../../pipeline/deliveries.js';
import { requestRerun } from '../../pipeline/request-rerun.js';
import { RERUN_ACTION } from './check-run.js';

/**
 * A re-run asked for on the ci-replay check run: its "Re-run" action (`check_run` / `requested_action`, identifier
 * `rerun`) or GitHub's own "Re-run" button of a check run (`check_run` / `rerequested`). Either becomes a new
 * submission (`requestRerun`: attempt + 1, idempotent per original and attempt), which goes through admission.
 */
export const rerunDeliveryHook: DeliveryHook = async (delivery, deps, logger) => {
  if (delivery.event !== 'check_run') return 'ignored';
  const payload = delivery.payload as { check_run?: { external_id?: string | null; name?: string; app?: { id?: number } | null }; requested_action?: { identifier?: string } };
  const viaAction = delivery.action === 'requested_action' && payload.requested_action?.identifier === RERUN_ACTION.identifier;
  if (!viaAction && delivery.action !== 'rerequested') return 'ignored';
  const submissionId = payload.check_run?.external_id ?? null;
  if (submissionId === null || !/^[0-9a-f-]{36}$/i.test(submissionId)) return 'ignored';
  const rerun = await requestRerun(deps, submissionId, logger, viaAction ? 'check run action' : 'check run re-run button');
  return rerun === null ? 'ignored' : 'processed';
};
