/**
 * A reader that stops early (`ci-replay classify … | head -3`) closes the pipe under stdout or stderr; the next
 * write fails with EPIPE. That is the reader's choice, not an error of the command: the CLI then ends quietly with
 * the exit code the command had set so far (0 when none), never with an unhandled 'error' event and a stack trace.
 * Long-running commands (`serve`, `worker`) keep running: their output is logging, and losing it must not stop them.
 */
export function handleClosedPipes(options: { keepRunning: boolean }, exit: (code: number) => never = (code) => process.exit(code)): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (options.keepRunning) return;
      const code = process.exitCode;
      exit(typeof code === 'number' ? code : Number(code ?? 0) || 0);
    });
  }
}

/** Commands that run until stopped. */
export const LONG_RUNNING_COMMANDS: readonly string[] = ['serve', 'worker'];
