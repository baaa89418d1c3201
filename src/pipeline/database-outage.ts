import type { Logger } from 'pino';
import type { Repositories } from '../db/index.js';
import { SUBMISSION_STATES, isTerminal } from '../domain/states.js';
import { retryDuringOutage } from './retry-outage.js';

const NON_TERMINAL_STATES = SUBMISSION_STATES.filter((state) => !isTerminal(state));

/**
 * Ends a submission whose work waited for the database past DB_OUTAGE_DEADLINE_MINUTES: `infra_error` with reason
 * `database_unavailable`, visible in the API and the reports (never a silently failed queue job). Only a
 * submission that has not finished moves. The write itself needs the database: callers retry it while it is away.
 */
export async function endForDatabaseOutage(repos: Pick<Repositories, 'submissions'>, submissionId: string, deadlineMinutes: number): Promise<boolean> {
  return repos.submissions.transition(submissionId, NON_TERMINAL_STATES, 'infra_error', {
    verdict: 'invalid',
    outcome: 'infra_error',
    reason: 'database_unavailable',
    errorMessage: `the database was unavailable for more than ${deadlineMinutes} minutes (DB_OUTAGE_DEADLINE_MINUTES)`,
    completedAt: new Date(),
  });
}

/**
 * The same, from inside a job that must finish it itself (the local run is over, but some of its events could
 * not be recorded before the deadline): waits for the database as long as it takes.
 */
export async function endAfterLostEvents(repos: Pick<Repositories, 'submissions'>, submissionId: string, deadlineMinutes: number, logger: Logger): Promise<void> {
  logger.error({ submissionId }, 'the run completed but its completion could not be recorded before the database outage deadline; the submission ends infra_error');
  await retryDuringOutage(() => endForDatabaseOutage(repos, submissionId, deadlineMinutes), { deadlineMs: Number.POSITIVE_INFINITY, logger, what: 'end the submission' });
}
