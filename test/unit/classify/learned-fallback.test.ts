import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';
import { LEARNED_TAIL_LINES, LEARNED_TOOL, learnedBaseline, learnedLabels, learnedProbabilities } from '../../../src/classify/learned/index.js';
import type { ErrorType } from '../../../src/domain/error-types.js';
import { ERROR_TYPES } from '../../../src/domain/error-types.js';
import { LEARNED_MODEL } from '../../../src/classify/learned/model-data.js';
import { parseLog } from '../../../src/classify/parse-log.js';
import { tuningDigest } from '../../../scripts/train-learned-fallback/tuning-digest.js';
import { loadPreRuleReadings } from '../../../scripts/train-learned-fallback/readings.js';
import { loadCorpus } from './real-corpus-metrics.js';

/** Output no rule explains: a permission problem of the workflow token (a type the fallback may not learn). */
const FORK_ANNOTATIONS = [
  'Clippy results: 0 ICE, 0 errors, 3 warnings, 0 notes, 0 help',
  '##[error]Unable to create clippy annotations! Reason: HttpError: Resource not accessible by integration',
  'It seems that this Action is executed from the forked repository.',
].join('\n');

/** Output no rule reads: a hand-written test script's own summary. */
const SUITE = ['Running the suite', 'test_parse ... FAIL', 'test_render ... ok', 'some tests did not pass', 'Process completed with exit code 1.'].join('\n');

/** A failing pytest run a rule reads. */
const PYTEST = ['FAILED tests/test_calc.py::test_add - assert 1 == 2', '========================= 1 failed, 3 passed in 0.12s =========================', 'Process completed with exit code 1.'].join('\n');

describe('learned fallback', () => {
  it('was trained on the current tuning half (run scripts/train-learned-fallback when the corpus changes)', () => {
    const tuning = loadCorpus().filter((e) => e.split === 'tuning' && e.conclusion === 'failure');
    expect(LEARNED_MODEL.trainedOn).toBe(tuningDigest(tuning));
    expect(LEARNED_MODEL.logs).toBe(tuning.length);
  });

  it('labels a failed job no rule explains with each type whose probability reaches its threshold, says so and shows the lines that weigh most', async () => {
    expect((await classifyJob({ log: SUITE, jobConclusion: 'failure', learnedFallback: false })).labels).toEqual([]);
    const { labels, parsed } = await classifyJob({ log: SUITE, jobConclusion: 'failure', keepTailLines: LEARNED_TAIL_LINES });
    const probabilities = learnedProbabilities(parsed.failedSteps);
    const expected = ERROR_TYPES.filter((_, k) => (probabilities[k] ?? 0) >= (LEARNED_MODEL.thresholds[k] ?? 2));
    expect(expected).toContain('Test Failure');
    expect(labels.map((l) => l.type)).toEqual(expected);
    for (const label of labels) {
      expect(label.tool).toBe(LEARNED_TOOL);
      expect(label.learned?.probability).toBeGreaterThan(0);
      expect(label.findings).toEqual([]);
      expect(label.evidence.length).toBeGreaterThan(0);
      expect(label.evidence.map((e) => e.text)).not.toContain('Process completed with exit code 1.');
      for (const e of label.evidence) {
        expect(e.rule).toBe(`${LEARNED_TOOL}:${label.type}`);
        expect(SUITE.split('\n')[e.startLine - 1]).toBe(e.text);
      }
    }
  });

  it('chose its thresholds on what the rules said of every failing tuning log before rules were written for it', () => {
    const readings = loadPreRuleReadings();
    const failing = loadCorpus().filter((e) => e.conclusion === 'failure');
    const tuning = failing.filter((e) => e.split === 'tuning');
    expect(tuning.filter((e) => readings[e.file] === undefined).map((e) => e.file)).toEqual([]);
    expect(Object.keys(readings).filter((file) => !tuning.some((e) => e.file === file))).toEqual([]);
    for (const [file, reading] of Object.entries(readings)) {
      expect(reading.rules, file).toMatch(/^(?:[0-9a-f]{40}|working-tree)$/);
      for (const type of [...reading.whole, ...reading.tail]) expect(ERROR_TYPES, file).toContain(type);
    }
    // most of them were read by an older classifier that did not yet explain them
    expect(tuning.filter((e) => readings[e.file]?.whole.length === 0).length).toBeGreaterThan(tuning.length / 5);
    expect(LEARNED_MODEL.thresholds.every((t) => t >= 0.2)).toBe(true);
  });

  it('labels each type from the words that weigh most for it, with those lines as evidence', async () => {
    const learnedTypes: ErrorType[] = [];
    for (const [k, type] of ERROR_TYPES.entries()) {
      if ((LEARNED_MODEL.thresholds[k] ?? 2) > 1) continue; // never learned
      const log = `${heaviestWords(type).join('\n')}\nProcess completed with exit code 1.`;
      const { labels } = await classifyJob({ log, jobConclusion: 'failure', learnedFallback: false });
      if (labels.length > 0) continue; // a rule reads these words (a tool's name can be a rule's literal)
      const parsed = await parseLog(log, { keepTailLines: LEARNED_TAIL_LINES, assumeFailure: true });
      const label = learnedLabels(parsed.failedSteps).find((l) => l.type === type);
      expect(label, type).toBeDefined();
      expect(label?.evidence.every((e) => heaviestWords(type).includes(e.text)), type).toBe(true);
      learnedTypes.push(type);
    }
    expect(learnedTypes.length, learnedTypes.join(', ')).toBeGreaterThanOrEqual(8);
  });

  it('never labels a job that did not fail, or whose conclusion is not known', async () => {
    expect((await classifyJob({ log: SUITE, jobConclusion: 'failure' })).labels.length).toBeGreaterThan(0);
    for (const jobConclusion of ['success', undefined, 'skipped'] as const) {
      const { labels } = await classifyJob({ log: SUITE, ...(jobConclusion === undefined ? {} : { jobConclusion }) });
      expect(labels, String(jobConclusion)).toEqual([]);
    }
  });

  it('adds nothing beside rule labels when no other type reaches its alongside threshold', async () => {
    const { labels } = await classifyJob({ log: PYTEST, jobConclusion: 'failure' });
    expect(labels.map((l) => l.type).sort()).toEqual(['Assertion Error', 'Test Failure']);
    expect(labels.every((l) => l.learned === undefined && l.tool !== LEARNED_TOOL)).toBe(true);
  });

  it('beside rule labels, adds only other types, and only at their higher alongside threshold', async () => {
    const added: ErrorType[] = [];
    for (const [k, type] of ERROR_TYPES.entries()) {
      const alongside = LEARNED_MODEL.alongside[k] ?? 2;
      expect(alongside, type).toBeGreaterThanOrEqual(LEARNED_MODEL.thresholds[k] ?? 2);
      const log = `${heaviestWords(type).join('\n')}\n${PYTEST}`;
      const rules = (await classifyJob({ log, jobConclusion: 'failure', learnedFallback: false })).labels.map((l) => l.type);
      expect(rules, type).toContain('Test Failure');
      const { labels, parsed } = await classifyJob({ log, jobConclusion: 'failure', keepTailLines: LEARNED_TAIL_LINES });
      const learned = labels.filter((l) => l.learned !== undefined);
      expect(labels.filter((l) => l.learned === undefined).map((l) => l.type)).toEqual(rules);
      const p = learnedProbabilities(parsed.failedSteps);
      expect(learned.map((l) => l.type), type).toEqual(ERROR_TYPES.filter((t, j) => !rules.includes(t) && (p[j] ?? 0) >= (LEARNED_MODEL.alongside[j] ?? 2)));
      if (learned.some((l) => l.type === type)) added.push(type);
    }
    expect(added.length, added.join(', ')).toBeGreaterThanOrEqual(4);
  });

  it('gives the caller only the output tails it asked for', async () => {
    const log = [...Array.from({ length: 400 }, (_, i) => `line ${i}`), FORK_ANNOTATIONS].join('\n');
    const none = await classifyJob({ log, jobConclusion: 'failure' });
    expect(none.parsed.steps.every((s) => s.tail === undefined)).toBe(true);
    const five = await classifyJob({ log, jobConclusion: 'failure', keepTailLines: 5 });
    expect(five.parsed.failedSteps[0]?.tail?.length).toBe(5);
    const many = await classifyJob({ log, jobConclusion: 'failure', keepTailLines: 1000 });
    expect(many.parsed.failedSteps[0]?.tail?.length).toBeGreaterThan(400);
  });

  it('reads words, so unseen output gives no confident label', async () => {
    const parsed = await parseLog('qqq zzz www\nProcess completed with exit code 1.', { keepTailLines: 300, assumeFailure: true });
    learnedProbabilities(parsed.failedSteps).forEach((p, k) => expect(p).toBeLessThan(LEARNED_MODEL.thresholds[k] ?? 0));
    // nor a best guess: with no word it knows but the runner's closing line's, no type is likelier than for that line alone
    expect(learnedLabels(parsed.failedSteps)).toEqual([]);
    learnedProbabilities(parsed.failedSteps).forEach((p, k) => expect(p).toBeLessThanOrEqual(learnedBaseline()[k] ?? 0));
    expect((await classifyJob({ log: 'qqq zzz www\nProcess completed with exit code 1.', jobConclusion: 'failure' })).labels).toEqual([]);
  });

  it('when no type reaches its threshold, names the likeliest one above the guess floor and its baseline, and only that one', async () => {
    expect(LEARNED_MODEL.guessFloor).toBeLessThanOrEqual(1);
    let guessed = 0;
    let silent = 0;
    for (const type of ERROR_TYPES) {
      for (const word of heaviestWords(type, 60)) {
        const log = `${word}\nProcess completed with exit code 1.`;
        if ((await classifyJob({ log, jobConclusion: 'failure', learnedFallback: false })).labels.length > 0) continue;
        const parsed = await parseLog(log, { keepTailLines: LEARNED_TAIL_LINES, assumeFailure: true });
        const p = learnedProbabilities(parsed.failedSteps);
        if (p.some((value, k) => value >= (LEARNED_MODEL.thresholds[k] ?? 2))) continue; // labelled by its thresholds
        const candidates = p.flatMap((value, k) => (value >= LEARNED_MODEL.guessFloor && value > (learnedBaseline()[k] ?? 1) ? [k] : []));
        const labels = learnedLabels(parsed.failedSteps);
        if (candidates.length === 0) {
          expect(labels, word).toEqual([]);
          silent++;
          continue;
        }
        const best = candidates.reduce((a, b) => ((p[b] ?? 0) > (p[a] ?? 0) ? b : a));
        expect(labels.map((l) => l.type), word).toEqual([ERROR_TYPES[best]]);
        expect(labels[0]?.learned?.probability, word).toBe(Math.round((p[best] ?? 0) * 1000) / 1000);
        expect(labels[0]?.evidence.map((e) => e.text), word).toEqual([word]);
        // beside a rule's label the guess never speaks
        expect(learnedLabels(parsed.failedSteps, new Set(['Test Failure'])).filter((l) => (l.learned?.probability ?? 0) < (LEARNED_MODEL.alongside[ERROR_TYPES.indexOf(l.type)] ?? 2)), word).toEqual([]);
        guessed++;
      }
    }
    expect(guessed).toBeGreaterThanOrEqual(5);
    expect(silent).toBeGreaterThanOrEqual(1);
  });
});

/** The model's single words (no pairs, no command words) that weigh most for a type. */
function heaviestWords(type: ErrorType, count = 40): string[] {
  const vocabulary = LEARNED_MODEL.vocabulary.split(' ');
  const bytes = Buffer.from(LEARNED_MODEL.weights, 'base64');
  const width = vocabulary.length + 1;
  const k = ERROR_TYPES.indexOf(type);
  const weight = (j: number): number => bytes.readFloatLE((k * width + j) * 4);
  return vocabulary
    .map((word, j) => ({ word, weight: weight(j) }))
    .filter((w) => /^[a-z_]+$/.test(w.word))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, count)
    .map((w) => w.word);
}
