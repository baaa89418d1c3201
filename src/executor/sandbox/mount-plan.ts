import { realpathSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';

/** The mount namespace of a job, as built by {@link setupScript} inside the job's holder process. */
export interface MountPlan {
  /** Visible read-write at its own path (everything around it is hidden). */
  jobDir: string;
  /** Where the job directory is bound: its real path, and the path it was named by when a link leads there. */
  jobTargets: string[];
  /** Bound on /tmp and /var/tmp. */
  tmpDir: string;
  /** Directories hidden under an empty tmpfs (the job directory and `readOnly` paths are put back inside them). */
  covers: string[];
  /** Files hidden under /dev/null. */
  hiddenFiles: string[];
  /** Paths under a cover that steps need (toolchains, PATH entries, the source repository): bound back read-only. */
  readOnly: Array<{ source: string; target: string }>;
  /** Bound read-only over /etc/passwd and /etc/group (so the step uid has a name and a home). */
  etc: { passwd: string; group: string } | null;
  /** Bring loopback up (a fresh network namespace starts with it down); the path of `ip`. */
  loopbackWith: string | null;
}

/** Directories a cover may never hide: the system itself (a cover there would leave steps without a userland). */
const ESSENTIAL = ['/', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/proc', '/dev', '/sys', '/var', '/tmp', '/var/tmp', '/dev/shm'];

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir === sep ? sep : `${dir}${sep}`);

function real(path: string): string | null {
  try {
    return realpathSync(resolve(path));
  } catch {
    return null;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Keeps the outermost of nested paths. */
function outermost(paths: string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const p of sorted) if (!kept.some((k) => inside(p, k))) kept.push(p);
  return kept;
}

/**
 * Normalizes what to hide and what to put back: real paths only, covers that would hide the system or the job are
 * dropped (returned in `dropped` for the job log), read-only paths kept only where a cover or /tmp hides them.
 */
export function planMounts(input: {
  jobDir: string;
  tmpDir: string;
  hide: string[];
  readOnly: string[];
  etc: MountPlan['etc'];
  loopbackWith: string | null;
}): { plan: MountPlan; dropped: string[] } {
  const jobDir = real(input.jobDir) ?? resolve(input.jobDir);
  const dropped: string[] = [];
  const dirs: string[] = [];
  const files: string[] = [];
  for (const raw of input.hide) {
    const path = real(raw);
    if (path === null) continue;
    if (!isDir(path)) {
      if (!inside(path, jobDir)) files.push(path);
      continue;
    }
    if (ESSENTIAL.some((e) => inside(e, path)) || inside(path, jobDir)) {
      if (!['/tmp', '/var/tmp', '/dev/shm'].includes(path)) dropped.push(path);
      continue;
    }
    dirs.push(path);
  }
  const covers = outermost(dirs.filter((d) => !['/tmp', '/var/tmp', '/dev/shm'].some((t) => inside(d, t))));
  const hiddenRoots = [...covers, '/tmp', '/var/tmp'];
  const hidden = (path: string): boolean => hiddenRoots.some((c) => inside(path, c));
  // bound at the path steps are told (which may lead through a link that is hidden too) and at the real one
  const binds = new Map<string, string>();
  for (const raw of input.readOnly) {
    const source = real(raw);
    if (source === null) continue;
    for (const target of new Set([resolve(raw), source])) {
      if (hidden(target) && !inside(target, jobDir) && !inside(jobDir, target) && !binds.has(target)) binds.set(target, source);
    }
  }
  const targets = outermost([...binds.keys()]);
  const readOnly = targets.map((target) => ({ source: binds.get(target) ?? target, target }));
  const jobTargets = [...new Set([jobDir, resolve(input.jobDir)])].filter((t) => t === jobDir || hidden(t));
  const hiddenFiles = [...new Set(files)].filter((f) => !hidden(f));
  const plan: MountPlan = { jobDir, jobTargets, tmpDir: real(input.tmpDir) ?? input.tmpDir, covers, hiddenFiles, readOnly, etc: input.etc, loopbackWith: input.loopbackWith };
  return { plan, dropped };
}

const q = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The bash script the holder runs as PID 1 of the job's namespaces: stage the paths to keep (bind mounts in a
 * private tmpfs), hide the covers, put the kept paths back, give /tmp and /dev/shm their own storage, print `ready`,
 * then reap orphans until its stdin closes (the worker ended the job or died): the kernel then kills every process
 * left in the namespace.
 */
export function setupScript(plan: MountPlan): string {
  const stage = '/dev/shm/.ci-replay';
  const lines = [
    'set -eu',
    `mount -t tmpfs -o mode=0700,size=1m ci-replay-stage /dev/shm`,
    `mkdir ${stage}`,
    `mkdir ${stage}/job && mount --bind ${q(plan.jobDir)} ${stage}/job`,
  ];
  const staged: Array<{ from: string; to: string; file: boolean }> = [];
  const stageOne = (source: string, target: string, name: string): void => {
    const file = !isDir(source);
    lines.push(`${file ? 'touch' : 'mkdir'} ${stage}/${name} && mount --bind ${q(source)} ${stage}/${name}`);
    staged.push({ from: `${stage}/${name}`, to: target, file });
  };
  plan.readOnly.forEach((bind, i) => stageOne(bind.source, bind.target, `r${i}`));
  if (plan.etc !== null) {
    lines.push(`touch ${stage}/passwd ${stage}/group`, `mount --bind ${q(plan.etc.passwd)} ${stage}/passwd`, `mount --bind ${q(plan.etc.group)} ${stage}/group`);
  }
  for (const cover of plan.covers) lines.push(`mount -t tmpfs -o mode=0755,size=1m,nosuid,nodev ci-replay-hidden ${q(cover)}`);
  for (const file of plan.hiddenFiles) lines.push(`mount --bind /dev/null ${q(file)}`);
  lines.push(`mount --bind ${stage}/job/${q(plan.tmpDir.slice(plan.jobDir.length + 1))} /tmp`);
  lines.push(`if [ -d /var/tmp ]; then mount --bind /tmp /var/tmp; fi`);
  for (const target of plan.jobTargets) lines.push(`mkdir -p ${q(target)} && mount --bind ${stage}/job ${q(target)}`);
  for (const s of staged) {
    lines.push(s.file ? `mkdir -p ${q(dirname(s.to))} && touch ${q(s.to)}` : `mkdir -p ${q(s.to)}`);
    lines.push(`mount --bind ${s.from} ${q(s.to)} && mount -o remount,bind,ro,nosuid,nodev ${q(s.to)}`);
  }
  if (plan.etc !== null) {
    for (const name of ['passwd', 'group']) lines.push(`mount --bind ${stage}/${name} /etc/${name} && mount -o remount,bind,ro,nosuid,nodev /etc/${name}`);
  }
  lines.push(`for m in ${stage}/*; do umount "$m"; done`, 'umount /dev/shm');
  lines.push('mount -t tmpfs -o mode=1777,size=64m,nosuid,nodev shm /dev/shm');
  if (plan.loopbackWith !== null) lines.push(`${q(plan.loopbackWith)} link set lo up`);
  lines.push('echo ready', 'while read -r _; do :; done');
  return lines.join('\n');
}
