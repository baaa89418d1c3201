import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchDepth } from '../../../src/executor/checkout.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd, encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
  }).trim();

// four commits: initial, fixture files, third (tagged v0.1, lightweight), fourth (tagged v0.2, annotated)
let repo: FixtureRepo;
let third: string;
let second: string;
beforeAll(() => {
  const base = createFixtureRepo({ 'a.txt': 'a\n' });
  second = base.sha;
  for (const n of ['third', 'fourth']) {
    writeFileSync(join(base.gitDir, `${n}.txt`), `${n}\n`);
    git(base.gitDir, 'add', '.');
    git(base.gitDir, 'commit', '-q', '-m', n);
  }
  third = git(base.gitDir, 'rev-parse', 'HEAD~1');
  git(base.gitDir, 'tag', 'v0.1', 'HEAD~1');
  git(base.gitDir, 'tag', '-a', '-m', 'release', 'v0.2', 'HEAD');
  repo = { ...base, sha: git(base.gitDir, 'rev-parse', 'HEAD') };
});
afterAll(() => repo.cleanup());

/** One job per checkout variant; each prints `key=value` lines about the clone. */
const probe = `
          echo "count=$(git rev-list --count HEAD)"
          echo "shallow=$(git rev-parse --is-shallow-repository)"
          echo "head=$(git rev-parse HEAD)"
          echo "branch=$(git branch --show-current) upstream=$(git rev-parse --abbrev-ref '@{upstream}' 2>/dev/null || echo none)"
          echo "tags=$(git tag | paste -sd, -)"`;

const job = (name: string, withBlock: string, extra = ''): string => `
  ${name}:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4${withBlock === '' ? '' : `\n        with:\n${withBlock}`}
      - run: |${probe}${extra}`;

describe('runWorkflow: actions/checkout fetch-depth, fetch-tags and ref like GitHub', () => {
  it('default is a shallow clone of the one commit, on the run branch, without tags or history objects', async () => {
    const { result, log } = await runFixtureWorkflow(repo, `
on: push
jobs:${job('shallow', '', `
          git cat-file -e ${third} 2>/dev/null && echo "parent=present" || echo "parent=absent"
          git describe --tags 2>/dev/null || echo "describe=failed"`)}
${job('depth2', '          fetch-depth: 2', `
          git fetch -q --unshallow origin
          echo "unshallowed=$(git rev-list --count HEAD) $(git rev-parse --is-shallow-repository)"`)}
${job('full', "          fetch-depth: '0'\n          path: sub", '').replace('- run: |', '- working-directory: sub\n        run: |')}
          git describe --tags
          echo "remote=$(git branch -r | tr -d ' ' | paste -sd, -)"
`);
    expect(result.conclusion).toBe('success');
    const shallow = logLines(log('shallow'));
    expect(shallow).toEqual(expect.arrayContaining([
      'count=1', 'shallow=true', `head=${repo.sha}`, 'branch=main upstream=origin/main', 'tags=', 'parent=absent', 'describe=failed',
      `[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +${repo.sha}:refs/remotes/origin/main`,
      '[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main',
    ]));
    const depth2 = logLines(log('depth2'));
    expect(depth2).toEqual(expect.arrayContaining(['count=2', 'shallow=true', 'branch=main upstream=origin/main', 'unshallowed=4 false']));
    const full = logLines(log('full'));
    expect(full).toEqual(expect.arrayContaining(['count=4', 'shallow=false', `head=${repo.sha}`, 'branch=main upstream=origin/main', 'tags=v0.1,v0.2', 'v0.2', 'remote=origin/main']));
  });

  it('fetch-tags brings the tags of the fetched commits; ref: <sha> checks that commit out detached; a second checkout replaces the first', async () => {
    const { result, log } = await runFixtureWorkflow(repo, `
on: push
jobs:${job('tags', "          fetch-depth: 2\n          fetch-tags: true")}
${job('pinned', `          ref: ${third}`)}
${job('pinned-full', `          ref: ${second}\n          fetch-depth: 0`)}
${job('twice', '').replace('      - run: |', '      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 3\n      - run: |')}
`);
    expect(result.conclusion).toBe('success');
    expect(logLines(log('tags'))).toEqual(expect.arrayContaining(['count=2', 'shallow=true', 'tags=v0.1,v0.2']));
    expect(logLines(log('pinned'))).toEqual(expect.arrayContaining(['count=1', 'shallow=true', `head=${third}`, 'branch= upstream=none', 'tags=']));
    expect(logLines(log('twice'))).toEqual(expect.arrayContaining(['count=3', 'shallow=true', 'branch=main upstream=origin/main']));
    expect(logLines(log('pinned-full'))).toEqual(expect.arrayContaining(['count=2', 'shallow=false', `head=${second}`, 'branch= upstream=none']));
  });

  it('reads fetch-depth as actions/checkout does', () => {
    expect([undefined, '', ' ', '1', '2', '0', '3.7', '-1', 'all'].map(fetchDepth)).toEqual([1, 1, 1, 1, 2, 0, 3, 0, 0]);
  });
});
