import { describe, expect, it } from 'vitest';
import { deletionReport, renderReport, selectWorkflowFilesToDelete } from '../../../src/workflows/index.js';

const call = (path: string): string => `on: push\njobs:\n  a:\n    uses: ./${path}\n`;
const plain = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: "true"\n';

describe('selectWorkflowFilesToDelete', () => {
  it('keeps the target and the reusable workflows it calls transitively', () => {
    const files = [
      { path: '.github/workflows/ci.yml', text: call('.github/workflows/_tests.yml') },
      { path: '.github/workflows/_tests.yml', text: call('.github/workflows/_setup.yaml') },
      { path: '.github/workflows/_setup.yaml', text: plain },
      { path: '.github/workflows/release.yml', text: call('.github/workflows/_build.yml') },
      { path: '.github/workflows/_build.yml', text: plain },
      { path: '.github/workflows/codeql.yml', text: 'not: [valid' },
      { path: '.github/workflows/README.md', text: '# docs' },
      { path: '.github/workflows/scripts/matrix.py', text: 'print()' },
    ];
    expect(selectWorkflowFilesToDelete('.github/workflows/ci.yml', files)).toEqual([
      '.github/workflows/_build.yml',
      '.github/workflows/codeql.yml',
      '.github/workflows/release.yml',
    ]);
  });

  it('follows calls in a workflow that does not parse, by text', () => {
    const files = [
      { path: '.github/workflows/ci.yml', text: `${call('.github/workflows/_t.yml')}  bad: [\n` },
      { path: '.github/workflows/_t.yml', text: plain },
    ];
    expect(selectWorkflowFilesToDelete('./.github/workflows/ci.yml', files)).toEqual([]);
  });

  it('reports deletions', () => {
    expect(deletionReport(['.github/workflows/a.yml'], '.github/workflows/ci.yml')).toEqual([
      { action: 'deleted-workflow', target: '.github/workflows/a.yml', reason: 'not .github/workflows/ci.yml nor a reusable workflow it calls' },
    ]);
  });
});

describe('renderReport', () => {
  it('renders sections in a fixed order and escapes table cells', () => {
    const markdown = renderReport([
      { action: 'added-setting', target: 'permissions', reason: 'contents: read' },
      { action: 'removed-job', target: 'jobs.deploy', reason: 'deploy | publish' },
    ]);
    expect(markdown).toBe([
      '## Workflow standardization',
      '',
      '### Removed jobs (1)',
      '',
      '| Target | Reason |',
      '| --- | --- |',
      '| `jobs.deploy` | deploy \\| publish |',
      '',
      '### Added settings (1)',
      '',
      '| Target | Reason |',
      '| --- | --- |',
      '| `permissions` | contents: read |',
      '',
    ].join('\n'));
    expect(renderReport([])).toBe('## Workflow standardization\n\nNothing was changed.\n');
  });
});
