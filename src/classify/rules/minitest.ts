import type { Rule } from './rule.js';

/** Minitest (Rails, plain Ruby): its summary, its errors and its failed assertions (tried among the test runners). */
export const MINITEST_RULES: Rule[] = [
  {
    // Minitest (Rails): `N runs, N assertions, N failures, N errors, N skips`.
    id: 'minitest-summary',
    type: 'Test Failure',
    tool: 'minitest',
    linePattern: /^\d{1,7} (?:runs|tests), \d{1,7} assertions, (?:[1-9]\d{0,6} failures, \d{1,7} errors|\d{1,7} failures, [1-9]\d{0,6} errors)\b/,
    example: { command: 'bin/rails test', lines: ['16 runs, 3 assertions, 3 failures, 13 errors, 0 skips'] },
  },
  {
    // Minitest prints `Error:`, the test (`Class#test_name:`), then what it raised; a failed assertion follows
    // `Failure:` and the test's `Class#test_name [path:line]:`.
    id: 'minitest-error',
    type: 'Runtime Error',
    tool: 'minitest',
    linePattern: /^(?:[A-Z]\w{0,100}::){0,10}[A-Z]\w{0,100}?(?:Error|Exception|NotFound|Invalid)\w{0,100}: /,
    previousPattern: /^(?:[A-Z]\w*::)*[A-Z]\w*#\S+:$/,
    context: { before: 2 },
    example: { command: 'bin/rails test', lines: ['Error:', 'Admin::StocksTest#test_visiting_the_index:', "NameError: undefined local variable or method `admin_stocks_url' for an instance of Admin::StocksTest"] },
  },
  {
    id: 'minitest-failure',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'minitest',
    linePattern: /^(?:[A-Z][^#[]*#[^[]+ \[[^\]]+:\d+\]:?$|[Ee]xpected\b)/,
    previousPattern: /^\s*(?:\d+\) )?Failure:$/,
    context: { before: 1, after: 2 },
    example: { command: 'bin/rails test', lines: ['Failure:', 'StocksTest#test_update [test/stocks_test.rb:12]:', 'Expected: 200', '  Actual: 404'] },
  },
];
