/** Reading and changing a dataset's protection policy (the HTTP route and the CLI share this). */
import type { DatasetPolicyRepository } from '../db/index.js';
import { notFound } from '../errors.js';
import { defaultPolicy, isProtection, validateProtectedPaths, type DatasetPolicy, type Protection } from './policy.js';

/** A partial update: what is absent keeps its current (or default) value. */
export interface PolicyUpdate {
  protection?: Protection;
  protectedPaths?: readonly string[];
}

type Repo = Pick<DatasetPolicyRepository, 'get' | 'save' | 'datasetHasInstances'>;

/** The policy that applies to a dataset: its stored row, or the default (`ground-truth`, no explicit paths). */
export async function loadDatasetPolicy(repo: Pick<DatasetPolicyRepository, 'get'>, dataset: string): Promise<DatasetPolicy> {
  const row = await repo.get(dataset);
  if (row === null) return defaultPolicy(dataset);
  // A value written by hand outside the API that is not a known protection falls back to the strictest rule.
  return { dataset, protection: isProtection(row.protection) ? row.protection : 'ground-truth', protectedPaths: row.protectedPaths, source: 'stored' };
}

/** Like {@link loadDatasetPolicy}, but a dataset with neither a policy nor instances is unknown (404). */
export async function getDatasetPolicy(repo: Repo, dataset: string): Promise<DatasetPolicy> {
  const policy = await loadDatasetPolicy(repo, dataset);
  if (policy.source === 'default' && !(await repo.datasetHasInstances(dataset))) throw notFound('dataset', dataset);
  return policy;
}

/** Applies a partial update (protected paths validated: 422 `invalid_protected_path`) and returns the stored policy. */
export async function updateDatasetPolicy(repo: Repo, dataset: string, update: PolicyUpdate): Promise<DatasetPolicy> {
  const current = await loadDatasetPolicy(repo, dataset);
  const protectedPaths = update.protectedPaths === undefined ? current.protectedPaths : validateProtectedPaths(update.protectedPaths);
  const row = await repo.save(dataset, { protection: update.protection ?? current.protection, protectedPaths });
  return { dataset, protection: isProtection(row.protection) ? row.protection : 'ground-truth', protectedPaths: row.protectedPaths, source: 'stored' };
}
