import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import { GITHUB_ACTIONS_CAPABILITIES, preflightWorkflow, standardizeWorkflowText, type MatrixStrategy, type StandardizeOptions } from '../../../src/workflows/index.js';
import { fuzzSeed, mutateMany, prng, type Random } from '../../support/fuzz.js';

const SEED = fuzzSeed(20261215);
const CASES = 2000;
/** Preflight reads one standardized output in this many. */
const PREFLIGHT_EVERY = 8;
const root = join(import.meta.dirname, '../../fixtures/workflows');
const preflightRoot = join(import.meta.dirname, '../../fixtures/preflight');

/** Values a structural mutation may put anywhere in a workflow: wrong types, expressions, odd keys. */
const SCALARS: unknown[] = [
  null, true, false, 0, -1, 3.10, 1e308, '', ' ', '~', 'null', 'ubuntu-latest', 'windows-2019', 'macos-13', 'self-hosted', '3.8', '3.12', 'pypy-3.9',
  '${{ matrix.os }}', '${{ fromJSON(needs.setup.outputs.matrix) }}', '${{ secrets.TOKEN }}', '${{ github.event_name == \'push\' }}', '${{', '}}', '${{ }}',
  'always()', 'failure()', 'success() && false', 'actions/checkout@v4', 'docker://alpine', './.github/actions/local', 'owner/repo/.github/workflows/x.yml@main',
  'pip install -e .[test]', 'pytest\n--cov', '#!/bin/sh', 'é\u2028x', 'a'.repeat(300), '*', '**', '[', '{', ':', '- x',
];
const KEYS = ['on', 'jobs', 'steps', 'runs-on', 'strategy', 'matrix', 'include', 'exclude', 'needs', 'if', 'uses', 'with', 'env', 'secrets', 'run', 'name', 'id',
  'services', 'container', 'timeout-minutes', 'concurrency', 'permissions', 'defaults', 'outputs', 'workflow_call', 'workflow_dispatch', 'inputs', 'push',
  'pull_request', 'schedule', 'branches', 'paths', 'python-version', 'os', 'continue-on-error', 'shell', 'working-directory', '<<', 'true', '1', ''];

function randomValue(random: Random, depth = 0): unknown {
  const roll = random.int(depth > 3 ? 1 : 4);
  if (roll === 0) return random.pick(SCALARS);
  if (roll === 1) return Array.from({ length: random.int(4) }, () => randomValue(random, depth + 1));
  if (roll === 2) return Object.fromEntries(Array.from({ length: random.int(4) }, () => [random.pick(KEYS), randomValue(random, depth + 1)]));
  return { [random.pick(KEYS)]: randomValue(random, depth + 1) };
}

/** Every collection node of a document (maps and sequences), to pick one to change. */
function collections(doc: Document): Node[] {
  const found: Node[] = [];
  const walk = (node: unknown): void => {
    if (isMap(node) || isSeq(node)) {
      found.push(node);
      for (const item of node.items) walk(isMap(node) ? (item as { value?: unknown }).value : item);
    }
  };
  walk(doc.contents);
  return found;
}

/** A change made on the parsed YAML: a value replaced, a key removed or added, an item duplicated, an alias. */
function mutateStructure(random: Random, text: string): string {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) return text;
  const targets = collections(doc);
  if (targets.length === 0) return text;
  const target = random.pick(targets);
  if (isMap(target) && target.items.length > 0) {
    const pair = random.pick(target.items);
    switch (random.int(5)) {
      case 0: pair.value = doc.createNode(randomValue(random)); break;
      case 1: target.items.splice(target.items.indexOf(pair), 1); break;
      case 2: target.items.push(doc.createPair(random.pick(KEYS), randomValue(random))); break;
      case 3: if (isScalar(pair.key)) pair.key.value = random.pick(KEYS); break;
      default: {
        // Anchor a value and refer to it from elsewhere (the standardizer expands aliases).
        const value = pair.value;
        if (isMap(value) || isSeq(value) || isScalar(value)) {
          value.anchor = 'fz';
          target.items.push(doc.createPair(random.pick(KEYS), doc.createAlias(value)));
        }
      }
    }
  } else if (isSeq(target)) {
    if (target.items.length > 0 && random.chance(0.5)) target.items.push(random.pick(target.items));
    else target.items.push(doc.createNode(randomValue(random)));
  }
  try {
    return doc.toString();
  } catch {
    // The mutation itself made a document the YAML library cannot write (an alias ahead of its anchor): skip it.
    return text;
  }
}

function randomOptions(random: Random, base: StandardizeOptions): StandardizeOptions {
  const options: StandardizeOptions = { ...base };
  if (random.chance(0.3)) options.matrixStrategy = random.pick<MatrixStrategy>(['first', 'newest-python', 'from-logs']);
  if (random.chance(0.2)) options.failedJobNames = [random.pick(['test (3.10, windows-latest)', 'test', 'Lint (py3.12)', '', '(', 'test (,)'])];
  if (random.chance(0.1)) options.role = random.pick(['entry', 'callee'] as const);
  if (random.chance(0.1)) options.pinDate = new Date(random.pick([0, 1_700_000_000_000, -1, 8.64e15]));
  if (random.chance(0.05)) options.timeoutMinutes = random.pick([1, 30, 0, -5, 1.5]);
  return options;
}

interface Seed {
  name: string;
  text: string;
  options: StandardizeOptions;
}

interface Seeds {
  /** The standardizer's own fixtures and the preflight fixtures: small, every feature. */
  fixtures: Seed[];
  /** Real workflows as found in public repositories: large, picked less often. */
  corpus: Seed[];
}

describe(`workflow standardizer fuzz: ${CASES} mutated real workflows (seed ${SEED})`, () => {
  let seeds: Seeds;
  beforeAll(() => {
    console.log(`standardize fuzz seed ${SEED} (FUZZ_SEED=${SEED} reproduces)`);
    const fixtures = readdirSync(root).sort().filter((name) => existsSync(join(root, name, 'options.json'))).map((name) => {
      const raw = JSON.parse(readFileSync(join(root, name, 'options.json'), 'utf8')) as StandardizeOptions & { pinDate?: string };
      const { pinDate, ...rest } = raw;
      return { name, text: readFileSync(join(root, name, 'input.yml'), 'utf8'), options: pinDate === undefined ? rest : { ...rest, pinDate: new Date(pinDate) } };
    });
    const preflight = readdirSync(preflightRoot).sort().map((name) => ({ name: `preflight/${name}`, text: readFileSync(join(preflightRoot, name), 'utf8'), options: { matrixStrategy: 'first' as const } }));
    // Real workflows as found in public repositories (test/fixtures/workflows/corpus), where present.
    const corpusDir = join(root, 'corpus');
    const corpus = existsSync(corpusDir)
      ? readdirSync(corpusDir).filter((name) => /\.ya?ml$/.test(name) && name !== 'expectations.yaml').sort().map((name) => ({ name: `corpus/${name}`, text: readFileSync(join(corpusDir, name), 'utf8'), options: { matrixStrategy: 'first' as const } }))
      : [];
    seeds = { fixtures: [...fixtures, ...preflight], corpus };
  });

  it('never throws anything but the typed error; what it writes always parses as a workflow; bounded time', () => {
    const random = prng(SEED);
    let standardized = 0;
    let slowest = 0;
    const refusals = new Map<string, number>();
    for (let i = 0; i < CASES; i += 1) {
      const seed = seeds.corpus.length > 0 && random.chance(0.15) ? random.pick(seeds.corpus) : random.pick(seeds.fixtures);
      const text = random.chance(0.5) ? mutateStructure(random, random.chance(0.3) ? mutateStructure(random, seed.text) : seed.text) : mutateMany(random, seed.text, 3, { maxRepeat: 40 });
      const options = randomOptions(random, seed.options);
      const started = performance.now();
      let output: string;
      try {
        output = standardizeWorkflowText({ text, path: '.github/workflows/ci.yml', options }).text;
      } catch (error) {
        if (!isAppError(error) || error.kind !== 'invalid_input') {
          throw new Error(`untyped error on ${seed.name} (case ${i}, options ${JSON.stringify(options)}): ${error instanceof Error ? error.stack : String(error)}\n--- input ---\n${text}`);
        }
        refusals.set(error.code, (refusals.get(error.code) ?? 0) + 1);
        continue;
      } finally {
        slowest = Math.max(slowest, performance.now() - started);
      }
      standardized += 1;
      const reparsed = parseDocument(output, { uniqueKeys: true });
      expect(reparsed.errors.map((e) => e.message), `output of ${seed.name} (case ${i}) does not parse:\n${output}\n--- input ---\n${text}`).toEqual([]);
      const contents = reparsed.contents;
      expect(isMap(contents) && contents.has('on') && isMap(contents.get('jobs')), `output of ${seed.name} (case ${i}) is not a workflow:\n${output}`).toBe(true);
      // What the replay installs is read again by preflight: it must not crash it either.
      if (standardized % PREFLIGHT_EVERY !== 0) continue;
      try {
        preflightWorkflow({ workflow: { path: '.github/workflows/ci.yml', text: output }, callees: [], capabilities: GITHUB_ACTIONS_CAPABILITIES });
      } catch (error) {
        if (!isAppError(error)) throw new Error(`preflight crashed on standardized output of ${seed.name} (case ${i}): ${String(error)}\n${output}`);
      }
    }
    console.log(`standardize fuzz: ${CASES} cases, ${standardized} standardized, refused ${JSON.stringify(Object.fromEntries(refusals))}, slowest ${slowest.toFixed(1)} ms`);
    expect(standardized).toBeGreaterThan(CASES / 4);
    expect(slowest).toBeLessThan(2000);
  }, 180_000);

  it('pins dependencies without writing a second `env` key when the workflow env is not a map (found by this fuzz, seed 99)', () => {
    const body = 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n';
    const options: StandardizeOptions = { matrixStrategy: 'first', pinDate: new Date('2024-03-05T00:00:00Z') };
    for (const env of ['env: CI\n', 'env: ${{ fromJSON(vars.ENV) }}\n', 'env:\n', 'env: ~\n']) {
      const result = standardizeWorkflowText({ text: `${env}${body}`, path: '.github/workflows/ci.yml', options });
      const parsed = parseDocument(result.text, { uniqueKeys: true });
      expect(parsed.errors, result.text).toEqual([]);
      const pinned = (parsed.toJS() as { env?: Record<string, string> }).env;
      if (env === 'env:\n' || env === 'env: ~\n') expect(pinned).toMatchObject({ PIP_UPLOADED_PRIOR_TO: '2024-03-05T00:00:00Z' });
      else expect(result.report).toContainEqual(expect.objectContaining({ action: 'pinned-dependencies', target: 'env', reason: expect.stringMatching(/^not pinned/) }));
    }
  });
});
