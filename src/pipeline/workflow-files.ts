import { readFilesAt } from '../git/index.js';

/** How many (mirror, commit) listings are kept: about one per instance a worker prepares in a campaign. */
const CAPACITY = 256;

const cache = new Map<string, Promise<readonly { path: string; text: string }[]>>();

/**
 * The workflow files (`.github/workflows/**`) of commit `sha` in the mirror `gitDir`, with their text. A commit's
 * tree never changes, so the listing is read once per (mirror, commit) and kept, least recently used first out:
 * every submission of an instance reads the same sha_fail. A failed read is not kept. Callers get their own copy.
 */
export async function workflowFilesAt(gitDir: string, sha: string): Promise<{ path: string; text: string }[]> {
  const key = `${gitDir}\0${sha}`;
  let entry = cache.get(key);
  if (entry === undefined) {
    entry = readFilesAt(gitDir, sha, '.github/workflows').then((files) => files.map((file) => ({ path: file.path, text: file.bytes.toString('utf8') })));
    entry.catch(() => cache.delete(key));
    if (cache.size >= CAPACITY) cache.delete(cache.keys().next().value ?? '');
  } else {
    cache.delete(key);
  }
  cache.set(key, entry);
  return (await entry).map((file) => ({ ...file }));
}
