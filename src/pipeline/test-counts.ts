import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { normalizeLine } from '../classify/normalize-line.js';

/** Test counts read from the summary lines of a job log (pytest, tox running pytest, unittest). */
export interface TestCounts {
  /** Tests that ran to a verdict: passed, failed, xpassed (pytest); ran minus skipped and expected failures (unittest). */
  executed: number;
  /** The summary lines the counts come from, as printed (for the report). */
  summaries: string[];
}

const PYTEST_WORDS = 'passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun|reruns|subtests? passed|subtests? failed|subtests? skipped';
const PYTEST_PART = new RegExp(`^(\\d+) (${PYTEST_WORDS})$`);
/** `==== 1 failed, 12 passed, 1 skipped in 0.50s ====`, `12 passed in 0.12s (0:00:00)`, `no tests ran in 0.01s`. */
const PYTEST_SUMMARY = /^=*\s*(no tests ran|(?:\d+ [a-z ]+?)(?:, \d+ [a-z ]+?)*) in [\d.]+s(?: \([\d:.]+\))?\s*=*$/;
const UNITTEST_RAN = /^Ran (\d+) tests? in [\d.]+s$/;
const UNITTEST_RESULT = /^(OK|FAILED)(?: \((.*)\))?$/;

/**
 * Reads the test summaries of one log line by line. Returns null when the log holds none (the job ran no test
 * runner that prints one), so "no summary" is never mistaken for "0 tests".
 */
export async function countTestsInLog(log: Readable): Promise<TestCounts | null> {
  const counts: TestCounts = { executed: 0, summaries: [] };
  let ran: number | null = null;
  let found = false;
  for await (const raw of createInterface({ input: log, crlfDelay: Infinity })) {
    const line = normalizeLine(raw).text.trim();
    if (line === '') continue;
    if (ran !== null) {
      const result = UNITTEST_RESULT.exec(line);
      if (result !== null) {
        const options = parseOptions(result[2] ?? '');
        counts.executed += Math.max(0, ran - (options.get('skipped') ?? 0) - (options.get('expected failures') ?? 0));
        counts.summaries.push(`Ran ${ran} tests: ${line}`);
        found = true;
        ran = null;
        continue;
      }
    }
    const unittest = UNITTEST_RAN.exec(line);
    if (unittest !== null) {
      ran = Number(unittest[1]);
      continue;
    }
    const executed = pytestExecuted(line);
    if (executed === null) continue;
    counts.executed += executed;
    counts.summaries.push(line.replace(/^=+\s*|\s*=+$/g, ''));
    found = true;
  }
  return found ? counts : null;
}

/** The executed count of a pytest summary line, or null when the line is not one. */
export function pytestExecuted(line: string): number | null {
  const match = PYTEST_SUMMARY.exec(line);
  if (match?.[1] === undefined) return null;
  if (match[1] === 'no tests ran') return 0;
  let executed = 0;
  for (const part of match[1].split(', ')) {
    const word = PYTEST_PART.exec(part);
    if (word === null) return null;
    if (word[2] === 'passed' || word[2] === 'failed' || word[2] === 'xpassed') executed += Number(word[1]);
  }
  return executed;
}

/** `failures=1, errors=2, skipped=3, expected failures=1` → counts by name. */
function parseOptions(text: string): Map<string, number> {
  const options = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name = '', value = ''] = part.split('=');
    if (name.trim() !== '' && /^\d+$/.test(value.trim())) options.set(name.trim(), Number(value.trim()));
  }
  return options;
}
