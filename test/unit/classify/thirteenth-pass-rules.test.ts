import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';
import { logTypes as types, tailTypes } from './tail-types.js';

/**
 * Rules from the thirteenth pass's tuning-half misses (issue 16), and how a structured log cut inside its failing
 * step is read.
 */

describe('thirteenth pass', () => {
  it.each([
    ['deploy-pages finding two Pages artifacts', ['##[error]Multiple artifacts named "github-pages" were unexpectedly found for this workflow run. Artifact count is 2.'], ['Configuration Error']],
    ['a linker given objects built for another target', ['ld.lld: error: libavutil/timecode_internal.o is incompatible with elf_x86_64', 'clang: error: linker command failed with exit code 1 (use -v to see invocation)'], ['Configuration Error']],
    ["libtest's output names cargo test (thread ids as Rust 1.9x prints them)", ['test util::tests::test_csv_parse_2 ... ok', '', 'failures:', '', '---- management_api::tests::test_get_list stdout ----', "thread 'management_api::tests::test_get_list' (7700) panicked at src/management_api.rs:892:9:", 'assertion `left == right` failed', '  left: ["alice"]', ' right: []'], ['Assertion Error', 'Test Failure']],
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it('reads the last step of a failed job whose structured log stops before any step said it failed', async () => {
    const cut = [
      '2023-09-12T13:39:20.2735152Z ##[group]Run pytest',
      '2023-09-12T13:39:20.2735466Z pytest',
      '2023-09-12T13:39:20.2791699Z ##[endgroup]',
      '2023-09-12T13:39:21.7615135Z Fatal Python error: Segmentation fault',
      '2023-09-12T13:39:21.7616004Z Current thread 0x00007f938a108740 (most recent call first):',
    ].join('\n');
    expect(await types(cut)).toEqual(['Runtime Error']);
    // Only when the job failed: a log read without its conclusion has no failing step.
    expect((await classifyJob({ log: cut })).parsed.failedSteps).toEqual([]);
    // Not the job's set-up (a log cut there is the runner's failure) nor its clean-up.
    const setUp = ['2023-09-12T13:39:20.1Z ##[group]Operating System', '2023-09-12T13:39:20.2Z Ubuntu', '2023-09-12T13:39:20.3Z ##[endgroup]', '2023-09-12T13:39:20.4Z Error: connect ECONNREFUSED 127.0.0.1:5432'].join('\n');
    expect((await classifyJob({ log: setUp, jobConclusion: 'failure', learnedFallback: false })).parsed.failedSteps).toEqual([]);
    const cleanup = ['2023-09-12T13:39:20.2735152Z ##[group]Run pytest', '2023-09-12T13:39:20.2791699Z ##[endgroup]', '2023-09-12T13:39:21.0Z Post job cleanup.', '2023-09-12T13:39:21.1Z ##[group]Post job cleanup', '2023-09-12T13:39:21.2Z fatal: No url found for submodule path'].join('\n');
    expect((await classifyJob({ log: cleanup, jobConclusion: 'failure', learnedFallback: false })).parsed.failedSteps.map((s) => s.title)).not.toContain('Post job cleanup');
  });
});
