/**
 * Starts the GitHub simulator standalone (`npm run sim` → `tsx scripts/sim.ts`).
 * Prints one JSON line with the URL, App id, webhook secret and where the App's private key was written.
 */
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { pino } from 'pino';
import { createBashRunner, createExecutorRunner, startGithubSim } from '../test/support/github-sim/index.js';

const program = new Command()
  .name('sim')
  .description('GitHub simulator: REST API, smart-HTTP git, Actions runs, signed webhooks')
  .option('--host <host>', 'interface to bind', '127.0.0.1')
  .option('--port <port>', 'port to listen on (0 = any)', '3999')
  .option('--webhook-url <url>', 'where webhook deliveries are POSTed')
  .option('--webhook-secret <secret>', 'webhook secret (default: random)')
  .option('--app-id <id>', 'App id', '123456')
  .option('--key-out <file>', 'write the App private key (PEM) here', '/tmp/github-sim-app.pem')
  .option('--account <login...>', 'accounts (organizations) the App is installed on', ['ci-replay-bench'])
  .option('--repo <owner/name...>', 'empty public repositories to create (push to them with an installation token)', [])
  .option('--runner <runner>', 'workflow runner: executor (src/executor) or bash', 'executor')
  .option('--data-dir <dir>', 'where repositories live (default: a temp dir)');

program.parse();
const options = program.opts<{
  host: string; port: string; webhookUrl?: string; webhookSecret?: string; appId: string; keyOut: string;
  account: string[]; repo: string[]; runner: string; dataDir?: string;
}>();

const logger = pino({ level: 'info' });
const sim = await startGithubSim({
  host: options.host,
  port: Number(options.port),
  appId: Number(options.appId),
  webhookUrl: options.webhookUrl ?? null,
  ...(options.webhookSecret ? { webhookSecret: options.webhookSecret } : {}),
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  runner: options.runner === 'bash' ? createBashRunner() : createExecutorRunner({ logger }),
});
await writeFile(options.keyOut, sim.privateKeyPem, { mode: 0o600 });
for (const fullName of options.repo) {
  const [owner = '', name = ''] = fullName.split('/');
  await sim.createRepo({ owner, name });
}
const installations = options.account.map((account) => ({ account, id: sim.createInstallation({ account }).id }));
process.stdout.write(`${JSON.stringify({ url: sim.url, appId: sim.appId, webhookSecret: sim.webhookSecret, privateKeyPath: options.keyOut, installations })}\n`);

const stop = (): void => {
  void sim.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
