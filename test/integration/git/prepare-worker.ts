/**
 * A separate worker process for the concurrency test: prepares one submission (ensure commits, apply,
 * push) against a shared data dir. argv: dataDir upstreamUrl shaFail targetRepo index.
 */
import pino from 'pino';
import { applyPatch } from '../../../src/git/apply-patch/index.js';
import { createMirrorCache } from '../../../src/git/mirror-cache.js';
import { pushCommit } from '../../../src/git/push-commit.js';

const [dataDir = '', url = '', shaFail = '', target = '', index = '0'] = process.argv.slice(2);

export async function prepare(args: { dataDir: string; url: string; shaFail: string; target: string; index: string }): Promise<{ index: string; commitSha: string }> {
  const cache = createMirrorCache({ dataDir: args.dataDir, logger: pino({ level: 'silent' }) });
  const gitDir = await cache.ensureCommits({ owner: 'acme', name: 'demo', url: args.url }, [args.shaFail]);
  const result = await applyPatch({
    gitDir, baseSha: args.shaFail, patch: '', identity: { name: 'w', email: 'w@example.com' },
    date: new Date('2024-01-01T00:00:00Z'), message: `worker ${args.index}`,
    overrides: [{ path: 'worker.txt', content: `${args.index}\n` }],
  });
  if (!result.ok) throw new Error(result.message);
  await pushCommit({ gitDir, remoteUrl: args.target, commitSha: result.commitSha, branch: `w-${args.index}` });
  return { index: args.index, commitSha: result.commitSha };
}

if (dataDir !== '') {
  prepare({ dataDir, url, shaFail, target, index })
    .then((r) => process.stdout.write(`${JSON.stringify(r)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    });
}
