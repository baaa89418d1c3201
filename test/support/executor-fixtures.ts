import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import type { CiEvent } from '../../src/domain/ci-events.js';
import { runWorkflow } from '../../src/executor/index.js';
import type { RunWorkflowOptions, RunWorkflowResult } from '../../src/executor/index.js';

export interface FixtureRepo {
  root: string;
  gitDir: string;
  sha: string;
  cleanup: () => void;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
  }).trim();

/** A small git repository with the given files committed (two commits: an initial one, then `files`). */
export function createFixtureRepo(files: Record<string, string>): FixtureRepo {
  const root = mkdtempSync(join(tmpdir(), 'exec-fixture-'));
  const gitDir = join(root, 'repo');
  mkdirSync(gitDir);
  git(gitDir, 'init', '-q', '-b', 'main');
  writeFileSync(join(gitDir, 'README.md'), '# fixture\n');
  git(gitDir, 'add', '.');
  git(gitDir, 'commit', '-q', '-m', 'initial');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(gitDir, path)), { recursive: true });
    writeFileSync(join(gitDir, path), content);
  }
  git(gitDir, 'add', '.');
  git(gitDir, 'commit', '-q', '--allow-empty', '-m', 'fixture files');
  const sha = git(gitDir, 'rev-parse', 'HEAD');
  return { root, gitDir, sha, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface FixtureRun {
  result: RunWorkflowResult;
  events: CiEvent[];
  /** Log text of a job by its name. */
  log: (jobName: string) => string;
  dirs: { workRoot: string; logsDir: string; artifactsDir: string };
}

/** Runs a workflow text against a fixture repo with temporary work/log/artifact dirs. */
export async function runFixtureWorkflow(
  repo: FixtureRepo,
  text: string,
  extra: Partial<RunWorkflowOptions> = {},
): Promise<FixtureRun> {
  const dirs = {
    workRoot: join(repo.root, 'work'),
    logsDir: join(repo.root, `logs-${Date.now()}-${Math.random().toString(36).slice(2)}`),
    artifactsDir: join(repo.root, `artifacts-${Math.random().toString(36).slice(2)}`),
  };
  let next = 2 ** 31 + 100;
  const events: CiEvent[] = [];
  const result = await runWorkflow({
    workflow: { text, path: '.github/workflows/ci.yml' },
    repo: { gitDir: repo.gitDir, fullName: 'octo/fixture' },
    sha: repo.sha,
    ref: 'refs/heads/main',
    runId: String(2 ** 32 + 7),
    runAttempt: 1,
    ...dirs,
    killGraceMs: 300,
    nextJobId: () => String((next += 1)),
    onEvent: (e) => {
      events.push(e);
    },
    logger: pino({ level: 'silent' }),
    ...extra,
  });
  const log = (jobName: string): string => {
    const job = result.jobs.find((j) => j.name === jobName);
    if (job?.logPath === null || job === undefined) throw new Error(`no log for job ${jobName}`);
    return readFileSync(job.logPath, 'utf8');
  };
  return { result, events, log, dirs };
}

/** Strips GitHub log timestamps: `2025-04-07T12:57:33.2943173Z text` → `text`. */
export function logLines(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z /, ''));
}

/**
 * A shell command that prints a file of the job into its log as `<key>=<base64>`: the step sandbox lets no step
 * write outside its job directory (removed after the run), so tests read what a step saw from the log.
 */
export const printFile = (path: string, key: string): string => `echo "${key}=$(base64 -w0 < ${path})"`;

/** The file a {@link printFile} command printed into a job log. */
export function printedFile(logText: string, key: string): string {
  const line = logLines(logText).find((l) => l.startsWith(`${key}=`));
  if (line === undefined) throw new Error(`no printed file ${key} in the log`);
  return Buffer.from(line.slice(key.length + 1), 'base64').toString('utf8');
}
