import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planMounts, setupScript } from '../../../src/executor/sandbox/mount-plan.js';
import { breachOf, limitOfFailure, nearLimits, prlimitOptions } from '../../../src/executor/sandbox/step-limits.js';
import { DEFAULT_STEP_LIMITS } from '../../../src/executor/sandbox/settings.js';
import { projectRoot } from '../../../src/paths.js';

// a service layout outside /tmp (steps get a /tmp of their own, so nothing under it needs a cover): <root>/srv/data
// (DATA_DIR) holding the job and a benchmark repository, <root>/home with a pyenv reached through a link
let root: string;
let data: string;
let job: string;
/** The project's .data folder, unless the checkout itself lives under a temp folder (a CI clone in /tmp): then HOME. */
function layoutBase(): string {
  const project = projectRoot();
  const underTemp = ['/tmp', '/var/tmp', '/dev/shm'].some((t) => project === t || project.startsWith(`${t}/`));
  return underTemp ? join(homedir(), '.cache', 'ci-replay-tests') : join(project, '.data');
}

beforeAll(() => {
  mkdirSync(layoutBase(), { recursive: true });
  root = mkdtempSync(join(layoutBase(), 'sandbox-plan-'));
  data = join(root, 'srv', 'data');
  job = join(data, 'work', 'run-1', 'job-1');
  mkdirSync(join(job, 'tmp'), { recursive: true });
  mkdirSync(join(data, 'bench', 'repo.git'), { recursive: true });
  mkdirSync(join(root, 'home', 'ci', '.pyenv', 'versions'), { recursive: true });
  symlinkSync(join(root, 'home', 'ci', '.pyenv'), join(root, 'pyenv-link'));
  writeFileSync(join(root, 'key.pem'), 'secret');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('planMounts', () => {
  it('hides the outermost covers, never the system or the job itself, and puts back what steps need read-only', () => {
    const { plan, dropped } = planMounts({
      jobDir: job,
      tmpDir: join(job, 'tmp'),
      hide: ['/', '/usr', '/tmp', data, join(data, 'work'), join(root, 'home'), join(root, 'key.pem'), join(job, 'inside'), join(root, 'missing')],
      readOnly: [join(data, 'bench', 'repo.git'), join(root, 'pyenv-link', 'versions'), '/usr/bin', join(job, 'tmp')],
      etc: null,
      loopbackWith: null,
    });
    expect(plan.covers.sort()).toEqual([data, join(root, 'home')].sort());
    expect(dropped).toEqual(['/', '/usr']);
    expect(plan.hiddenFiles).toEqual([join(root, 'key.pem')]);
    // bound at the real path (under a cover); the link's own path is not hidden, so it is not bound again
    expect(plan.readOnly).toEqual(
      expect.arrayContaining([
        { source: join(data, 'bench', 'repo.git'), target: join(data, 'bench', 'repo.git') },
        { source: join(root, 'home', 'ci', '.pyenv', 'versions'), target: join(root, 'home', 'ci', '.pyenv', 'versions') },
      ]),
    );
    expect(plan.readOnly).toHaveLength(2);
    expect(plan.jobTargets).toEqual([job]);
  });

  it('writes a setup script that stages before it hides, and reaps until its stdin closes', () => {
    const { plan } = planMounts({ jobDir: job, tmpDir: join(job, 'tmp'), hide: [data], readOnly: [join(data, 'bench', 'repo.git')], etc: null, loopbackWith: '/usr/sbin/ip' });
    const script = setupScript(plan);
    const lines = script.split('\n');
    const at = (needle: string): number => lines.findIndex((l) => l.includes(needle));
    expect(at(`mount --bind '${job}' /dev/shm/.ci-replay/job`)).toBeLessThan(at(`ci-replay-hidden '${data}'`));
    expect(at(`ci-replay-hidden '${data}'`)).toBeLessThan(at(`mount --bind /dev/shm/.ci-replay/job '${job}'`));
    expect(script).toContain(`mount -o remount,bind,ro,nosuid,nodev '${join(data, 'bench', 'repo.git')}'`);
    expect(script).toContain("mount --bind /dev/shm/.ci-replay/job/'tmp' /tmp");
    expect(lines.slice(-3)).toEqual(["'/usr/sbin/ip' link set lo up", 'echo ready', 'while read -r _; do :; done']);
  });
});

describe('step limits', () => {
  const limits = { ...DEFAULT_STEP_LIMITS, memoryMb: 100, maxProcesses: 50, cpuSeconds: 10 };
  const MB = 1024 * 1024;

  it('turns the settings into rlimits', () => {
    expect(prlimitOptions(limits, 0)).toEqual([`--data=${200 * MB}`, '--nproc=50', '--cpu=10:15', `--fsize=${DEFAULT_STEP_LIMITS.fileSizeMb * MB}`, '--core=0']);
  });

  it('breaches on processes and resident memory, notes the limits a process came near', () => {
    const usage = { tasks: 10, rssBytes: 10 * MB, maxDataBytes: 10 * MB, maxCpuSeconds: 1 };
    expect(breachOf(usage, limits, 2)).toBeNull();
    expect(breachOf({ ...usage, tasks: 48 }, limits, 2)).toBe('processes');
    expect(breachOf({ ...usage, rssBytes: 100 * MB }, limits, 2)).toBe('memory');
    expect(nearLimits({ ...usage, maxDataBytes: 190 * MB, maxCpuSeconds: 9.5 }, limits)).toEqual(['memory', 'cpu']);
  });

  it('names the limit of a failed step only from the kernel signal or what the watchdog saw', () => {
    expect(limitOfFailure(152, new Set())).toBe('cpu');
    expect(limitOfFailure(153, new Set())).toBe('file_size');
    expect(limitOfFailure(137, new Set(['cpu']))).toBe('cpu');
    expect(limitOfFailure(1, new Set(['memory']))).toBe('memory');
    expect(limitOfFailure(1, new Set())).toBeNull();
    expect(limitOfFailure(137, new Set())).toBeNull();
  });
});
