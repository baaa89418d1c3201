import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorType } from '../../src/domain/error-types.js';
import { REAL_CORPUS_DIR } from '../../test/unit/classify/real-corpus-metrics.js';

/** What the rules of `rules` (a commit, or `working-tree`) said of a tuning log they had not been written for. */
export interface PreRuleReading {
  rules: string;
  whole: ErrorType[];
  tail: ErrorType[];
}

/** Written by pre-rule-readings.ts, keyed by the corpus file. */
export const PRE_RULE_READINGS_FILE = join(REAL_CORPUS_DIR, 'pre-rule-readings.json');

export const loadPreRuleReadings = (): Record<string, PreRuleReading> =>
  existsSync(PRE_RULE_READINGS_FILE) ? (JSON.parse(readFileSync(PRE_RULE_READINGS_FILE, 'utf8')) as Record<string, PreRuleReading>) : {};
