/**
 * Applies a submission's patch to sha_fail in a temporary index (the patch engine's plumbing, nothing pushed),
 * decides which of its edits stand under the dataset's policy (reading the ground-truth-patched versions the same
 * way), and returns what the benchmark commit must undo.
 */
import { applyPatch, readFileAt, type CommitIdentity } from '../git/index.js';
import { headerPaths } from '../git/apply-patch/patch-paths.js';
import { isWorkflowFile } from '../workflows/index.js';
import { decideProtection, type PathDecision, type Side } from './decide.js';
import { defaultRuleOf } from './default-rules.js';
import type { DatasetPolicy, Protection } from './policy.js';

/** What the standardization record stores about protection (and the report renders). */
export interface ProtectionRecord {
  policy: Protection;
  /** Paths whose candidate edits were undone (wholly, or section by section), and why. */
  reverted: { path: string; why: string }[];
  /** Protected paths whose edits were kept because the ground truth (or the benchmark) makes the same kind of edit. */
  kept: { path: string; why: string }[];
  /** Set when the submission's kind is not filtered (baseline, reference, revalidation). */
  notApplied?: string;
}

export interface ProtectInput {
  gitDir: string;
  instance: { id: string; shaFail: string; diff: string; protectedPaths: readonly string[]; subtasks?: unknown };
  submission: { patch: string; kind: string; subtaskId?: string | null };
  policy: DatasetPolicy;
  identity: CommitIdentity;
}

export type ProtectResult =
  | {
    ok: true;
    record: ProtectionRecord;
    /** Paths to restore to sha_fail. */
    revertPaths: string[];
    /** Files to install instead of the candidate's (test-configuration sections restored). */
    rewrites: { path: string; content: string }[];
    /** Workflow files (.github/workflows/*.yml) the patch changes and that keep the change: their new text, null when deleted. */
    keptWorkflows: Map<string, string | null>;
    /** Every path whose edit is undone, wholly or section by section (revertPaths and rewrites). */
    undone: string[];
  }
  | { ok: false; message: string };

/** Kinds whose patch is not filtered: the baseline has none, the reference IS the ground truth. */
const UNFILTERED: readonly string[] = ['baseline', 'reference', 'revalidation'];

export async function protectPatch(input: ProtectInput): Promise<ProtectResult> {
  const { gitDir, instance, submission, policy } = input;
  const keptWorkflows = new Map<string, string | null>();
  const empty = (record: ProtectionRecord): ProtectResult => ({ ok: true, record, revertPaths: [], rewrites: [], keptWorkflows, undone: [] });
  if (submission.patch.trim() === '') return empty({ policy: policy.protection, reverted: [], kept: [], ...(submission.kind === 'candidate' ? {} : { notApplied: `${submission.kind} submissions are not filtered` }) });
  const patched = await applyAt(input, submission.patch, 'candidate');
  if (!patched.ok) return { ok: false, message: patched.message };
  const touched = patched.changes.flatMap((change) => (change.oldPath === undefined ? [change.path] : [change.path, change.oldPath]));
  const read = reader(gitDir, { base: instance.shaFail, candidate: patched.commitSha, groundTruth: instance.shaFail });
  const keepWorkflows = async (decisions: readonly PathDecision[]): Promise<void> => {
    for (const decision of decisions) {
      if (decision.action === 'keep' && isWorkflowFile(decision.path)) keptWorkflows.set(decision.path, await read('candidate', decision.path));
    }
  };
  if (UNFILTERED.includes(submission.kind)) {
    await keepWorkflows(touched.map((path) => ({ path, action: 'keep', why: null })));
    return empty({ policy: policy.protection, reverted: [], kept: [], notApplied: `${submission.kind} submissions are not filtered` });
  }
  const truth = await groundTruthOf(input, touched);
  if (truth.sha !== null) read.setSha('groundTruth', truth.sha);
  const decisions = await decideProtection({
    policy,
    instancePaths: instance.protectedPaths,
    touched,
    groundTruth: { touched: truth.touched, applies: truth.applies },
    sanctioned: sanctionedBySubtask(instance.subtasks, submission.subtaskId),
    read,
  });
  await keepWorkflows(decisions);
  return {
    ok: true,
    record: {
      policy: policy.protection,
      reverted: decisions.flatMap((decision) => (decision.action === 'keep' ? [] : [{ path: decision.path, why: decision.why }])),
      kept: decisions.flatMap((decision) => (decision.action === 'keep' && decision.why !== null ? [{ path: decision.path, why: decision.why }] : [])),
    },
    revertPaths: decisions.filter((decision) => decision.action === 'revert').map((decision) => decision.path),
    undone: decisions.filter((decision) => decision.action !== 'keep').map((decision) => decision.path),
    rewrites: decisions.flatMap((decision) => (decision.action === 'merge' ? [{ path: decision.path, content: decision.content }] : [])),
    keptWorkflows,
  };
}

async function applyAt(input: ProtectInput, patch: string, what: string): Promise<Awaited<ReturnType<typeof applyPatch>>> {
  return applyPatch({
    gitDir: input.gitDir,
    baseSha: input.instance.shaFail,
    patch,
    identity: input.identity,
    date: new Date(0),
    message: `ci-replay protection check (${what}) for instance ${input.instance.id}\n`,
  });
}

/**
 * The ground truth's changed paths and commit, applied only when a touched path falls under a default rule (the
 * only decisions that consult it). A ground truth that does not apply is named by its patch headers.
 */
async function groundTruthOf(input: ProtectInput, touched: readonly string[]): Promise<{ touched: Set<string>; applies: boolean; sha: string | null }> {
  const needed = input.policy.protection === 'ground-truth' && touched.some((path) => defaultRuleOf(path) !== null);
  if (!needed || input.instance.diff.trim() === '') return { touched: new Set(), applies: true, sha: null };
  const applied = await applyAt(input, input.instance.diff, 'ground truth');
  if (!applied.ok) return { touched: new Set(headerPaths(input.instance.diff)), applies: false, sha: null };
  return { touched: new Set(applied.changes.flatMap((change) => (change.oldPath === undefined ? [change.path] : [change.path, change.oldPath]))), applies: true, sha: applied.commitSha };
}

/** A SWE-sweep subtask run carries the subtask's hidden test patch: the benchmark's own edit, kept. */
function sanctionedBySubtask(subtasks: unknown, subtaskId: string | null | undefined): Map<string, string> {
  if (subtaskId === null || subtaskId === undefined || !Array.isArray(subtasks)) return new Map();
  const subtask = subtasks.find((entry: unknown) => typeof entry === 'object' && entry !== null && (entry as { id?: unknown }).id === subtaskId) as { testPatch?: unknown } | undefined;
  if (typeof subtask?.testPatch !== 'string') return new Map();
  return new Map(headerPaths(subtask.testPatch).map((path) => [path, `the SWE-sweep subtask ${subtaskId}'s test patch edits this file`]));
}

type Reader = ((side: Side, path: string) => Promise<string | null>) & { setSha(side: Side, sha: string): void };

function reader(gitDir: string, shas: Record<Side, string>): Reader {
  const cache = new Map<string, Promise<string | null>>();
  const read = (side: Side, path: string): Promise<string | null> => {
    const key = `${shas[side]}:${path}`;
    let text = cache.get(key);
    if (text === undefined) {
      text = readFileAt(gitDir, shas[side], path).then((bytes) => (bytes === null ? null : bytes.toString('utf8')));
      cache.set(key, text);
    }
    return text;
  };
  return Object.assign(read, { setSha: (side: Side, sha: string) => { shas[side] = sha; } });
}

/**
 * The workflow files of sha_fail with the patch's kept workflow edits applied (changed texts, deletions and new
 * files), so that sibling selection and callee standardization see the files the commit will hold.
 */
export function withKeptWorkflows(files: readonly { path: string; text: string }[], kept: ReadonlyMap<string, string | null>): { path: string; text: string }[] {
  const result = files.flatMap((file) => {
    if (!kept.has(file.path)) return [file];
    const text = kept.get(file.path);
    return text === null || text === undefined ? [] : [{ path: file.path, text }];
  });
  for (const [path, text] of kept) {
    if (text !== null && !files.some((file) => file.path === path)) result.push({ path, text });
  }
  return result;
}
