import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({
    '.github/workflows/reusable.yml': `
name: Reusable
on:
  workflow_call:
    inputs:
      greeting:
        type: string
        default: hello
      count:
        type: number
        default: 3
    outputs:
      answer:
        value: \${{ jobs.second.outputs.answer }}
env:
  CALLEE_ENV: callee
jobs:
  first:
    runs-on: ubuntu-latest
    outputs:
      v: \${{ steps.s.outputs.v }}
    steps:
      - id: s
        run: echo "v=from-first" >> "$GITHUB_OUTPUT"
  second:
    name: Second job
    needs: first
    runs-on: ubuntu-latest
    outputs:
      answer: \${{ steps.a.outputs.answer }}
    steps:
      - id: a
        run: |
          echo "inputs=\${{ inputs.greeting }}/\${{ inputs.count }} needs=\${{ needs.first.outputs.v }} env=$CALLEE_ENV caller=\${CALLER_ENV:-unset} job=$GITHUB_JOB"
          echo "answer=42" >> "$GITHUB_OUTPUT"
`,
  });
});
afterAll(() => repo.cleanup());

describe('runWorkflow: local reusable workflows', () => {
  it('inlines the called jobs, passes inputs and exposes the outputs to dependents', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
env:
  CALLER_ENV: caller
jobs:
  prep:
    runs-on: ubuntu-latest
    outputs:
      g: \${{ steps.g.outputs.g }}
    steps:
      - id: g
        run: echo "g=hi" >> "$GITHUB_OUTPUT"
  call:
    needs: prep
    uses: ./.github/workflows/reusable.yml
    with:
      greeting: \${{ needs.prep.outputs.g }}
  after:
    needs: call
    runs-on: ubuntu-latest
    steps:
      - run: echo "result=\${{ needs.call.result }} answer=\${{ needs.call.outputs.answer }}"
  missing:
    uses: ./.github/workflows/nope.yml
  remote:
    uses: octo/other/.github/workflows/x.yml@main
`,
    );
    expect(result.jobs.map((j) => `${j.name}=${j.conclusion}`)).toEqual([
      'prep=success',
      'call / first=success',
      'call / Second job=success',
      'after=success',
      'missing=failure',
      'remote=failure',
    ]);
    expect(logLines(log('call / Second job'))).toContain('inputs=hi/3 needs=from-first env=callee caller=unset job=second');
    expect(logLines(log('after'))).toContain('result=success answer=42');
    expect(logLines(log('missing'))).toContain('##[error]reusable workflow not found: ./.github/workflows/nope.yml');
    expect(logLines(log('remote'))).toContain(
      '##[error]reusable workflows from other repositories are not supported by the local executor: octo/other/.github/workflows/x.yml@main',
    );
    expect(result.conclusion).toBe('failure');
  });
});
