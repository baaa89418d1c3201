import { invalidInput } from '../errors.js';

/**
 * Dataset owner → upstream owner, per repository. Keys are `owner/name` (one repository) or `owner` (every
 * repository of that dataset owner); the per-repository key wins. Matching ignores case, as GitHub does.
 */
export type OwnerMap = ReadonlyMap<string, string>;

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * Parses an owner map: a JSON object `{ "fork-owner/repo": "upstream-owner", "other-fork": "upstream" }`.
 * Every bad entry is named in one invalid_input `invalid_owner_map` error (nothing is imported with a bad map).
 */
export function parseOwnerMap(text: string, source = 'the owner map'): OwnerMap {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw invalidInput('invalid_owner_map', `${source} is not valid JSON: ${(error as Error).message}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalidInput('invalid_owner_map', `${source} must be a JSON object: { "dataset-owner/repo": "upstream-owner", "dataset-owner": "upstream-owner" }`);
  }
  const problems: string[] = [];
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(raw)) {
    const parts = key.split('/');
    if (parts.length > 2 || !parts.every((part) => NAME.test(part))) problems.push(`key "${key.slice(0, 120)}" is not owner or owner/name`);
    else if (typeof value !== 'string' || !NAME.test(value) || value.includes('/')) problems.push(`"${key}": the upstream owner must be a GitHub account name`);
    else map.set(key.toLowerCase(), value);
  }
  if (problems.length > 0) throw invalidInput('invalid_owner_map', `${source}: ${problems.slice(0, 20).join('; ')}`, { problems });
  return map;
}

/** The upstream owner of a dataset row's repository, or undefined when the map does not name it. */
export function mapOwner(map: OwnerMap | undefined, owner: string, name: string): string | undefined {
  if (map === undefined) return undefined;
  return map.get(`${owner}/${name}`.toLowerCase()) ?? map.get(owner.toLowerCase());
}
