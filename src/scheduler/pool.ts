import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { invalidInput } from '../errors.js';

/** One benchmark account of the pool: an owner the App is installed on, with its plan's limits. */
export interface PoolAccount {
  owner: string;
  /** The App installation on the owner (null: looked up by owner). */
  installationId: number | null;
  /** Concurrent jobs the plan allows (20 Free, 40 Pro, 60 Team, 500 Enterprise; self-hosted: the runner count). */
  concurrentJobs: number;
  /** REST calls per hour this service may make with the installation (GitHub: 5,000–12,500). */
  restPerHour: number;
  /** Content-creating requests per minute (GitHub's secondary limit: 80). */
  writesPerMinute: number;
  /** Self-hosted runner labels (actions-runner-controller…): the standardized workflow's `runs-on` for this account. */
  runnerLabels: string[];
  /** active: takes new benchmark repositories; draining: keeps its running jobs, takes nothing new; removed: gone. */
  state: 'active' | 'draining' | 'removed';
}

export const PLAN_CONCURRENT_JOBS = { free: 20, pro: 40, team: 60, enterprise: 500 } as const;

const accountSchema = z
  .object({
    owner: z.string().min(1).max(100).regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, 'a GitHub login'),
    installationId: z.number().int().positive().nullable().optional(),
    plan: z.enum(['free', 'pro', 'team', 'enterprise']).optional(),
    concurrentJobs: z.number().int().min(1).max(10_000).optional(),
    restPerHour: z.number().int().min(100).max(1_000_000).default(5000),
    writesPerMinute: z.number().int().min(1).max(10_000).default(80),
    runnerLabels: z.array(z.string().min(1).max(100)).max(20).default([]),
    state: z.enum(['active', 'draining', 'removed']).default('active'),
  })
  .strict()
  .refine((account) => account.plan !== undefined || account.concurrentJobs !== undefined, { message: 'give `plan` or `concurrentJobs`' });

export const poolFileSchema = z.object({ accounts: z.array(accountSchema).min(1).max(1000) }).strict();

export type PoolAccountInput = z.input<typeof accountSchema>;

export function toPoolAccount(input: PoolAccountInput): PoolAccount {
  const parsed = accountSchema.parse(input);
  return {
    owner: parsed.owner,
    installationId: parsed.installationId ?? null,
    concurrentJobs: parsed.concurrentJobs ?? PLAN_CONCURRENT_JOBS[parsed.plan ?? 'free'],
    restPerHour: parsed.restPerHour,
    writesPerMinute: parsed.writesPerMinute,
    runnerLabels: parsed.runnerLabels,
    state: parsed.state,
  };
}

/** Reads ACCOUNT_POOL_FILE (JSON `{ "accounts": [...] }`); a clear invalid_input error names what is wrong. */
export async function readPoolFile(path: string): Promise<PoolAccount[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw invalidInput('invalid_pool_file', `${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = poolFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput('invalid_pool_file', `${path}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  const owners = new Set<string>();
  for (const account of parsed.data.accounts) {
    const key = account.owner.toLowerCase();
    if (owners.has(key)) throw invalidInput('invalid_pool_file', `${path}: account ${account.owner} is listed twice`);
    owners.add(key);
  }
  return parsed.data.accounts.map(toPoolAccount);
}

/** The pool of a single-account configuration (BENCH_OWNER): what every deployment had before the pool. */
export function singleAccountPool(owner: string, concurrentJobs: number): PoolAccount[] {
  return [{ owner, installationId: null, concurrentJobs, restPerHour: 5000, writesPerMinute: 80, runnerLabels: [], state: 'active' }];
}

/**
 * Where a new benchmark repository goes: the active account with the least assigned load per concurrent job (so a
 * 60-job account takes three times the load of a 20-job one), ties to the larger account, then by owner. Null when no
 * account is active. `assigned` is the load per account: a repository count, or better each assigned repository's
 * expected job-time (jobs its workflow starts × expected duration × expected runs): repositories of a campaign differ
 * several-fold in work, and two accounts with the same repository count can finish hours apart.
 */
export function leastLoaded(accounts: readonly Pick<PoolAccount, 'owner' | 'concurrentJobs' | 'state'>[], assigned: ReadonlyMap<string, number>): string | null {
  let best: { owner: string; load: number; capacity: number } | null = null;
  for (const account of accounts) {
    if (account.state !== 'active') continue;
    const load = (assigned.get(account.owner) ?? 0) / account.concurrentJobs;
    const better = best === null || load < best.load || (load === best.load && (account.concurrentJobs > best.capacity || (account.concurrentJobs === best.capacity && account.owner < best.owner)));
    if (better) best = { owner: account.owner, load, capacity: account.concurrentJobs };
  }
  return best?.owner ?? null;
}
