import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** Where the sandbox looks for its util-linux / iproute2 / iptables tools (the worker's own PATH is not used). */
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export const SYSTEM_PATH = SYSTEM_DIRS.join(':');

/** The absolute path of a system tool, or null. */
export function systemTool(name: string): string | null {
  for (const dir of SYSTEM_DIRS) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool with a minimal environment (never the worker's), resolving with its exit code and output. */
export function runCommand(file: string, args: string[], timeoutMs = 15_000): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { PATH: SYSTEM_PATH, LANG: 'C' }, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error?.message ?? '') });
    });
  });
}

/** The first line of a tool's error output, for messages. */
export function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}
