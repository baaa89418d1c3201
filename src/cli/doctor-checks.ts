/** One line of `ci-replay doctor`. `required`: a failure makes doctor exit 1. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'fail' | 'warn' | 'skip';
  detail: string;
  /** How to fix a failure or warning. */
  fix?: string;
  required: boolean;
}

export const firstLine = (error: unknown): string => (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
