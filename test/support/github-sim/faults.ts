import type { RunFaultRule, SimContext } from './context.js';
import type { Engine } from './runs/engine.js';
import type { WebhookFaultRule } from './webhooks/deliverer.js';

export type ApiFaultResponse =
  | { kind: 'status'; status: 500 | 502 | 503 | 504 }
  | { kind: 'secondary-rate-limit'; retryAfterSeconds?: number }
  | { kind: 'too-many-requests'; retryAfterSeconds?: number }
  | { kind: 'primary-rate-limit'; resetInSeconds?: number };

export interface ApiFaultRule {
  method?: string;
  /** An OpenAPI path template (`/repos/{owner}/{repo}/actions/runs`), a concrete path, or a RegExp on the path. */
  path: string | RegExp;
  /** How many matching calls get the fault (default 1). */
  times?: number;
  response: ApiFaultResponse;
}

export interface WebhookMatch {
  event?: string;
  action?: string;
  times?: number;
}

export interface SimFaults {
  /** Answer matching API calls with an error. */
  api(rule: ApiFaultRule): void;
  webhooks: {
    drop(match?: WebhookMatch): void;
    duplicate(match?: WebhookMatch): void;
    delay(delayMs: number, match?: WebhookMatch): void;
    /** Not delivered; recorded as failed in the App's delivery log (redeliverable). */
    fail(match?: WebhookMatch): void;
    /** Holds every delivery until release(); release sends them in reverse (default) or original order. */
    hold(): void;
    release(order?: 'fifo' | 'reverse'): void;
  };
  /** Forks of this repository (owner/name) stay "being created" until finishFork. */
  forkStaysCreating(sourceFullName: string): void;
  finishFork(forkFullName: string): void;
  /** Matching runs stay queued (never start) until startRun. */
  runNeverStarts(rule?: RunFaultRule): void;
  startRun(runId: number): void;
  cancelRun(runId: number): void;
  timeOutRun(runId: number): void;
  rerun(runId: number): void;
  /** Removes every pending fault rule. */
  clear(): void;
}

export function createFaults(ctx: SimContext, engine: Engine, apiRules: ApiFaultRule[]): SimFaults {
  const addWebhook = (effect: WebhookFaultRule['effect'], match: WebhookMatch = {}): void => {
    ctx.deliverer.rules.push({ ...match, effect, times: match.times ?? 1 });
  };
  const run = (id: number) => {
    const found = ctx.state.runs.get(id);
    if (!found) throw new Error(`no run ${id}`);
    return found;
  };
  return {
    api(rule) {
      apiRules.push({ ...rule, times: rule.times ?? 1 });
    },
    webhooks: {
      drop: (match) => addWebhook('drop', match),
      duplicate: (match) => addWebhook('duplicate', match),
      delay: (delayMs, match) => addWebhook({ delayMs }, match),
      fail: (match) => addWebhook('fail', match),
      hold: () => ctx.deliverer.hold(),
      release: (order) => ctx.deliverer.release(order),
    },
    forkStaysCreating(sourceFullName) {
      ctx.stuckForks.add(sourceFullName.toLowerCase());
    },
    finishFork(forkFullName) {
      const repo = ctx.state.repos.get(forkFullName.toLowerCase());
      if (!repo) throw new Error(`no repository ${forkFullName}`);
      repo.readyAt = null;
    },
    runNeverStarts(rule = {}) {
      ctx.neverStartRules.push({ ...rule, times: rule.times ?? 1 });
    },
    startRun: (id) => engine.start(run(id)),
    cancelRun: (id) => engine.stop(run(id), 'cancelled'),
    timeOutRun: (id) => engine.stop(run(id), 'timed_out'),
    rerun: (id) => engine.rerun(run(id)),
    clear() {
      apiRules.length = 0;
      ctx.deliverer.rules.length = 0;
      ctx.neverStartRules.length = 0;
      ctx.stuckForks.clear();
    },
  };
}

/** Finds and consumes the first API fault rule matching this call. */
export function takeApiFault(rules: ApiFaultRule[], method: string, template: string, path: string): ApiFaultResponse | null {
  for (const rule of rules) {
    if ((rule.times ?? 1) <= 0) continue;
    if (rule.method && rule.method.toUpperCase() !== method) continue;
    const matches = typeof rule.path === 'string' ? rule.path === template || rule.path === path : rule.path.test(path);
    if (!matches) continue;
    rule.times = (rule.times ?? 1) - 1;
    return rule.response;
  }
  return null;
}
