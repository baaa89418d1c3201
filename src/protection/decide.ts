/**
 * The protection decision for every path a candidate patch touches: kept, reverted (restored to sha_fail), or
 * merged (setup.cfg / pyproject.toml with their test-configuration sections restored), each with why.
 */
import picomatch from 'picomatch';
import { compareValidation } from './compare-workflows.js';
import { defaultRuleOf } from './default-rules.js';
import { mergeProtectedSections } from './merge-sections.js';
import type { DatasetPolicy } from './policy.js';

/** What happens to one path the candidate touches. */
export type PathDecision =
  | { path: string; action: 'keep'; why: string | null }
  | { path: string; action: 'revert'; why: string }
  | { path: string; action: 'merge'; why: string; content: string };

/** Where a file's text is read: sha_fail, after the candidate patch, after the ground-truth patch. */
export type Side = 'base' | 'candidate' | 'groundTruth';

export interface DecideInput {
  policy: Pick<DatasetPolicy, 'dataset' | 'protection' | 'protectedPaths'>;
  /** The instance's own protected-path globs (always reverted, whatever the policy). */
  instancePaths: readonly string[];
  /** Paths the candidate changes (both names of a rename). */
  touched: readonly string[];
  groundTruth: {
    /** Paths the ground-truth patch changes. */
    touched: ReadonlySet<string>;
    /** False when the ground-truth patch does not apply to sha_fail (its texts cannot be read). */
    applies: boolean;
  };
  /** Paths sanctioned by the benchmark itself (a SWE-sweep subtask's hidden test patch), with why. */
  sanctioned?: ReadonlyMap<string, string>;
  /** A file's text on one side; null when absent there. */
  read(side: Side, path: string): Promise<string | null>;
}

/** Decides every touched path, in path order. */
export async function decideProtection(input: DecideInput): Promise<PathDecision[]> {
  const explicit = explicitMatchers(input);
  const decisions: PathDecision[] = [];
  for (const path of [...new Set(input.touched)].sort()) decisions.push(await decidePath(input, explicit, path));
  return decisions;
}

type ExplicitMatcher = { glob: string; owner: string; match: (path: string) => boolean };

function explicitMatchers(input: DecideInput): ExplicitMatcher[] {
  const own = input.instancePaths.map((glob) => ({ glob, owner: 'the instance' }));
  const dataset = input.policy.protection === 'off' ? [] : input.policy.protectedPaths.map((glob) => ({ glob, owner: `dataset ${input.policy.dataset}` }));
  return [...own, ...dataset].map((entry) => ({ ...entry, match: picomatch(entry.glob, { dot: true }) }));
}

async function decidePath(input: DecideInput, explicit: readonly ExplicitMatcher[], path: string): Promise<PathDecision> {
  const hit = explicit.find((matcher) => matcher.match(path));
  if (hit !== undefined) return { path, action: 'revert', why: `matches the protected path \`${hit.glob}\` of ${hit.owner}` };
  if (input.policy.protection !== 'ground-truth') return { path, action: 'keep', why: null };
  const rule = defaultRuleOf(path);
  if (rule === null) return { path, action: 'keep', why: null };
  const sanctioned = input.sanctioned?.get(path);
  if (sanctioned !== undefined) return { path, action: 'keep', why: sanctioned };
  const truthEdits = input.groundTruth.touched.has(path);
  if (rule.kind === 'sections') return decideSections(input, path, rule.format, rule.name, truthEdits);
  if (!truthEdits) return { path, action: 'revert', why: `${rule.name}: the ground truth does not edit this file` };
  if (!isYaml(path) || !path.startsWith('.github/')) return { path, action: 'keep', why: `${rule.name}: the ground truth edits this file too` };
  if (!input.groundTruth.applies) return { path, action: 'revert', why: 'the ground-truth patch does not apply to sha_fail, so its version of this file cannot be compared' };
  // Reasons quote the ground truth's version only where sha_fail's file already shows the same text.
  const base = await input.read('base', path);
  const comparison = compareValidation(await input.read('candidate', path), await input.read('groundTruth', path), { reveal: (text) => base?.includes(text) ?? false });
  if (comparison.same) return { path, action: 'keep', why: 'the ground truth edits this file too, and the candidate\'s version runs the same checks under the same conditions' };
  return { path, action: 'revert', why: comparison.why };
}

async function decideSections(input: DecideInput, path: string, format: 'ini' | 'toml', name: string, truthEdits: boolean): Promise<PathDecision> {
  const base = await input.read('base', path);
  const candidate = await input.read('candidate', path);
  if (candidate === null) {
    const merged = mergeProtectedSections(format, { base: base ?? '', candidate: '', groundTruth: base ?? '' });
    if (merged.kind === 'unchanged' || (truthEdits && (await input.read('groundTruth', path)) === null)) return { path, action: 'keep', why: null };
    return { path, action: 'revert', why: `${name}: deleting the file would drop its test configuration, and the ground truth does not` };
  }
  if (truthEdits && !input.groundTruth.applies) {
    const unchanged = mergeProtectedSections(format, { base: base ?? '', candidate, groundTruth: base ?? '' }).kind === 'unchanged';
    if (unchanged) return { path, action: 'keep', why: null };
    return { path, action: 'revert', why: 'the ground-truth patch does not apply to sha_fail, so its sections of this file cannot be compared' };
  }
  const truth = truthEdits ? await input.read('groundTruth', path) : base;
  const merged = mergeProtectedSections(format, { base: base ?? '', candidate, groundTruth: truth ?? '' });
  if (merged.kind === 'unchanged') return { path, action: 'keep', why: null };
  if (merged.kind === 'kept') return { path, action: 'keep', why: `the ground truth edits the same sections (${merged.sections.join(', ')})` };
  if (merged.kind === 'revert') return { path, action: 'revert', why: merged.why };
  const kept = merged.kept.length === 0 ? '' : `; kept ${merged.kept.join(', ')}, which the ground truth edits too`;
  return { path, action: 'merge', content: merged.text, why: `restored ${merged.restored.join(', ')}: the ground truth does not edit ${merged.restored.length === 1 ? 'this section' : 'these sections'}${kept}` };
}

const isYaml = (path: string): boolean => /\.ya?ml$/i.test(path);
