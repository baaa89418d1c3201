import type { ErrorType } from '../../domain/error-types.js';
import type { InstanceHealth, SubmissionState, Verdict } from '../../domain/states.js';
import type { CiInstance, CiRunInput, CiSubmissionOutcome } from '../ci-repair/types.js';
import { createPrng, type Prng } from './prng.js';

/** Published per-type occurrences of CI-Repair-Bench (Table 7): 893 labels over 567 instances. */
export const PUBLISHED_OCCURRENCES: readonly (readonly [ErrorType, number])[] = [
  ['Code Linting', 208],
  ['Dependency Issues', 148],
  ['Code Formatting', 121],
  ['Test Failure', 115],
  ['Runtime Error', 85],
  ['Syntax Error', 68],
  ['Package Installation Error', 48],
  ['Configuration Error', 34],
  ['Environment Error', 32],
  ['Assertion Error', 28],
  ['Doc/Docstring', 4],
  ['Type Checking', 2],
];

/** Options of {@link syntheticCiDataset}. */
export interface SyntheticCiOptions {
  seed: number;
  instances?: number;
  /** Total submissions, spread evenly over the runs (several per instance: the latest counts). */
  submissions?: number;
  runs?: number;
  repos?: number;
}

type Outcome = readonly [SubmissionState, Verdict | null];

const OUTCOMES: readonly (readonly [Outcome, number])[] = [
  [['completed', 'passed'], 19],
  [['completed', 'failed'], 50],
  [['completed', 'invalid'], 4],
  [['completed', null], 1],
  [['patch_failed', null], 5],
  [['publish_failed', null], 2],
  [['no_run', null], 3],
  [['timed_out', null], 3],
  [['cancelled', null], 2],
  [['infra_error', null], 2],
  [['queued', null], 2],
  [['running', null], 2],
];

const HEALTH: readonly (readonly [InstanceHealth, number])[] = [
  ['healthy', 80],
  ['unknown', 15],
  ['flaky', 3],
  ['drifted', 2],
];

function labelInstances(prng: Prng, count: number): ErrorType[][] {
  const pool = prng.shuffle(PUBLISHED_OCCURRENCES.flatMap(([type, n]) => Array.from({ length: n }, () => type)));
  const labels: ErrorType[][] = Array.from({ length: count }, () => []);
  pool.forEach((type, index) => {
    if (index < count) {
      labels[index]?.push(type);
      return;
    }
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const target = labels[prng.int(0, count - 1)];
      if (target !== undefined && !target.includes(type)) {
        target.push(type);
        return;
      }
    }
  });
  return labels;
}

/**
 * A deterministic synthetic CI-Repair-Bench dataset: instances labelled with the published per-type
 * occurrences (when there are 567 or more instances), and runs whose submissions cover every state and
 * verdict, with resubmissions and missing instances. For tests and benchmarks only.
 */
export function syntheticCiDataset(options: SyntheticCiOptions): { instances: CiInstance[]; runs: CiRunInput[] } {
  const prng = createPrng(options.seed);
  const count = options.instances ?? 567;
  const repoCount = options.repos ?? 100;
  const runCount = options.runs ?? 1;
  const labels = labelInstances(prng, count);
  const instances = labels.map((instanceLabels, index): CiInstance => {
    // The draws in the same order as ever (labels, then health): the same seed gives the same dataset.
    const chosen = instanceLabels.length > 0 ? instanceLabels : [prng.pick(PUBLISHED_OCCURRENCES)[0]];
    const health = prng.weighted(HEALTH);
    // An instance judged unhealthy is a suspect (docs/revalidation.md), left out of reports by default.
    const suspect = health === 'flaky' || health === 'drifted' || health === 'unreplayable' || health === 'broken';
    return {
      id: `inst-${String(index).padStart(4, '0')}`,
      repo: `owner${index % repoCount}/repo${index % repoCount}`,
      labels: chosen,
      health,
      lifecycle: suspect ? 'suspect' : 'active',
      lifecycleReason: suspect ? `re-validation judged it ${health}` : null,
    };
  });
  const perRun = Math.floor((options.submissions ?? 10_000) / runCount);
  const runs = Array.from({ length: runCount }, (_, r): CiRunInput => {
    const skipped = new Set(instances.filter(() => prng.next() < 0.03).map((instance) => instance.id));
    const candidates = instances.filter((instance) => !skipped.has(instance.id));
    const submissions = Array.from({ length: perRun }, (): CiSubmissionOutcome => {
      const instance = prng.pick(candidates.length > 0 ? candidates : instances);
      const [state, verdict] = prng.weighted(OUTCOMES);
      const observedLabels =
        verdict === 'failed'
          ? [...new Set([prng.pick(instance.labels), ...(prng.next() < 0.3 ? [prng.pick(PUBLISHED_OCCURRENCES)[0]] : [])])]
          : [];
      return {
        instanceId: instance.id,
        state,
        verdict,
        reason: verdict === 'invalid' || state !== 'completed' ? prng.pick(['log truncated', 'runner lost', 'quota, "retry"']) : null,
        observedLabels: prng.next() < 0.1 ? [] : observedLabels,
        createdAt: prng.int(0, 1_000_000),
      };
    });
    return { id: `run-${r}`, label: `model-${r}`, submissions };
  });
  return { instances, runs };
}
