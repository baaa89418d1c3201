import picomatch from 'picomatch';
import { parse } from 'yaml';

export interface ParsedWorkflow {
  name: string | null;
  on: Record<string, unknown>;
  jobs: Record<string, Record<string, unknown>>;
}

export function parseWorkflow(text: string): ParsedWorkflow | null {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object') return null;
  const record = doc as Record<string, unknown>;
  const rawOn = record.on ?? record.true;
  const on: Record<string, unknown> = {};
  if (typeof rawOn === 'string') on[rawOn] = null;
  else if (Array.isArray(rawOn)) for (const name of rawOn) on[String(name)] = null;
  else if (rawOn && typeof rawOn === 'object') Object.assign(on, rawOn);
  const jobs = record.jobs && typeof record.jobs === 'object' ? (record.jobs as Record<string, Record<string, unknown>>) : {};
  return { name: typeof record.name === 'string' ? record.name : null, on, jobs };
}

function asList(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/** GitHub's filter pattern semantics: patterns in order, `!` negates; `*` stops at `/`, `**` does not. */
export function matchesFilters(name: string, include: string[] | null, ignore: string[] | null): boolean {
  if (include) {
    let matched = false;
    for (const pattern of include) {
      if (pattern.startsWith('!')) {
        if (picomatch.isMatch(name, pattern.slice(1), { dot: true })) matched = false;
      } else if (picomatch.isMatch(name, pattern, { dot: true })) matched = true;
    }
    return matched;
  }
  if (ignore) return !ignore.some((pattern) => picomatch.isMatch(name, pattern, { dot: true }));
  return true;
}

/** Whether a push to `ref` triggers the workflow. */
export function triggersOnPush(workflow: ParsedWorkflow, ref: string): boolean {
  if (!('push' in workflow.on)) return false;
  const config = (workflow.on.push ?? {}) as Record<string, unknown>;
  if (ref.startsWith('refs/heads/')) {
    const branch = ref.slice('refs/heads/'.length);
    const branches = asList(config.branches);
    const ignore = asList(config['branches-ignore']);
    const tags = asList(config.tags) ?? asList(config['tags-ignore']);
    if (!branches && !ignore && tags) return false;
    return matchesFilters(branch, branches, ignore);
  }
  if (ref.startsWith('refs/tags/')) {
    const tag = ref.slice('refs/tags/'.length);
    const tags = asList(config.tags);
    const ignore = asList(config['tags-ignore']);
    const branches = asList(config.branches) ?? asList(config['branches-ignore']);
    if (!tags && !ignore && branches) return false;
    return matchesFilters(tag, tags, ignore);
  }
  return false;
}

/** Whether the workflow's `on.push` has `paths` or `paths-ignore` (then the changed files decide). */
export function hasPushPathFilters(workflow: ParsedWorkflow): boolean {
  const config = (workflow.on.push ?? {}) as Record<string, unknown>;
  return asList(config.paths) !== null || asList(config['paths-ignore']) !== null;
}

/**
 * `on.push.paths`: some changed file matches (patterns in order, `!` negates); `paths-ignore`: some changed file is
 * not ignored. No changed files: no run. Like GitHub, only the first 300 changed files are looked at.
 */
export function matchesPushPaths(workflow: ParsedWorkflow, files: string[]): boolean {
  const config = (workflow.on.push ?? {}) as Record<string, unknown>;
  const paths = asList(config.paths);
  const ignore = asList(config['paths-ignore']);
  if (!paths && !ignore) return true;
  return files.slice(0, 300).some((file) => matchesFilters(file, paths, paths ? null : ignore));
}

export function hasTrigger(workflow: ParsedWorkflow, event: string): boolean {
  return event in workflow.on;
}
