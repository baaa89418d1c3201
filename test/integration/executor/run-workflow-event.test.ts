import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, printedFile, printFile, runFixtureWorkflow } from '../../support/executor-fixtures.js';
import { assertWebhookMatchesSchema } from '../../support/github-sim/schema/assert-matches-schema.js';

const MESSAGE = 'Fix the parser: handle CRLF\n\nLonger body, line two.';

const git = (cwd: string, env: Record<string, string>, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { PATH: '/usr/bin:/bin', HOME: cwd, ...env } }).trim();

let repo: FixtureRepo;
let parent: string;
let rootSha: string;
beforeAll(() => {
  const base = createFixtureRepo({ 'src/a.txt': 'a\n', 'src/b.txt': 'b\n' });
  parent = base.sha;
  rootSha = git(base.gitDir, {}, 'rev-parse', 'HEAD~1');
  writeFileSync(join(base.gitDir, 'README.md'), '# changed\n');
  writeFileSync(join(base.gitDir, 'new.txt'), 'new\n');
  rmSync(join(base.gitDir, 'src/a.txt'));
  git(base.gitDir, {}, 'add', '-A');
  git(base.gitDir, {
    GIT_AUTHOR_NAME: 'Ada Lovelace', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_AUTHOR_DATE: '2024-03-05T10:20:30+01:00',
    GIT_COMMITTER_NAME: 'Grace Hopper', GIT_COMMITTER_EMAIL: 'grace@example.com', GIT_COMMITTER_DATE: '2024-03-06T08:00:00+00:00',
  }, 'commit', '-q', '-m', MESSAGE);
  repo = { ...base, sha: git(base.gitDir, {}, 'rev-parse', 'HEAD') };
});
afterAll(() => repo.cleanup());

/** A workflow whose job prints GITHUB_EVENT_PATH into its log (the run directory is removed afterwards). */
const copyEvent = (out: string, on: string, extraSteps = ''): string => `
on: ${on}
jobs:
  show:
    runs-on: ubuntu-latest
    steps:
      - run: ${printFile('"$GITHUB_EVENT_PATH"', out)}
${extraSteps}`;

describe('runWorkflow: github.event and GITHUB_EVENT_PATH', () => {
  it('push: expressions see the real commit, the event file holds the push payload GitHub documents', async () => {
    const out = 'push-event';
    const { result, log } = await runFixtureWorkflow(repo, `
on: push
jobs:
  gated:
    if: github.event_name == 'push' && github.event.head_commit.author.email == 'ada@example.com'
    runs-on: ubuntu-latest
    env:
      MSG: \${{ github.event.head_commit.message }}
    steps:
      - run: printf 'msg=%s\\n' "$MSG"
      - run: echo "before=\${{ github.event.before }} after=\${{ github.event.after }} pusher=\${{ github.event.pusher.name }}"
      - run: ${printFile('"$GITHUB_EVENT_PATH"', out)}
  not-dispatch:
    if: github.event_name == 'workflow_dispatch'
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`);
    expect(result.conclusion).toBe('success');
    expect(result.jobs.map((j) => `${j.key}=${j.conclusion}`)).toEqual(['gated=success', 'not-dispatch=skipped']);
    const lines = logLines(log('gated'));
    expect(lines).toContain('msg=Fix the parser: handle CRLF');
    expect(lines).toContain('Longer body, line two.');
    expect(lines).toContain(`before=${parent} after=${repo.sha} pusher=octo`);

    const payload = JSON.parse(printedFile(log('gated'), out)) as Record<string, unknown>;
    expect(payload).toMatchObject({
      ref: 'refs/heads/main', before: parent, after: repo.sha, created: false, deleted: false, forced: false, base_ref: null,
      compare: `https://github.com/octo/fixture/compare/${parent.slice(0, 12)}...${repo.sha.slice(0, 12)}`,
      repository: { name: 'fixture', full_name: 'octo/fixture', owner: { login: 'octo' }, default_branch: 'main', clone_url: 'https://github.com/octo/fixture.git' },
      sender: { login: 'octo' },
    });
    const head = {
      id: repo.sha, tree_id: git(repo.gitDir, {}, 'rev-parse', `${repo.sha}^{tree}`), distinct: true, message: MESSAGE,
      timestamp: '2024-03-06T08:00:00+00:00', url: `https://github.com/octo/fixture/commit/${repo.sha}`,
      author: { name: 'Ada Lovelace', email: 'ada@example.com', date: '2024-03-05T10:20:30+01:00' },
      committer: { name: 'Grace Hopper', email: 'grace@example.com', date: '2024-03-06T08:00:00+00:00' },
      added: ['new.txt'], removed: ['src/a.txt'], modified: ['README.md'],
    };
    expect(payload.head_commit).toEqual(head);
    expect(payload.commits).toEqual([head]);
    expect(() => assertWebhookMatchesSchema('push', null, payload)).not.toThrow();
  });

  // (no schema check here: the fixture's own commits have the address `t@e`, which the schema's email format rejects)
  it('push of a root commit: before is all zeros and the push counts as created', async () => {
    const out = 'root-event';
    const { result, log } = await runFixtureWorkflow({ ...repo, sha: rootSha }, copyEvent(out, 'push'));
    expect(result.conclusion).toBe('success');
    const payload = JSON.parse(printedFile(log('show'), out)) as Record<string, unknown>;
    expect(payload).toMatchObject({ before: '0'.repeat(40), after: rootSha, created: true, head_commit: { message: 'initial', added: ['README.md'] } });
    expect(payload.compare).toBe(`https://github.com/octo/fixture/commit/${rootSha.slice(0, 12)}`);
  });

  it('workflow_dispatch: the payload has the declared input defaults, the ref and the workflow path', async () => {
    const out = 'dispatch-event';
    const on = `
  workflow_dispatch:
    inputs:
      level:
        default: debug
      dry-run:
        type: boolean
        default: true`;
    const { result, log } = await runFixtureWorkflow(
      repo,
      copyEvent(out, on, `      - run: echo "level=\${{ github.event.inputs.level }} name=\${{ github.event_name }} ref=\${{ github.event.ref }}"\n`),
      { eventName: 'workflow_dispatch' },
    );
    expect(result.conclusion).toBe('success');
    expect(logLines(log('show'))).toContain('level=debug name=workflow_dispatch ref=refs/heads/main');
    const payload = JSON.parse(printedFile(log('show'), out)) as Record<string, unknown>;
    expect(payload).toMatchObject({ inputs: { level: 'debug', 'dry-run': 'true' }, ref: 'refs/heads/main', workflow: '.github/workflows/ci.yml' });
    expect(payload).not.toHaveProperty('head_commit');
    expect(() => assertWebhookMatchesSchema('workflow_dispatch', null, payload)).not.toThrow();
  });
});
