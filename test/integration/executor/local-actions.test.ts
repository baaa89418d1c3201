import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

// `uses: ./path`: actions of the checked-out repository, read from the workspace when their step runs (host mode;
// JavaScript and Docker ones in a job container: test/integration/container/local-actions-container.test.ts).
let repo: FixtureRepo;

const LOCAL_ACTION_FILES: Record<string, string> = {
  '.github/actions/js-greet/action.yml': [
    'name: js greet', 'inputs:', '  who:', '    required: true', '  punctuation:', '    default: "!"',
    'outputs:', '  message:', '    description: the greeting', 'runs:', '  using: node20', '  main: main.js', '',
  ].join('\n'),
  '.github/actions/js-greet/main.js': [
    "const fs = require('fs');",
    "const message = `Hello, ${process.env.INPUT_WHO}${process.env['INPUT_PUNCTUATION']}`;",
    'console.log(message);',
    "console.log(`repository=[${process.env.GITHUB_ACTION_REPOSITORY}] ref=[${process.env.GITHUB_ACTION_REF}] path-ok=${process.env.GITHUB_ACTION_PATH === __dirname}`);",
    "fs.appendFileSync(process.env.GITHUB_OUTPUT, `message=${message}\\n`);",
    '',
  ].join('\n'),
  '.github/actions/composite/action.yml': [
    'name: composite', 'inputs:', '  who:', '    required: true',
    'outputs:', '  shout:', '    value: ${{ steps.upper.outputs.shout }}',
    'runs:', '  using: composite', '  steps:',
    '    - id: greet', '      uses: ./.github/actions/js-greet', '      with:', '        who: ${{ inputs.who }}', "        punctuation: '?'",
    '    - id: upper', '      shell: bash', '      run: echo "shout=$(echo \'${{ steps.greet.outputs.message }}\' | tr a-z A-Z)" >> "$GITHUB_OUTPUT"',
    '',
  ].join('\n'),
};

beforeAll(() => {
  repo = createFixtureRepo({ ...LOCAL_ACTION_FILES, 'README.md': 'fixture\n' });
});
afterAll(() => repo?.cleanup());

describe('local actions (uses: ./path)', () => {
  it('runs a JavaScript action and a composite action calling it from the checked-out repository', async () => {
    const { result, log } = await runFixtureWorkflow(repo, `
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: js
        uses: ./.github/actions/js-greet
        with:
          who: Ada
      - id: comp
        uses: ./.github/actions/composite/
        with:
          who: Bob
      - run: echo "js=\${{ steps.js.outputs.message }} composite=\${{ steps.comp.outputs.shout }}"
`);
    const text = log('build');
    const lines = logLines(text);
    expect(result.jobs[0]?.conclusion, text).toBe('success');
    expect(lines).toContain('##[group]Run ./.github/actions/js-greet');
    expect(lines).toContain('Hello, Ada!');
    expect(lines).toContain('repository=[] ref=[] path-ok=true');
    expect(lines).toContain('Hello, Bob?');
    expect(lines).toContain('js=Hello, Ada! composite=HELLO, BOB?');
  });

  it('fails the step with GitHub\'s message when the action is not in the workspace (no checkout)', async () => {
    const { result, log } = await runFixtureWorkflow(repo, `
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: ./.github/actions/js-greet
        with:
          who: Ada
      - if: always()
        run: echo after
`);
    const text = log('build');
    expect(result.jobs[0]?.conclusion).toBe('failure');
    expect(text).toMatch(/##\[error\]Can't find 'action.yml', 'action.yaml' or 'Dockerfile' under '\S+\/\.github\/actions\/js-greet'\. Did you forget to run actions\/checkout before running your local action\?/);
    expect(logLines(text)).toContain('after');
    expect(result.jobs[0]?.infraError ?? null).toBeNull();
  });
});
