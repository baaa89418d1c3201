import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/paths.js';

const exec = promisify(execFile);
const cli = join(projectRoot(), 'bin', 'ci-replay.js');
const log = join(projectRoot(), 'test', 'fixtures', 'logs', 'type-checking', 'tsc-type-error.log');
const quote = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;

/** Runs `ci-replay <args> | <reader>` in bash and returns the CLI's exit status (PIPESTATUS[0]) and its stderr. */
async function piped(args: string[], reader: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const script = `${quote(process.execPath)} ${quote(cli)} ${args.map(quote).join(' ')} 2>"$ERR" | ${reader}; echo "status=\${PIPESTATUS[0]}"; cat "$ERR" >&2`;
  const { stdout, stderr } = await exec('bash', ['-c', `ERR=$(mktemp); ${script}; rm -f "$ERR"`], { cwd: projectRoot(), timeout: 120_000 });
  const status = Number(/status=(\d+)/.exec(stdout)?.[1] ?? -1);
  return { status, stdout: stdout.replace(/status=\d+\n?/, ''), stderr };
}

describe.concurrent('the CLI on a closed pipe', () => {
  it('ends quietly with status 0 when the reader closes stdout before the first write (| head -n 0)', async () => {
    const result = await piped(['classify', log], 'head -n 0');
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.stderr).not.toContain('Unhandled');
    expect(result.status).toBe(0);
  }, 180_000);

  it('prints what the reader takes and ends quietly (| head -1)', async () => {
    const result = await piped(['classify', log], 'head -1');
    expect(result.stdout).toBe('failed steps: Run tsc -p tsconfig.json\n');
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.status).toBe(0);
  }, 180_000);

  it('keeps the exit code a failed command set (a missing file is 2) even when stderr is closed too', async () => {
    const { stdout } = await exec('bash', ['-c', `${quote(process.execPath)} ${quote(cli)} classify /nonexistent.log 2>&1 | head -n 0; echo "status=\${PIPESTATUS[0]}"`], { cwd: projectRoot(), timeout: 120_000 });
    expect(stdout).toContain('status=2');
  }, 180_000);
});
