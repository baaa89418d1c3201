import { loadConfig, ConfigError, type Config } from '../config.js';
import { createDeps, type Deps } from '../deps.js';
import { isAppError } from '../errors.js';
import { createLogger } from '../logger.js';

/** Output of CLI commands: results to stdout, diagnostics to stderr. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

export function cliConfig(): Config {
  return loadConfig();
}

/** Runs a command with the service's dependencies, closing them afterwards. */
export async function withDeps<T>(work: (deps: Deps) => Promise<T>, options: { logLevel?: string } = {}): Promise<T> {
  const config = cliConfig();
  const deps = createDeps(config, { logger: createLogger({ level: options.logLevel ?? (config.logLevel === 'info' ? 'warn' : config.logLevel) }) });
  try {
    return await work(deps);
  } finally {
    await deps.close();
  }
}

/** Prints an error the way a user can act on, and sets the exit code. */
export function reportCliError(error: unknown, io: Io): void {
  if (error instanceof ConfigError) {
    io.err(error.message);
    process.exitCode = 78;
    return;
  }
  if (isAppError(error)) {
    io.err(`error (${error.code}): ${error.message}`);
    process.exitCode = error.kind === 'invalid_input' ? 2 : 1;
    return;
  }
  io.err(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
