/**
 * Section-level protection of setup.cfg and pyproject.toml: the candidate's edits to pytest/coverage/tox
 * sections are undone (the original section text restored) unless the ground truth edits the same section; the
 * rest of the file (dependencies, metadata) stays the candidate's.
 */
import type { SectionFormat } from './default-rules.js';
import { scanSections, type Section } from './section-scan.js';

export type SectionDecision =
  /** The candidate does not change a protected section: nothing to do. */
  | { kind: 'unchanged' }
  /** Every protected section the candidate changes is changed by the ground truth too. */
  | { kind: 'kept'; sections: string[] }
  /** Some sections restored; `text` is the file to install. */
  | { kind: 'merged'; text: string; restored: string[]; kept: string[] }
  /** Cannot be restored section by section: revert the whole file. */
  | { kind: 'revert'; why: string };

/**
 * Decides the protected sections of one file. `groundTruth` is the file after the ground-truth patch, or the same
 * text as `base` when the ground truth does not edit it (null: it deletes the file).
 */
export function mergeProtectedSections(format: SectionFormat, texts: { base: string; candidate: string; groundTruth: string | null }): SectionDecision {
  const base = scanSections(texts.base, format);
  const candidate = scanSections(texts.candidate, format);
  const truth = scanSections(texts.groundTruth ?? '', format);
  const baseGroups = groups(base.sections);
  const candidateGroups = groups(candidate.sections);
  const truthGroups = groups(truth.sections);
  const keys = [...new Set([...baseGroups.keys(), ...candidateGroups.keys()])];
  const changed = keys.filter((key) => (baseGroups.get(key) ?? '') !== (candidateGroups.get(key) ?? ''));
  const straysChanged = base.strays.join('\n') !== candidate.strays.join('\n');
  if (changed.length === 0 && !straysChanged) return { kind: 'unchanged' };
  if (straysChanged && base.strays.join('\n') === truth.strays.join('\n')) {
    const first = [...candidate.strays, ...base.strays].find((stray) => !base.strays.includes(stray) || !candidate.strays.includes(stray)) ?? '';
    return { kind: 'revert', why: `it changes test configuration outside its own table (\`${first.split('\n')[0]?.slice(0, 80) ?? ''}\`), which cannot be restored section by section, and the ground truth does not` };
  }
  const sanctioned = (key: string): boolean => (truthGroups.get(key) ?? '') !== (baseGroups.get(key) ?? '');
  const kept = changed.filter(sanctioned);
  const restored = changed.filter((key) => !sanctioned(key));
  if (restored.length === 0) return { kind: 'kept', sections: kept };
  return { kind: 'merged', text: rebuild(candidate.sections, base.sections, new Set(restored)), restored, kept };
}

/**
 * Protected sections by key, their texts joined (a key may repeat: TOML arrays of tables, duplicate INI headers);
 * trailing blank lines (the gap before the next header) do not count.
 */
function groups(sections: readonly Section[]): Map<string, string> {
  const byKey = new Map<string, string>();
  for (const section of sections) {
    if (!section.protected) continue;
    byKey.set(section.key, `${byKey.get(section.key) ?? ''}${section.text.trimEnd()}\n`);
  }
  return byKey;
}

/**
 * The candidate's sections in order, where each restored key's sections are replaced (at its first occurrence)
 * by the original's; restored sections the candidate removed are appended at the end.
 */
function rebuild(candidate: readonly Section[], base: readonly Section[], restore: ReadonlySet<string>): string {
  const original = (key: string): string => base.filter((section) => section.key === key).map((section) => ensureNewline(section.text)).join('');
  const emitted = new Set<string>();
  let out = '';
  for (const section of candidate) {
    if (!section.protected || !restore.has(section.key)) {
      out += section.text;
      continue;
    }
    if (emitted.has(section.key)) continue;
    emitted.add(section.key);
    out = ensureNewline(out) + original(section.key);
  }
  for (const key of restore) {
    if (emitted.has(key)) continue;
    const text = original(key);
    if (text === '') continue;
    out = `${ensureNewline(out)}${out.trim() === '' || out.endsWith('\n\n') ? '' : '\n'}${text}`;
  }
  return out;
}

const ensureNewline = (text: string): string => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
