import type { Role } from '../domain/states.js';

/**
 * Who is calling the HTTP API: the bearer token's id and role. The CLI and the pipeline itself act without a
 * principal; what they create has no owner (`ownerTokenId` null) and only operators see it.
 */
export interface Principal {
  tokenId: string;
  name: string;
  role: Role;
}

/** The owner filter for a list query: `undefined` lists every row (operators), a token id only that token's rows. */
export const ownerScope = (principal: Principal): string | undefined => (principal.role === 'operator' ? undefined : principal.tokenId);

/** Whether `principal` may see a row owned by `ownerTokenId` (null: created by the CLI or the pipeline). */
export const canSee = (principal: Principal, ownerTokenId: string | null): boolean =>
  principal.role === 'operator' || (ownerTokenId !== null && ownerTokenId === principal.tokenId);

/** Whether `principal` may read an instance's ground truth (patch, stored logs, fixed commit, hidden tests). */
export const canReadGroundTruth = (principal: Principal | undefined, instance: { public: boolean }): boolean =>
  principal === undefined || principal.role === 'operator' || instance.public;

/** Submission kinds that replay the ground truth: a submitter may create them only on public instances. */
export const GROUND_TRUTH_KINDS: readonly string[] = ['reference', 'revalidation'];

/**
 * The Idempotency-Key as stored: scoped per token (`<tokenId>:<key>`), `cli:<key>` without a principal, so the
 * same key from two tokens names two submissions. Views never show the stored value.
 */
export const scopedIdempotencyKey = (principal: Principal | undefined, key: string): string => `${principal?.tokenId ?? 'cli'}:${key}`;
