import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/executor/index.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd, encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
  }).trim();

/**
 * A benchmark repository as the local backend fills it: the upstream history up to the instance's failing commit
 * (`third`, tagged v0.1), the upstream's fix after it on main (`fix`, tagged v0.2: sha_success), a reference run's
 * branch (`ci-replay/reference/2`: the ground truth, tagged gt), and the candidate's branch being run.
 */
let repo: FixtureRepo;
let third: string;
let fix: string;
let reference: string;
let candidate: string;
beforeAll(() => {
  const base = createFixtureRepo({ 'a.txt': 'a\n' });
  const commit = (file: string, text: string): string => {
    writeFileSync(join(base.gitDir, file), text);
    git(base.gitDir, 'add', '.');
    git(base.gitDir, 'commit', '-q', '-m', file);
    return git(base.gitDir, 'rev-parse', 'HEAD');
  };
  third = commit('third.txt', 'failing\n');
  git(base.gitDir, 'tag', '-a', '-m', 'release', 'v0.1');
  fix = commit('third.txt', 'the upstream fix\n');
  git(base.gitDir, 'tag', 'v0.2');
  git(base.gitDir, 'checkout', '-q', '-b', 'ci-replay/reference/2', third);
  reference = commit('third.txt', 'GROUND-TRUTH\n');
  git(base.gitDir, 'tag', 'gt');
  git(base.gitDir, 'checkout', '-q', '-b', 'ci-replay/candidate/1', third);
  candidate = commit('candidate.txt', 'a candidate\n');
  git(base.gitDir, 'checkout', '-q', 'main');
  repo = { ...base, sha: candidate };
});
afterAll(() => repo.cleanup());

/** The probe a hostile candidate runs: every way it might reach a commit of another branch. */
const probe = (source: string) => `
          echo "count=$(git rev-list --count HEAD)"
          echo "tags=$(git tag | paste -sd, -)"
          echo "remote-branches=$(git branch -r | tr -d ' ' | paste -sd, -)"
          echo "advertised=$(git ls-remote origin | awk '{print $2}' | paste -sd, -)"
          git fetch -q origin '+refs/*:refs/remotes/x/*' && echo "fetched-all=$(git for-each-ref --format='%(refname)' refs/remotes/x | paste -sd, -)"
          for sha in ${'$'}REFERENCE ${'$'}FIX; do
            if git cat-file -e "$sha" 2>/dev/null; then echo "object $sha=present"; else echo "object $sha=absent"; fi
            if git fetch -q origin "$sha" 2>/dev/null; then echo "fetch $sha=fetched"; else echo "fetch $sha=refused"; fi
          done
          for dir in $(git rev-parse --git-path objects/info/alternates | xargs cat 2>/dev/null) $(cat "$(git remote get-url origin | sed 's|^file://||')/objects/info/alternates" 2>/dev/null); do
            if GIT_DIR="$dir/.." git cat-file -e "$REFERENCE" 2>/dev/null; then echo "alternate=holds-reference"; else echo "alternate=clean"; fi
          done
          if GIT_DIR=${source} git cat-file -e "$REFERENCE" 2>/dev/null; then echo "source=readable"; else echo "source=unreadable"; fi
          if ls ${source} >/dev/null 2>&1; then echo "source-dir=listed"; else echo "source-dir=hidden"; fi`;

const workflow = (source: string): string => `
on: push
jobs:
  hostile:
    runs-on: ubuntu-latest
    env:
      REFERENCE: ${reference}
      FIX: ${fix}
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - run: |${probe(source)}
`;

const sandbox = { ...DEFAULT_SANDBOX_SETTINGS, mode: 'namespaces' as const };

describe("a run's origin holds only the run's commit, its history and the tags into it", () => {
  it.each([
    ['a full view (no cache)', false],
    ['a view over its parent\'s cached base view', true],
  ])('%s: no fetch, object read or path reaches the ground truth or the later fix', async (_name, cached) => {
    const cacheDir = join(repo.root, `views-${String(cached)}`);
    const { result, log } = await runFixtureWorkflow(repo, workflow(repo.gitDir), {
      ref: 'refs/heads/ci-replay/candidate/1',
      sandbox,
      ...(cached ? { sourceViewCacheDir: cacheDir } : {}),
    });
    const lines = logLines(log('hostile'));
    expect(result.conclusion, lines.join('\n')).toBe('success');
    expect(lines).toEqual(expect.arrayContaining([
      // fetch-depth 0 still gets the branch's whole history and the tag pointing into it
      'count=4',
      'tags=v0.1',
      'remote-branches=origin/ci-replay/candidate/1',
      'advertised=HEAD,refs/heads/ci-replay/candidate/1,refs/tags/v0.1,refs/tags/v0.1^{}',
      'fetched-all=refs/remotes/x/heads/ci-replay/candidate/1,refs/remotes/x/tags/v0.1',
      `object ${reference}=absent`,
      `fetch ${reference}=refused`,
      `object ${fix}=absent`,
      `fetch ${fix}=refused`,
      'source=unreadable',
      'source-dir=hidden',
    ]));
    expect(lines).not.toContain('alternate=holds-reference');
    if (cached) {
      expect(lines).toContain('alternate=clean');
      // one base view, of the candidate's parent (the failing commit), holding its history only
      const [key] = readdirSync(cacheDir);
      const baseView = join(cacheDir, key ?? '', `${third}.git`);
      expect(existsSync(join(baseView, 'ci-replay-view'))).toBe(true);
      expect(() => git(baseView, 'cat-file', '-e', reference)).toThrow();
      expect(() => git(baseView, 'cat-file', '-e', candidate)).toThrow();
      expect(git(baseView, 'rev-list', '--count', third)).toBe('3');
    }
  });

  it('a second run of the same parent reuses the base view and still sees its own history', async () => {
    const cacheDir = join(repo.root, 'views-reuse');
    const text = `
on: push
jobs:
  count:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - run: echo "count=$(git rev-list --count HEAD) head=$(git rev-parse HEAD)"
`;
    const first = await runFixtureWorkflow(repo, text, { ref: 'refs/heads/ci-replay/candidate/1', sandbox, sourceViewCacheDir: cacheDir });
    const [key] = readdirSync(cacheDir);
    const builtAt = execFileSync('stat', ['-c', '%Y.%i', join(cacheDir, key ?? '', `${third}.git`)], { encoding: 'utf8' });
    const second = await runFixtureWorkflow(repo, text, { ref: 'refs/heads/ci-replay/candidate/1', sandbox, sourceViewCacheDir: cacheDir });
    for (const run of [first, second]) expect(logLines(run.log('count'))).toContain(`count=4 head=${candidate}`);
    expect(execFileSync('stat', ['-c', '%Y.%i', join(cacheDir, key ?? '', `${third}.git`)], { encoding: 'utf8' })).toBe(builtAt);
    expect(readdirSync(join(cacheDir, key ?? ''))).toEqual([`${third}.git`]);
  });
});
