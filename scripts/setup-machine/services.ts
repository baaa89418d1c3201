import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const START = join(dirname(fileURLToPath(import.meta.url)), 'start-service.sh');

export interface Service {
  name: 'PostgreSQL' | 'Redis';
  kind: 'postgres' | 'redis';
  host: string;
  port: number;
}

/** The services the demo and the tests use: DATABASE_URL / REDIS_URL when set, else the local defaults. */
export function servicesOf(env: NodeJS.ProcessEnv = process.env): Service[] {
  const endpoint = (url: string | undefined, fallback: number): { host: string; port: number } => {
    try {
      const parsed = new URL(url ?? '');
      return { host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(parsed.port || fallback) };
    } catch {
      return { host: '127.0.0.1', port: fallback };
    }
  };
  return [
    { name: 'PostgreSQL', kind: 'postgres', ...endpoint(env.DATABASE_URL, 5432) },
    { name: 'Redis', kind: 'redis', ...endpoint(env.REDIS_URL, 6379) },
  ];
}

/** Whether something accepts TCP connections at host:port within `timeoutMs`. */
export function answers(service: { host: string; port: number }, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: service.host, port: service.port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const isLocalDefault = (service: Service): boolean =>
  ['127.0.0.1', 'localhost', '::1'].includes(service.host) && service.port === (service.kind === 'postgres' ? 5432 : 6379);

/**
 * Makes each service answer: a local one on its default port is started (installed with apt when absent) by
 * start-service.sh; anything else can only be reported. Returns the problems, one line each (empty: all answer).
 */
export async function ensureServices(options: { start: boolean; say: (line: string) => void; env?: NodeJS.ProcessEnv }): Promise<string[]> {
  const problems: string[] = [];
  for (const service of servicesOf(options.env)) {
    const where = `${service.host}:${service.port}`;
    if (await answers(service)) {
      options.say(`  ok       ${service.name.padEnd(22)} ${where}`);
      continue;
    }
    if (!options.start || !isLocalDefault(service)) {
      problems.push(`${service.name} does not answer at ${where}${isLocalDefault(service) ? ' (run `npm run setup` to start it)' : ''}`);
      continue;
    }
    options.say(`starting ${service.name} (${where}) with scripts/setup-machine/start-service.sh ${service.kind}`);
    const started = await run('bash', [START, service.kind], { env: { ...process.env, ...options.env }, timeout: 900_000, maxBuffer: 16 * 1024 * 1024 }).then(
      () => null,
      (error: { stderr?: string; message?: string }) => (error.stderr ?? error.message ?? '').trim().split('\n').pop() ?? '',
    );
    if (started !== null || !(await answers(service))) problems.push(`${service.name} could not be started at ${where}: ${started ?? 'it still does not answer'}`);
    else options.say(`  ok       ${service.name.padEnd(22)} ${where} (started)`);
  }
  return problems;
}
