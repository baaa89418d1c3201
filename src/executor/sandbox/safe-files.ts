import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { invalidInput } from '../../errors.js';

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}${sep}`);

/**
 * Refuses a path the executor is about to write to (as root, outside the sandbox) when any existing component
 * between `root` and it is a symbolic link or it leaves `root`: a step could have planted a link to /etc there.
 */
export function assertNoSymlinkEscape(root: string, target: string): void {
  const base = resolve(root);
  const full = resolve(base, target);
  if (!inside(full, base)) throw invalidInput('unsafe_path', `Refusing to write outside the job directory: ${full}`);
  let current = base;
  for (const part of relative(base, full).split(sep).filter((p) => p !== '')) {
    current = `${current}${sep}${part}`;
    let stat;
    try {
      stat = lstatSync(current);
    } catch {
      return;
    }
    if (stat.isSymbolicLink()) throw invalidInput('unsafe_path', `Refusing to write through the symbolic link ${current}`);
  }
}

/**
 * Reads a file a step wrote (GITHUB_ENV, GITHUB_OUTPUT, a version file, …) without following a final symbolic link,
 * without blocking on a FIFO, and only when it is a regular file inside `root` of at most `maxBytes`. Returns ''
 * for a missing file; throws `invalid_input` (`unsafe_file`) otherwise.
 */
export function readJobFile(root: string | null, path: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return '';
    if (code === 'ELOOP') throw invalidInput('unsafe_file', `Unable to read ${path}: it is a symbolic link`);
    throw invalidInput('unsafe_file', `Unable to read ${path}: ${code ?? 'error'}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw invalidInput('unsafe_file', `Unable to read ${path}: not a regular file`);
    if (stat.size > maxBytes) throw invalidInput('unsafe_file', `Unable to read ${path}: larger than ${maxBytes} bytes`);
    if (root !== null && !inside(realpathSync(path), realpathSync(root))) throw invalidInput('unsafe_file', `Unable to read ${path}: outside the job directory`);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
