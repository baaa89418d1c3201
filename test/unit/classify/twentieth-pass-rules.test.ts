import { describe, expect, it } from 'vitest';
import { tailTypes } from './tail-types.js';

/** Rules written from the twentieth collection pass's tuning logs (issue 16); the lines are shaped after them. */
describe('twentieth pass: rules from real logs', () => {
  it.each([
    ["a file command's failure as copied logs render it", ["Error: Unable to process file command 'output' successfully.", "Error: Invalid format 'Maven home: /usr/share/maven'"], ['Configuration Error']],
    ['configure-aws-credentials with no credentials to load', ['Run aws-actions/configure-aws-credentials@v4', 'Error: Credentials could not be loaded, please check your action inputs: Could not load credentials from any providers'], ['Configuration Error']],
    ["Travis's stalled-build limit", ['No output has been received in the last 10m0s, this potentially indicates a stalled build or something wrong with the build itself.', 'Check the details on how to adjust your build configuration on: https://docs.travis-ci.com/user/common-build-problems/#build-times-out-because-no-output-was-received', 'The build has been terminated'], ['Environment Error']],
    ['a cancelled GitLab job', ['Pulling docker image registry.gitlab.com/gitlab-org/gitlab-runner/gitlab-runner-helper:x86_64-v16.0.0 ...', '  ERROR: Job failed: canceled'], ['Environment Error']],
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it.each([
    ['a script that prints a file-command error as text', ["echo \"Error: Unable to process file command 'output'\""]],
    ['a GitLab job that failed for its script', ['$ make test', 'ERROR: Job failed: exit code 2', 'note: the previous job was canceled']],
    ['credentials mentioned in a passing step', ['Note: credentials could not be loaded from the cache, fetching them']],
  ] as const)('not: %s', async (_what, lines) => {
    expect(await tailTypes([...lines])).toEqual([]);
  });
});
