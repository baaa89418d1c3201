import type { Rule } from './rule.js';

/** A test thread's panic line up to the message (before 1.73) or the location (since). */
export const TEST_THREAD_PANICKED = String.raw`^\s*thread '(?!main'|rustc')[A-Za-z_]\w*(?:::\w+)*'(?: \(\d+\))? panicked at `;

/**
 * Rust tests' failed assertions whatever ran cargo (a wrapper script, a quoted excerpt without the command): libtest
 * names a test's thread after the test's path (`kad::tests::expire`), a Rust identifier. Not `main` (a program), not
 * `rustc` (an internal compiler error), not a spawned thread's name (`tokio-runtime-worker`, `<unnamed>`).
 */
export const RUST_TEST_ASSERTION_RULES: Rule[] = [
  {
    // Before Rust 1.73 the message is on the panic's line, since then on the next. A test's other panics stay with
    // cargo-test-panic (an explicit `panic!` is how a test fails, not a crash).
    id: 'rust-test-assertion-panic',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'cargo',
    linePattern: new RegExp(`${TEST_THREAD_PANICKED}'assertion (?:\`left [!=]= right\` )?failed`),
    context: { after: 2 },
    example: { command: './ci/test.sh', lines: ["thread 'kad::tests::expire' panicked at 'assertion failed: `(left == right)`", '  left: `0`,', " right: `2`', network/src/kad.rs:190:9"] },
  },
  {
    id: 'rust-test-assertion-panic-message',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'cargo',
    previousPattern: new RegExp(`${TEST_THREAD_PANICKED}\\S+:\\d+:\\d+:$`),
    linePattern: /^assertion (?:`left [!=]= right` )?failed/,
    context: { before: 1, after: 2 },
    example: { command: './ci/test.sh', lines: ["thread 'tests::adds' panicked at src/lib.rs:10:5:", 'assertion `left == right` failed', '  left: 4', ' right: 5'] },
  },
];
