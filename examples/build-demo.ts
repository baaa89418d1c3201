import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const PROJECT = join(here, 'python-demo', 'project');
const WORKFLOW_PATH = '.github/workflows/ci.yml';

interface Bug {
  id: string;
  title: string;
  error_type: string[];
  failed_job: string;
  /** What the bundled candidate patch should get (the baseline always fails with `error_type`). */
  candidate_verdict: 'passed' | 'failed';
  files: Record<string, string>;
}

export interface DemoInstance {
  id: string;
  title: string;
  row: Record<string, unknown>;
  /** The ground-truth fix. */
  patch: string;
  /** The bundled candidate patch (examples/python-demo/patches/<id>.patch): what a repair system might submit. */
  candidate: string;
  /** The verdicts `npm run demo` expects, and the error types the baseline's failure is classified with. */
  expected: { baseline: 'failed'; candidate: 'passed' | 'failed'; errorTypes: string[] };
}

export interface Demo {
  upstreamPath: string;
  instances: DemoInstance[];
  jsonl: string;
}

/** The committed instance file (examples/python-demo/instances.jsonl): the rows without `upstream_url`. */
export const COMMITTED_INSTANCES = join(here, 'python-demo', 'instances.jsonl');

/**
 * Builds the demo upstream: a small Python project with real history (fixed identity and dates, so the SHAs
 * are the same on every machine) and one failing commit per bug, each followed by its fix; returns the
 * CI-Repair-Bench-style instances with `upstream_url` pointing at the local bare repository.
 */
export async function buildDemo(targetDir: string): Promise<Demo> {
  const bugs = JSON.parse(await readFile(join(here, 'python-demo', 'bugs.json'), 'utf8')) as Bug[];
  const work = await mkdtemp(join(tmpdir(), 'ci-replay-demo-'));
  let tick = 0;
  const git = async (...args: string[]): Promise<string> => {
    tick += 1;
    const date = `2024-03-01T10:${String(tick).padStart(2, '0')}:00Z`;
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: work,
      GIT_AUTHOR_NAME: 'Demo Author',
      GIT_AUTHOR_EMAIL: 'demo@example.com',
      GIT_COMMITTER_NAME: 'Demo Author',
      GIT_COMMITTER_EMAIL: 'demo@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_NOSYSTEM: '1',
    };
    const { stdout } = await run('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgsign=false', ...args], { cwd: work, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  };
  try {
    await cp(PROJECT, work, { recursive: true });
    await git('init', '--quiet', '--initial-branch=main');
    await git('add', '-A');
    await git('commit', '--quiet', '-m', 'Initial calc project');
    const base = await git('rev-parse', 'HEAD');
    const workflow = await readFile(join(PROJECT, WORKFLOW_PATH), 'utf8');
    const instances: DemoInstance[] = [];
    for (const bug of bugs) {
      await git('checkout', '--quiet', '-B', `bug/${bug.id}`, base);
      for (const [path, content] of Object.entries(bug.files)) await writeFile(join(work, path), content);
      await git('commit', '--quiet', '-am', `Introduce bug: ${bug.title}`);
      const shaFail = await git('rev-parse', 'HEAD');
      await git('checkout', '--quiet', base, '--', ...Object.keys(bug.files));
      await git('commit', '--quiet', '-am', `Fix: ${bug.title}`);
      const shaSuccess = await git('rev-parse', 'HEAD');
      const patch = `${await git('diff', shaFail, shaSuccess)}\n`;
      const changed = (await git('diff', '--name-only', shaFail, shaSuccess)).split('\n').filter(Boolean);
      instances.push({
        id: bug.id,
        title: bug.title,
        patch,
        candidate: await readFile(join(here, 'python-demo', 'patches', `${bug.id}.patch`), 'utf8'),
        expected: { baseline: 'failed', candidate: bug.candidate_verdict, errorTypes: bug.error_type },
        row: {
          id: bug.id,
          language: 'Python',
          repo_owner: 'ci-replay-examples',
          repo_name: 'calc',
          head_branch: `bug/${bug.id}`,
          workflow_name: 'CI',
          workflow_filename: 'ci.yml',
          workflow_path: WORKFLOW_PATH,
          workflow,
          sha_fail: shaFail,
          sha_success: shaSuccess,
          diff: patch,
          changed_files: changed,
          commit_date: '2024-03-01T10:00:00Z',
          logs: [{ step_name: bug.failed_job, log: `(the demo's original failure: ${bug.title})` }],
          error_type: bug.error_type,
          protected_paths: ['tests/**'],
        },
      });
    }
    const upstreamPath = join(targetDir, 'calc.git');
    await rm(upstreamPath, { recursive: true, force: true });
    await mkdir(targetDir, { recursive: true });
    await run('git', ['clone', '--quiet', '--mirror', work, upstreamPath]);
    await run('git', ['--git-dir', upstreamPath, 'config', 'uploadpack.allowFilter', 'true']);
    await run('git', ['--git-dir', upstreamPath, 'config', 'uploadpack.allowAnySHA1InWant', 'true']);
    for (const instance of instances) instance.row.upstream_url = upstreamPath;
    const jsonl = `${instances.map((instance) => JSON.stringify(instance.row)).join('\n')}\n`;
    await writeFile(join(targetDir, 'instances.jsonl'), jsonl);
    return { upstreamPath, instances, jsonl };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
