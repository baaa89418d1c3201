import { REASON_CODES, type ReasonCode } from './states.js';

/**
 * What the local executor itself observed about one job (src/executor: JobResult.infraError, timedOut,
 * timedOutSteps), kept by the local backend next to the job's log. A step can print any line into its log, the
 * executor's own messages included ("The step exceeded the memory limit", "The job running on runner … has exceeded
 * the maximum execution time", "services are not supported by the local executor"); the outcome judge believes such a
 * message on the local backend only where this report says the executor wrote it.
 */
export interface ExecutorJobReport {
  /** The job's first platform failure: its reason code, the message the executor logged, and the step (1 = Set up job). */
  infraError: { reason: ReasonCode; message: string; stepNumber: number } | null;
  /** The job was stopped at its `timeout-minutes`. */
  timedOut: boolean;
  /** Steps stopped at their own `timeout-minutes`. */
  timedOutSteps: number[];
}

const isReason = (value: unknown): value is ReasonCode => typeof value === 'string' && (REASON_CODES as readonly string[]).includes(value);

/** Reads a stored report back; anything malformed is null (the judge then believes none of the executor's messages). */
export function readExecutorReport(value: unknown): ExecutorJobReport | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const timedOut = record.timedOut === true;
  const timedOutSteps = Array.isArray(record.timedOutSteps) ? record.timedOutSteps.filter((n): n is number => Number.isInteger(n)) : [];
  const raw = record.infraError;
  if (raw === null || raw === undefined) return { infraError: null, timedOut, timedOutSteps };
  if (typeof raw !== 'object') return null;
  const error = raw as Record<string, unknown>;
  if (!isReason(error.reason) || typeof error.message !== 'string' || !Number.isInteger(error.stepNumber)) return null;
  return { infraError: { reason: error.reason, message: error.message, stepNumber: error.stepNumber as number }, timedOut, timedOutSteps };
}
