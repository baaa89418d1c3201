import type { CorpusCase } from '../case.js';
import { ENVIRONMENT_CASES, MIXED_CASES } from './environment.js';
import { INSTALL_CASES } from './install.js';
import { QUALITY_CASES } from './quality.js';
import { TEST_CASES } from './tests.js';

export const CASES: CorpusCase[] = [...QUALITY_CASES, ...TEST_CASES, ...INSTALL_CASES, ...ENVIRONMENT_CASES, ...MIXED_CASES];
