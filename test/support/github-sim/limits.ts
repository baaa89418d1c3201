/**
 * Per-account and per-installation limits, as GitHub enforces them (issue 19):
 * - concurrent jobs per account (the plan's limit): a job beyond it stays queued until a running one ends, the way
 *   GitHub's hosted runners queue; the simulator records, per account, how many ran at once (peak) and queued.
 * - REST calls per installation per hour (primary limit: 403 with `x-ratelimit-remaining: 0` until the reset);
 * - content-creating requests per installation per minute (secondary limit: 403 with `retry-after`, or 429).
 * Nothing is limited until a test sets it.
 */
export interface InstallationRateLimits {
  restPerHour?: number;
  writesPerMinute?: number;
  /** Answer an exceeded write limit with 429 instead of GitHub's usual 403 secondary limit. */
  writeLimitStatus?: 403 | 429;
  /** Window lengths (default GitHub's: an hour, a minute); tests shorten them to replay a limit in seconds. */
  restWindowMs?: number;
  writeWindowMs?: number;
}

export interface AccountJobStats {
  running: number;
  queued: number;
  peak: number;
  /** Most jobs at once that were running or waiting for a runner (above the limit: GitHub had to queue them). */
  peakDemand: number;
  started: number;
  limit: number | null;
}

export interface SimLimits {
  setConcurrentJobs(account: string, limit: number | null): void;
  /** Waits for a job slot on the account (FIFO, as GitHub queues jobs); resolves with its release. Rejects when aborted. */
  acquireJob(account: string, signal?: AbortSignal): Promise<() => void>;
  jobs(account: string): AccountJobStats;
  accounts(): string[];
  setInstallationRate(installationId: number, limits: InstallationRateLimits): void;
  rate(installationId: number): InstallationRateLimits | undefined;
  /** Records a content-creating request; returns the seconds to wait when over the per-minute limit, else null. */
  takeWrite(installationId: number, now?: number): { retryAfterSeconds: number; status: 403 | 429 } | null;
  resetStats(): void;
}

interface AccountGate {
  limit: number | null;
  running: number;
  peak: number;
  peakDemand: number;
  started: number;
  waiters: { resolve: () => void; reject: (error: Error) => void; signal?: AbortSignal | undefined; onAbort?: () => void }[];
}

export function createSimLimits(): SimLimits {
  const gates = new Map<string, AccountGate>();
  const rates = new Map<number, InstallationRateLimits>();
  const writes = new Map<number, number[]>();
  const gate = (account: string): AccountGate => {
    const key = account.toLowerCase();
    let found = gates.get(key);
    if (found === undefined) {
      found = { limit: null, running: 0, peak: 0, peakDemand: 0, started: 0, waiters: [] };
      gates.set(key, found);
    }
    return found;
  };
  const grant = (g: AccountGate): (() => void) => {
    g.running += 1;
    g.started += 1;
    g.peak = Math.max(g.peak, g.running);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      g.running -= 1;
      pump(g);
    };
  };
  const pump = (g: AccountGate): void => {
    while (g.waiters.length > 0 && (g.limit === null || g.running < g.limit)) {
      const next = g.waiters.shift();
      if (next === undefined) break;
      if (next.onAbort !== undefined) next.signal?.removeEventListener('abort', next.onAbort);
      next.resolve();
    }
  };
  return {
    setConcurrentJobs(account, limit) {
      const g = gate(account);
      g.limit = limit;
      pump(g);
    },
    acquireJob(account, signal) {
      const g = gate(account);
      if (signal?.aborted === true) return Promise.reject(new Error('aborted'));
      g.peakDemand = Math.max(g.peakDemand, g.running + g.waiters.length + 1);
      if (g.waiters.length === 0 && (g.limit === null || g.running < g.limit)) return Promise.resolve(grant(g));
      return new Promise<() => void>((resolve, reject) => {
        const waiter: AccountGate['waiters'][number] = { resolve: () => resolve(grant(g)), reject, signal };
        if (signal !== undefined) {
          waiter.onAbort = () => {
            const index = g.waiters.indexOf(waiter);
            if (index >= 0) g.waiters.splice(index, 1);
            reject(new Error('aborted'));
          };
          signal.addEventListener('abort', waiter.onAbort, { once: true });
        }
        g.waiters.push(waiter);
      });
    },
    jobs(account) {
      const g = gate(account);
      return { running: g.running, queued: g.waiters.length, peak: g.peak, peakDemand: g.peakDemand, started: g.started, limit: g.limit };
    },
    accounts: () => [...gates.keys()],
    setInstallationRate(installationId, limits) {
      rates.set(installationId, limits);
    },
    rate: (installationId) => rates.get(installationId),
    takeWrite(installationId, now = Date.now()) {
      const limit = rates.get(installationId)?.writesPerMinute;
      if (limit === undefined) return null;
      const windowMs = rates.get(installationId)?.writeWindowMs ?? 60_000;
      const recent = (writes.get(installationId) ?? []).filter((at) => at > now - windowMs);
      if (recent.length >= limit) {
        writes.set(installationId, recent);
        const oldest = recent[0] ?? now;
        return { retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)), status: rates.get(installationId)?.writeLimitStatus ?? 403 };
      }
      recent.push(now);
      writes.set(installationId, recent);
      return null;
    },
    resetStats() {
      for (const g of gates.values()) {
        g.peak = g.running;
        g.peakDemand = g.running + g.waiters.length;
        g.started = 0;
      }
    },
  };
}
