import { describe, expect, it } from 'vitest';
import { tailTypes } from './tail-types.js';

/** Rules written from the nineteenth collection pass's tuning logs (issue 16); the lines are shaped after them. */
describe('nineteenth pass: rules from real logs', () => {
  it.each([
    ["GitLab's job time limit", ['Terminated', 'ERROR: Job failed: execution took longer than 2h0m0s seconds'], ['Environment Error']],
    ['a Go toolchain that is not where the job points', ['go: cannot find GOROOT directory: /usr/local/go', "Error: The process '/usr/bin/goveralls' failed with exit code 1"], ['Environment Error']],
    ["git asking for credentials with no terminal", ['  /usr/bin/git remote prune origin', "  fatal: could not read Username for 'https://github.com/': No such device or address", "  Error: The process '/usr/bin/git' failed with exit code 128"], ['Configuration Error']],
    ["upload-artifact's failure as copied logs render it", ['Error: No files were found with the provided path: /tmp/artifacts/. No artifacts will be uploaded.'], ['Configuration Error']],
    ["D8 without multidex", ['> Task :app:mergeExtDexDebug FAILED', 'ERROR:D8: Cannot fit requested classes in a single dex file (# methods: 74322 > 65536)', 'BUILD FAILED in 1m 2s'], ['Configuration Error']],
    ["RSpec's should syntax", ['1) Proposals index should include proposals', 'Failure/Error: get_entry(:clio).should_not be_empty expected empty? to return false, got true', "# ./spec/controllers/proposals_spec.rb:252:in `block (5 levels)'"], ['Assertion Error', 'Test Failure']],
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it.each([
    ['a GitLab job that finished in time', ['Job succeeded', 'execution took 12 seconds']],
    ['a log line that quotes the time limit', ['Job succeeded', 'note: execution took longer than 60 seconds']],
    ["git's prompt wording in an unrelated message", ['could not read the config file: No such device or address']],
  ] as const)('not: %s', async (_what, lines) => {
    expect(await tailTypes([...lines])).toEqual([]);
  });

  it("RSpec's message expectation (`should_receive`) is not read as the `should` assertion syntax", async () => {
    const types = await tailTypes(['Failure/Error: foo.should_receive(:bar)', '  (Double "foo").bar(*(any args))', '    expected: 1 time with any arguments', '    received: 0 times with any arguments']);
    expect(types).not.toContain('Assertion Error');
  });
});
