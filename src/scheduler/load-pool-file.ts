import type { BenchAccountRepository, BenchAccountRow } from '../db/index.js';
import { readPoolFile } from './pool.js';

/**
 * Adds or changes the accounts of a pool file (`{ "accounts": [...] }`, parsed by readPoolFile) in the BenchAccount
 * table: `ci-replay pool load <file>` and ACCOUNT_POOL_FILE at worker start. Accounts the file does not list are kept.
 */
export async function loadPoolFile(accounts: BenchAccountRepository, path: string): Promise<BenchAccountRow[]> {
  const saved: BenchAccountRow[] = [];
  for (const account of await readPoolFile(path)) {
    saved.push(await accounts.upsert({
      owner: account.owner, concurrentJobs: account.concurrentJobs, restPerHour: account.restPerHour, writesPerMinute: account.writesPerMinute,
      runnerLabels: account.runnerLabels, state: account.state, ...(account.installationId !== null ? { installationId: BigInt(account.installationId) } : {}),
    }));
  }
  return saved;
}
