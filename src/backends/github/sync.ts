import type { Logger } from 'pino';
import type { Repositories } from '../../db/index.js';
import { invalidInput } from '../../errors.js';
import type { GithubApp } from '../../github/index.js';
import { benchRepoName, ensureBenchRepo } from './bench-repo.js';

export interface SyncBenchReposDeps {
  github: GithubApp;
  repos: Pick<Repositories, 'instances' | 'benchRepos'>;
  benchOwner: string;
  mode: 'fork' | 'mirror';
  logger: Logger;
  forkWaitMs?: number;
}

export interface SyncOutcome {
  upstream: string;
  benchRepo: string;
  ok: boolean;
  error?: string;
}

/**
 * `ci-replay repos sync [--instance <id> | --all]`: ensures the benchmark repository of each selected
 * instance's upstream (created or forked, Actions enabled, disabled workflows enabled again), ignoring the
 * sync cache. One outcome per distinct upstream; a failure of one does not stop the others.
 */
export async function syncBenchRepos(deps: SyncBenchReposDeps, selector: { instanceId: string } | { all: true }): Promise<SyncOutcome[]> {
  let instances;
  if ('instanceId' in selector) {
    const instance = await deps.repos.instances.get(selector.instanceId);
    if (instance === null) throw invalidInput('not_found', `instance ${selector.instanceId} does not exist`, undefined, 404);
    instances = [instance];
  } else {
    instances = await deps.repos.instances.listAll();
  }
  const upstreams = new Map<string, { owner: string; name: string }>();
  for (const instance of instances) upstreams.set(`${instance.repoOwner}/${instance.repoName}`.toLowerCase(), { owner: instance.repoOwner, name: instance.repoName });
  const outcomes: SyncOutcome[] = [];
  for (const upstream of upstreams.values()) {
    const benchRepo = `${deps.benchOwner}/${benchRepoName(upstream)}`;
    try {
      await ensureBenchRepo({ ...deps, benchRepos: deps.repos.benchRepos }, upstream, { force: true });
      outcomes.push({ upstream: `${upstream.owner}/${upstream.name}`, benchRepo, ok: true });
    } catch (error) {
      deps.logger.warn({ err: error, upstream }, 'benchmark repository sync failed');
      outcomes.push({ upstream: `${upstream.owner}/${upstream.name}`, benchRepo, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcomes;
}
