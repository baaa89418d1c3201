/**
 * What the rules said of each failing TUNING log before any rule was written for it (issue 16): the learned
 * fallback labels the logs rules do not explain yet, so its thresholds are chosen on those readings, the tuning
 * half's stand-in for logs the rules have never seen.
 *
 *   npx tsx scripts/train-learned-fallback/pre-rule-readings.ts
 *
 * For every failing tuning log without a reading in PRE_RULE_READINGS_FILE, the commit that added the log is found
 * in git history; the rules read it as they were before that commit's rules (the commit itself when it added logs
 * only, its parent when it also changed src/classify). Each such version of the classifier is checked out in a
 * temporary git worktree (this checkout's node_modules linked in) and reads the whole log and its benchmark tail,
 * with the learned fallback off. A log not committed yet is read by the classifier of the working tree: run this
 * before writing a collection pass's rules. Existing readings are kept. The evaluation half is never read here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ERROR_TYPES, type ErrorType } from '../../src/domain/error-types.js';
import { benchmarkTail, loadCorpus, readCorpusLog, REAL_CORPUS_DIR, type CorpusEntry } from '../../test/unit/classify/real-corpus-metrics.js';
import { loadPreRuleReadings, PRE_RULE_READINGS_FILE, type PreRuleReading } from './readings.js';

const ROOT = join(import.meta.dirname, '../..');
const git = (...args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** The commit whose rules had not seen the log: the one that added it, or its parent when it also changed the classifier. */
function rulesBefore(entry: CorpusEntry): string | undefined {
  const path = join(REAL_CORPUS_DIR, entry.file).slice(ROOT.length + 1);
  const added = git('log', '--diff-filter=A', '--format=%H', '--', path).split('\n').filter(Boolean).pop();
  if (added === undefined) return undefined;
  const classifier = git('show', '--format=', '--name-only', added, '--', 'src/classify').split('\n').filter((f) => f !== '' && !f.startsWith('src/classify/learned/model-data'));
  return classifier.length > 0 ? git('rev-parse', `${added}^`) : added;
}

type Classify = (log: Buffer) => Promise<ErrorType[]>;
/** Any version's classifyJob, its rule labels only (no learned ones, whatever that version did). */
async function classifierAt(dir: string): Promise<Classify> {
  const mod = (await import(pathToFileURL(join(dir, 'src/classify/index.ts')).href)) as {
    classifyJob: (input: { log: Buffer; jobConclusion: 'failure'; learnedFallback: false }) => Promise<{ labels: { type: ErrorType; tool?: string; learned?: unknown }[] }>;
  };
  return async (log) => {
    const { labels } = await mod.classifyJob({ log, jobConclusion: 'failure', learnedFallback: false });
    const types = new Set(labels.filter((l) => l.learned === undefined && l.tool !== 'learned-fallback').map((l) => l.type));
    return ERROR_TYPES.filter((t) => types.has(t));
  };
}

const readings = loadPreRuleReadings();
const missing = loadCorpus().filter((e) => e.split === 'tuning' && e.conclusion === 'failure' && readings[e.file] === undefined);
const byCommit = new Map<string, CorpusEntry[]>();
for (const entry of missing) {
  const commit = rulesBefore(entry) ?? 'working-tree';
  byCommit.set(commit, [...(byCommit.get(commit) ?? []), entry]);
}
const scratch = mkdtempSync(join(tmpdir(), 'pre-rule-readings-'));
try {
  for (const [commit, entries] of byCommit) {
    let dir = ROOT;
    if (commit !== 'working-tree') {
      dir = join(scratch, commit);
      git('worktree', 'add', '--quiet', '--detach', dir, commit);
      if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    }
    const classify = await classifierAt(dir);
    for (const entry of entries) {
      const raw = readCorpusLog(entry);
      const reading: PreRuleReading = { rules: commit, whole: await classify(raw), tail: await classify(Buffer.from(benchmarkTail(raw))) };
      readings[entry.file] = reading;
    }
    console.log(`${commit}: ${entries.length} logs`);
    if (dir !== ROOT) git('worktree', 'remove', '--force', dir);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  git('worktree', 'prune');
}
const sorted = Object.fromEntries(Object.entries(readings).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(PRE_RULE_READINGS_FILE, `${JSON.stringify(sorted, null, 0).replace(/\},"/g, '},\n"')}\n`);
console.log(`${missing.length} logs read, ${Object.keys(sorted).length} readings in ${PRE_RULE_READINGS_FILE}`);
