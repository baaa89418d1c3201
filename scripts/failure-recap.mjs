// What `npm test` (scripts/test-lanes.mjs) repeats at the end of a run about a lane that failed, so that the tail of a
// CI log (often all that is kept) says which test failed and why, not only that a lane did.

const ANSI = /\u001b\[[0-9;]*m/g;
/** vitest's section headers: `⎯⎯⎯ Failed Tests 2 ⎯⎯⎯`, `⎯⎯⎯ Unhandled Errors ⎯⎯⎯`, `⎯⎯⎯ Failed Suites 1 ⎯⎯⎯`. */
const SECTION = /⎯{2,}\s*(Failed Tests|Failed Suites|Unhandled Errors?)\b/;
/** The run's closing summary; its lines are kept, the section before it ends there. */
const SUMMARY = /^\s*(Test Files|Tests|Errors)\s{2,}/;
/** A failed test in the per-file listing (`× name 12ms`) or a file with failures (`❯ file (3 tests | 1 failed)`). */
const FAILED_LINE = /^\s*(×|✗|FAIL\s)|^\s*❯ .*\bfailed\b/;
/** A source frame under an error (`    12| code`, `     |    ^`): the file:line above it says where. */
const CODE_FRAME = /^\s*\d*\s*\|/;
/** A rule between vitest's errors (`⎯⎯⎯⎯[1/2]⎯`): says nothing once the sections are repeated on their own. */
const RULE = /^⎯+(\[\d+\/\d+\])?⎯*$/;

/**
 * Keeps what a lane printed about its failures: each failing test's line, vitest's failure sections (the failing
 * test, its error and stack, without the source frames) and the closing summary. ANSI colours are removed. At most
 * `limit` lines; past it the count of lines left out.
 */
export function failureRecap(limit = 80) {
  const lines = [];
  let inSection = false;
  let dropped = 0;
  return {
    lines,
    add(line) {
      const text = line.replace(ANSI, '').trimEnd();
      if (SECTION.test(text)) inSection = true;
      const summary = SUMMARY.test(text);
      if (summary) inSection = false;
      if (!(inSection || summary || FAILED_LINE.test(text)) || CODE_FRAME.test(text) || text === '' || RULE.test(text)) return;
      if (lines.length >= limit) {
        dropped += 1;
        lines[limit] = `… and ${dropped} more line(s): see the lane's output above`;
        return;
      }
      lines.push(text);
    },
  };
}
