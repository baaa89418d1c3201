import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';

/**
 * Rules from the eighth pass's tuning-half misses (issue 16), as benchmark-style tails (no step header, no markers,
 * the job known to have failed), and the lines that must not label.
 */
const tailTypes = async (lines: string[]): Promise<string[]> =>
  (await classifyJob({ log: [...lines, 'Process completed with exit code 1.'].join('\n'), jobConclusion: 'failure' })).labels.map((label) => label.type).sort();

describe('eighth pass: rules from real logs', () => {
  it("chai's assertion message (vitest, mocha) is a failed assertion in a failed test", async () => {
    expect(await tailTypes(["AssertionError: expected null to be 'value' // Object.is equality", '- Expected: ', '"value"'])).toEqual(['Assertion Error', 'Test Failure']);
    // A bare AssertionError (Python's assert in a script, node:assert) says nothing of a test.
    expect(await tailTypes(['AssertionError: config must name a region'])).toEqual(['Assertion Error']);
  });

  it('Minitest: the summary, what a test raised, and a failed assertion', async () => {
    const log = [
      'Error:',
      'Admin::StocksTest#test_visiting_the_index:',
      "NameError: undefined local variable or method `admin_stocks_url' for an instance of Admin::StocksTest",
      '    test/system/admin/stocks_test.rb:9:in `block in <class:StocksTest>\'',
      'Failure:',
      'ProductsTest#test_should_create_product [test/system/products_test.rb:14]:',
      'expected to find visible css "h1" with text "Products" but there were no matches.',
      '16 runs, 3 assertions, 3 failures, 13 errors, 0 skips',
    ];
    expect(await tailTypes(log)).toEqual(['Assertion Error', 'Runtime Error', 'Test Failure']);
    expect(await tailTypes(['16 runs, 40 assertions, 0 failures, 0 errors, 0 skips'])).toEqual([]);
    // `Error:` and an exception without the test's name between them is not Minitest's report.
    expect(await tailTypes(['Error:', 'TypeError: x is not a function'])).not.toContain('Test Failure');
  });

  it('exit code 126: the command was found but could not run', async () => {
    expect(await tailTypes(['/home/runner/work/_temp/1b2c.sh: line 1: ./gradlew: Permission denied', 'Process completed with exit code 126.'])).toEqual(['Environment Error']);
  });
});
