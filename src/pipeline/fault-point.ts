import type { Logger } from 'pino';
import type { Config, FaultStep } from '../config.js';

/**
 * A place in the pipeline where a fault test can stop a worker (FAULT_PAUSE_AT, NODE_ENV=test only): the worker logs
 * `fault pause` with the step and the submission and then waits, holding its job and lease, until the test kills
 * it. Without the setting (always in production) it returns at once.
 */
export async function faultPoint(config: Pick<Config, 'worker'>, step: FaultStep, submissionId: string, logger: Logger): Promise<void> {
  if (config.worker.faultPauseAt !== step) return;
  logger.warn({ faultPause: step, submissionId }, 'fault pause');
  await new Promise<void>(() => undefined);
}
