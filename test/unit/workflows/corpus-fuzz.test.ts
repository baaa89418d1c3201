/**
 * Mutated real workflows (the corpus, with their sibling workflows so callee and caller judgement runs too): the
 * standardizer never throws anything but its documented invalid_input codes, and what it writes parses.
 * A failure reproduces with `FUZZ_SEED=<seed> npx vitest run test/unit/workflows/corpus-fuzz.test.ts`.
 */
import { performance } from 'node:perf_hooks';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import { standardizeWorkflowText, type MatrixStrategy, type StandardizeOptions } from '../../../src/workflows/index.js';
import { fuzzSeed, prng, type Random } from '../../support/fuzz.js';
import { loadCorpus, siblingsOf } from './corpus-measure.js';

const SEED = fuzzSeed(20261501);
const CASES = 2000;
const DOCUMENTED = new Set(['invalid_workflow', 'invalid_option', 'not_reusable', 'nothing_to_validate']);

const VALUES: unknown[] = [
  null, true, false, 0, 20, '', 'ubuntu-latest', 'self-hosted', 'blacksmith-4vcpu-ubuntu-2404', '${{ matrix.os }}', '${{ vars.RUNNER }}',
  "github.repository == 'acme/x'", "github.event_name == 'schedule'", "startsWith(github.ref, 'refs/tags/')", '!github.event.pull_request.head.repo.fork',
  '${{ secrets.OPENAI_API_KEY }}', '${{ secrets.PYPI_TOKEN }}', '${{ secrets.GITHUB_TOKEN }}', '${{ inputs.version }}', '${{ needs.build.outputs.x }}',
  'pytest', 'twine upload dist/*', 'docker push acme/app', 'git push', 'gh pr create --fill', 'python -m build', 'mkdocs gh-deploy',
  'pypa/gh-action-pypi-publish@release/v1', 'docker/build-push-action@v6', 'codspeedhq/action@v3', './.github/workflows/other.yml',
  './.github/actions/setup', 'actions/checkout@v4', { group: 'large-runners' }, { group: 'gpu-a100' }, ['3.12', '3.13t', 'pypy-3.10'],
  { include: [{ tox: 'lint' }, { python: '3.14' }] }, { 'python-version': ['3.11', '3.12'], os: ['ubuntu-latest', 'windows-latest'] },
];

function collections(node: unknown, found: Node[] = []): Node[] {
  if (isMap(node) || isSeq(node)) {
    found.push(node);
    for (const item of node.items) collections(isMap(node) ? (item as { value: unknown }).value : item, found);
  }
  return found;
}

/** One structural change: a value replaced, a key deleted, an entry duplicated or moved. */
function mutate(random: Random, text: string): string {
  const doc = parseDocument(text);
  const targets = collections(doc.contents);
  if (targets.length === 0) return text;
  for (let edits = random.between(1, 3); edits > 0; edits -= 1) {
    const target = random.pick(targets);
    if (!isMap(target) && !isSeq(target)) continue;
    if (target.items.length === 0) continue;
    const index = random.int(target.items.length);
    const roll = random.int(4);
    if (roll === 0) {
      target.items.splice(index, 1);
    } else if (roll === 1) {
      const item = target.items[index];
      if (isMap(target)) (item as { value: unknown }).value = doc.createNode(random.pick(VALUES));
      else target.items[index] = doc.createNode(random.pick(VALUES));
    } else if (roll === 2 && isSeq(target)) {
      const item = target.items[index];
      target.items.splice(random.int(target.items.length), 0, isScalar(item) || isMap(item) || isSeq(item) ? item.clone() : item);
    } else if (isMap(target)) {
      target.set(random.pick(['if', 'runs-on', 'needs', 'uses', 'env', 'strategy', 'with', 'outputs', 'services']), doc.createNode(random.pick(VALUES)));
    }
  }
  try {
    return doc.toString();
  } catch {
    // A deleted anchor leaves its aliases unresolved: not a workflow the standardizer can be given as such.
    return text;
  }
}

function randomOptions(random: Random, repo: string): StandardizeOptions {
  const options: StandardizeOptions = { matrixStrategy: random.pick<MatrixStrategy>(['first', 'newest-python', 'from-logs']), upstreamRepository: repo };
  if (random.chance(0.2)) options.failedJobNames = [random.pick(['test (3.12, ubuntu-latest)', 'tests', '', 'build (3.14t)'])];
  if (random.chance(0.2)) options.role = random.pick(['entry', 'callee'] as const);
  if (random.chance(0.2)) options.pinDate = new Date(random.pick([1_600_000_000_000, 1_700_000_000_000, 1_760_000_000_000]));
  if (random.chance(0.1)) options.indexUrl = 'https://index.example/simple';
  return options;
}

describe(`standardizer fuzz over mutated corpus workflows: ${CASES} cases (seed ${SEED})`, () => {
  it('throws only the documented invalid_input codes; what it writes parses as a workflow', () => {
    const corpus = loadCorpus();
    const random = prng(SEED);
    const refusals = new Map<string, number>();
    let standardized = 0;
    let slowest = 0;
    for (let i = 0; i < CASES; i += 1) {
      const entry = random.pick(corpus);
      const text = random.chance(0.1) ? entry.text : mutate(random, entry.text);
      const options = randomOptions(random, entry.repo);
      const started = performance.now();
      let output: string;
      try {
        const workflows = random.chance(0.3) ? siblingsOf(entry, corpus) : undefined;
        output = standardizeWorkflowText({ text, path: entry.path, options, ...(workflows === undefined ? {} : { workflows }) }).text;
      } catch (error) {
        const code = isAppError(error) && error.kind === 'invalid_input' ? error.code : undefined;
        if (code === undefined || !DOCUMENTED.has(code)) {
          throw new Error(`${entry.file} (case ${i}, seed ${SEED}, options ${JSON.stringify(options)}) threw ${error instanceof Error ? error.stack : String(error)}\n--- input ---\n${text}`);
        }
        refusals.set(code, (refusals.get(code) ?? 0) + 1);
        continue;
      } finally {
        slowest = Math.max(slowest, performance.now() - started);
      }
      standardized += 1;
      const reparsed = parseDocument(output, { uniqueKeys: true });
      expect(reparsed.errors.map((error) => error.message), `${entry.file} (case ${i}) wrote YAML that does not parse`).toEqual([]);
      expect(isMap(reparsed.contents) && reparsed.contents.has('on') && isMap(reparsed.contents.get('jobs')), `${entry.file} (case ${i})`).toBe(true);
    }
    console.log(`corpus fuzz: ${CASES} cases, ${standardized} standardized, refused ${JSON.stringify(Object.fromEntries(refusals))}, slowest ${slowest.toFixed(1)} ms`);
    expect(standardized).toBeGreaterThan(CASES / 3);
    expect(slowest).toBeLessThan(2000);
  }, 180_000);
});
