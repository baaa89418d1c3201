/**
 * Marketplace action fetch, cold vs cached: a real action repository (astral-sh/setup-uv, read from the mirror the
 * search tool's `fetch` made of github.com/astral-sh/setup-uv, default: /work/.mirror/astral-sh+setup-uv/repo) is
 * served by the GitHub simulator's git server; a one-step job using it (`if: false`: only "Set up job" resolves,
 * fetches and copies the action) runs with an empty cache, then again with the warm cache. Prints the median wall
 * time of each and the git requests the simulator counted (a cached run must make none).
 * Run: `npx tsx bench/action-fetch.ts [rounds] [mirror]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { runWorkflow, type ActionSettings } from '../src/executor/index.js';
import { startGithubSim } from '../test/support/github-sim/index.js';

const rounds = Number(process.argv[2] ?? 5);
const mirror = process.argv[3] ?? '/work/.mirror/astral-sh+setup-uv/repo';
const root = mkdtempSync(join(tmpdir(), 'action-fetch-bench-'));
const gitEnv = { PATH: '/usr/bin:/bin', HOME: root, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@e', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@e', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' }).trim();

const gitDir = join(root, 'repo');
mkdirSync(gitDir);
git(gitDir, 'init', '-q');
writeFileSync(join(gitDir, 'README.md'), 'bench\n');
git(gitDir, 'add', '.');
git(gitDir, 'commit', '-q', '-m', 'bench');
const sha = git(gitDir, 'rev-parse', 'HEAD');

const sim = await startGithubSim();
const action = await sim.createRepo({ owner: 'astral-sh', name: 'setup-uv' });
// the mirror's history is partial (large old blobs absent): the action's tree at HEAD becomes one commit
const tree = join(root, 'action-tree');
mkdirSync(tree);
execFileSync('sh', ['-c', `git --git-dir="${mirror}" archive HEAD | tar -x -C "${tree}"`], { env: gitEnv });
const treeEnv = { ...gitEnv, GIT_DIR: action.gitDir, GIT_WORK_TREE: tree, GIT_INDEX_FILE: join(root, 'action-index') };
execFileSync('git', ['add', '-A'], { cwd: tree, env: treeEnv });
const commit = execFileSync('git', ['commit-tree', execFileSync('git', ['write-tree'], { cwd: tree, env: treeEnv, encoding: 'utf8' }).trim(), '-m', 'setup-uv'], { cwd: tree, env: treeEnv, encoding: 'utf8' }).trim();
git(action.gitDir, 'update-ref', 'refs/heads/main', commit);
const tag = git(mirror, 'describe', '--tags', '--abbrev=0', 'HEAD');
git(action.gitDir, 'update-ref', `refs/tags/${tag}`, git(action.gitDir, 'rev-parse', 'refs/heads/main'));
const files = git(action.gitDir, 'ls-tree', '-r', '--name-only', 'refs/heads/main').split('\n').length;
const bytes = git(action.gitDir, 'ls-tree', '-r', '-l', 'refs/heads/main').split('\n').reduce((n, line) => n + (Number(line.split(/\s+/)[3]) || 0), 0);

const baseline = 'on: push\njobs:\n  uv:\n    runs-on: ubuntu-latest\n    steps:\n      - if: false\n        run: echo never\n';
const workflow = `on: push\njobs:\n  uv:\n    runs-on: ubuntu-latest\n    steps:\n      - if: false\n        uses: astral-sh/setup-uv@${tag}\n`;
const gitRequests = (): number => Object.entries(sim.counters.snapshot()).filter(([k]) => k.includes('.git/')).reduce((n, [, v]) => n + v, 0);

let id = 1;
async function run(actions: ActionSettings, text = workflow): Promise<number> {
  const start = performance.now();
  const result = await runWorkflow({
    workflow: { text, path: '.github/workflows/bench.yml' },
    repo: { gitDir, fullName: 'bench/repo' }, sha, ref: 'refs/heads/main', runId: String((id += 1)), runAttempt: 1,
    workRoot: join(root, 'work'), logsDir: join(root, `logs-${id}`), artifactsDir: join(root, 'artifacts'),
    nextJobId: () => String((id += 1)), onEvent: () => undefined, logger: pino({ level: 'silent' }), actions,
  });
  if (result.conclusion !== 'success') throw new Error(`bench run concluded ${result.conclusion}`);
  return performance.now() - start;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
try {
  const cold: number[] = [];
  const warm: number[] = [];
  const plain: number[] = [];
  let coldRequests = 0;
  let warmRequests = 0;
  for (let round = 0; round < rounds; round += 1) {
    const actions: ActionSettings = { baseUrl: sim.url, mode: 'online', cacheDir: join(root, `cache-${round}`) };
    sim.counters.reset();
    cold.push(await run(actions));
    coldRequests += gitRequests();
    sim.counters.reset();
    warm.push(await run(actions));
    warmRequests += gitRequests();
    plain.push(await run(actions, baseline));
  }
  console.log(`action: astral-sh/setup-uv@${tag} (${files} files, ${(bytes / 1e6).toFixed(1)} MB) from ${mirror}; rounds: ${rounds} (medians)`);
  console.log(`cold cache: ${median(cold).toFixed(0)} ms per job run, ${coldRequests / rounds} git requests per run`);
  console.log(`warm cache: ${median(warm).toFixed(0)} ms per job run, ${warmRequests / rounds} git requests per run`);
  console.log(`same job without the action: ${median(plain).toFixed(0)} ms per job run`);
} finally {
  await sim.close();
  rmSync(root, { recursive: true, force: true });
}
