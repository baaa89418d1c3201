/** Which files under .github/workflows/ to delete so that only the target workflow (and what it calls) runs. */
import { parseDocument, isMap, isScalar } from 'yaml';
import type { ReportEntry } from './types.js';
import { pairsOf } from './nodes.js';

export interface WorkflowFile {
  path: string;
  text: string;
}

const WORKFLOW_DIR = '.github/workflows/';

function normalize(path: string): string {
  return path.replace(/^\.\//, '').replace(/^\/+/, '');
}

/** A workflow file GitHub would run: a .yml/.yaml directly under .github/workflows/. */
export function isWorkflowFile(path: string): boolean {
  const normalized = normalize(path);
  if (!normalized.startsWith(WORKFLOW_DIR)) return false;
  const rest = normalized.slice(WORKFLOW_DIR.length);
  return !rest.includes('/') && /\.ya?ml$/i.test(rest);
}

/** Local reusable workflows a workflow calls (`uses: ./.github/workflows/x.yml` on a job). */
export function calledWorkflows(text: string): string[] {
  const found = new Set<string>();
  const doc = parseDocument(text);
  const jobs = isMap(doc.contents) ? doc.contents.get('jobs', true) : undefined;
  if (doc.errors.length === 0 && isMap(jobs)) {
    for (const pair of pairsOf(jobs)) {
      const uses = isMap(pair.value) ? pair.value.get('uses', true) : undefined;
      if (isScalar(uses) && typeof uses.value === 'string' && uses.value.startsWith('./')) found.add(normalize(uses.value.split('@')[0] ?? ''));
    }
    return [...found];
  }
  for (const match of text.matchAll(/^\s*uses:\s*['"]?\.\/(\.github\/workflows\/[^\s'"@#]+)/gm)) found.add(match[1] ?? '');
  return [...found];
}

/**
 * The workflow files to delete: every workflow file except the target and the local reusable workflows it
 * calls, transitively. Files in subfolders and non-YAML files are never run by GitHub and stay, as do local
 * composite actions under .github/actions/.
 */
export function selectWorkflowFilesToDelete(targetPath: string, files: readonly WorkflowFile[]): string[] {
  const byPath = new Map(files.map((file) => [normalize(file.path), file]));
  const keep = new Set<string>([normalize(targetPath)]);
  const queue = [normalize(targetPath)];
  while (queue.length > 0) {
    const current = queue.shift() ?? '';
    const file = byPath.get(current);
    if (file === undefined) continue;
    for (const called of calledWorkflows(file.text)) {
      if (keep.has(called)) continue;
      keep.add(called);
      queue.push(called);
    }
  }
  return files.map((file) => file.path).filter((path) => isWorkflowFile(path) && !keep.has(normalize(path))).sort();
}

export function deletionReport(paths: readonly string[], targetPath: string): ReportEntry[] {
  return paths.map((path) => ({ action: 'deleted-workflow', target: path, reason: `not ${targetPath} nor a reusable workflow it calls` }));
}
