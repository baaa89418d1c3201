import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({ 'tools/hello': '#!/bin/sh\necho hello-from-path\n' });
});
afterAll(() => repo.cleanup());

describe('runWorkflow: environment files and workflow commands', () => {
  it('applies GITHUB_ENV (multiline), GITHUB_OUTPUT, GITHUB_PATH and the step summary', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  files:
    runs-on: ubuntu-latest
    outputs:
      greeting: \${{ steps.out.outputs.greeting }}
      multi: \${{ steps.out.outputs.multi }}
    steps:
      - uses: actions/checkout@v4
      - run: |
          echo "SIMPLE=one=two" >> "$GITHUB_ENV"
          {
            echo "MULTI<<EOF"
            echo "line 1"
            echo "line 2"
            echo "EOF"
          } >> "$GITHUB_ENV"
          chmod +x tools/hello
          echo "$GITHUB_WORKSPACE/tools" >> "$GITHUB_PATH"
          echo "### Summary" >> "$GITHUB_STEP_SUMMARY"
      - id: out
        run: |
          echo "greeting=hi there" >> "$GITHUB_OUTPUT"
          printf 'multi<<XX\\na\\nb\\nXX\\n' >> "$GITHUB_OUTPUT"
          echo "::set-output name=legacy::old-style"
      - run: |
          echo "SIMPLE=$SIMPLE"
          echo "MULTI=$MULTI" | tr '\\n' '|'; echo
          hello
          echo "out=\${{ steps.out.outputs.greeting }} legacy=\${{ steps.out.outputs.legacy }}"
          echo "vars=$GITHUB_SHA $GITHUB_REF $GITHUB_REF_NAME $GITHUB_REPOSITORY $GITHUB_RUN_ID $GITHUB_RUN_ATTEMPT $GITHUB_JOB $GITHUB_EVENT_NAME $GITHUB_ACTIONS $RUNNER_OS $CI"
          test -d "$RUNNER_TEMP"
          test "$(pwd)" = "$GITHUB_WORKSPACE"
  use:
    needs: files
    runs-on: ubuntu-latest
    steps:
      - run: echo "got=\${{ needs.files.outputs.greeting }} \${{ contains(needs.files.outputs.multi, 'b') }}"
`,
    );
    expect(result.conclusion).toBe('success');
    const files = result.jobs.find((j) => j.key === 'files');
    expect(files?.outputs).toEqual({ greeting: 'hi there', multi: 'a\nb' });
    expect(files?.summary).toBe('### Summary\n');
    const lines = logLines(log('files'));
    expect(lines).toContain('SIMPLE=one=two');
    expect(lines).toContain('MULTI=line 1|line 2|');
    expect(lines).toContain('hello-from-path');
    expect(lines).toContain('out=hi there legacy=old-style');
    expect(lines.some((l) => l.startsWith('##[warning]The `set-output` command is deprecated'))).toBe(true);
    expect(lines).toContain(`vars=${repo.sha} refs/heads/main main octo/fixture ${2 ** 32 + 7} 1 files push true Linux true`);
    expect(logLines(log('use'))).toContain('got=hi there true');
  });

  it('masks values after ::add-mask::, records annotations and renders groups', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  cmds:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "before s3cr3t-value"
          echo "::add-mask::s3cr3t-value"
          echo "after s3cr3t-value"
          echo "::group::My group"
          echo inside
          echo "::endgroup::"
          echo "::error file=src/app.py,line=12,col=3,title=Bad thing::something%0Abroke"
          echo "::warning::careful"
          echo "::notice file=README.md::fyi"
          echo "::debug::hidden debug"
          echo "to stderr" >&2
`,
    );
    expect(result.conclusion).toBe('success');
    const lines = logLines(log('cmds'));
    expect(lines).toContain('before s3cr3t-value');
    expect(lines).toContain('after ***');
    expect(lines.filter((l) => l.includes('add-mask'))).toEqual(['\u001b[36;1mecho "::add-mask::s3cr3t-value"\u001b[0m']);
    const group = lines.indexOf('##[group]My group');
    expect(lines.slice(group, group + 3)).toEqual(['##[group]My group', 'inside', '##[endgroup]']);
    expect(lines).toContain('##[error]something');
    expect(lines).toContain('broke');
    expect(lines).toContain('##[warning]careful');
    expect(lines).toContain('##[notice]fyi');
    expect(lines).toContain('to stderr');
    expect(lines.filter((l) => l.includes('hidden debug'))).toHaveLength(1);
    const job = result.jobs[0];
    expect(job?.annotations).toEqual([
      { level: 'error', message: 'something\nbroke', file: 'src/app.py', line: 12, col: 3, title: 'Bad thing', stepNumber: 2 },
      { level: 'warning', message: 'careful', stepNumber: 2 },
      { level: 'notice', message: 'fyi', file: 'README.md', stepNumber: 2 },
    ]);
  });

  it('fails the step on a GITHUB_ENV heredoc without its delimiter', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  bad:
    runs-on: ubuntu-latest
    steps:
      - run: printf 'X<<EOF\\nvalue\\n' >> "$GITHUB_ENV"
`,
    );
    expect(result.jobs[0]?.steps[1]?.conclusion).toBe('failure');
    expect(logLines(log('bad'))).toContain("##[error]Matching delimiter not found 'EOF' in GITHUB_ENV");
  });
});
