import type { SimAccount, SimRepo, SimState } from './types.js';

export const DEFAULT_APP_ID = 123456;

export function createState(appId: number, appSlug: string): SimState {
  const now = new Date().toISOString();
  const owner: SimAccount = { login: 'ci-replay-owner', id: 9001, type: 'Organization' };
  const accounts = new Map<string, SimAccount>([[owner.login.toLowerCase(), owner]]);
  return {
    app: { id: appId, slug: appSlug, name: 'ci-replay (simulated)', nodeId: nodeId('A_', appId), owner, createdAt: now, clientId: `Iv1.${appId.toString(16).padStart(16, '0')}` },
    accounts,
    installations: new Map(),
    tokens: new Map(),
    repos: new Map(),
    runs: new Map(),
    jobs: new Map(),
    artifacts: new Map(),
    checkRuns: new Map(),
    checkSuites: new Map(),
    deliveries: [],
    ids: {
      account: 100_000,
      repo: 500_000_000,
      installation: 40_000_000,
      workflow: 90_000_000,
      run: 10_000_000_000,
      job: 30_000_000_000,
      artifact: 2_500_000_000,
      checkSuite: 25_000_000_000,
      delivery: 70_000_000_000,
      hook: 410_000_000,
    },
    rate: new Map(),
  };
}

export function nextId(state: SimState, kind: keyof SimState['ids']): number {
  state.ids[kind] += 1;
  return state.ids[kind];
}

export function nodeId(prefix: string, id: number): string {
  return `${prefix}${Buffer.from(`sim:${id}`).toString('base64url')}`;
}

export function ensureAccount(state: SimState, login: string, type: SimAccount['type'] = 'Organization'): SimAccount {
  const key = login.toLowerCase();
  const found = state.accounts.get(key);
  if (found) return found;
  const account: SimAccount = { login, id: nextId(state, 'account'), type };
  state.accounts.set(key, account);
  return account;
}

export function repoKey(owner: string, name: string): string {
  return `${owner}/${name}`.toLowerCase();
}

export function findRepo(state: SimState, owner: string, name: string): SimRepo | undefined {
  return state.repos.get(repoKey(owner, name.replace(/\.git$/, '')));
}

export function findRepoById(state: SimState, id: number): SimRepo | undefined {
  for (const repo of state.repos.values()) if (repo.id === id) return repo;
  return undefined;
}

export function isReady(repo: SimRepo, now = Date.now()): boolean {
  return repo.readyAt === null || repo.readyAt <= now;
}
