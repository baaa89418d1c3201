/**
 * The learned fallback's best guess (issue 16): the kept guess floor beside the variants tried and not adopted,
 * measured as index.ts chooses the floor: macro-F1 over the held-out pre-rule readings of the TUNING half (5-fold
 * cross-validation by repository, thresholds from choose-thresholds.ts). The evaluation half is never read here.
 *
 *   npx tsx scripts/train-learned-fallback/guess-variants.ts   # about a minute
 *
 * Measured 2026-12-05 on 1,501 failing tuning logs (whole and tail readings): no guess 0.750, kept floor 0.2 0.762
 * (151 of the 450 readings left without a label guessed, 81 right);
 * floors 0.15 / 0.25 / 0.3: 0.763 / 0.759 / 0.752; baseline + 0.05: 0.758; vetoes below 0.01 / 0.02 / 0.05 / 0.1:
 * 0.763 / 0.765 / 0.764 / 0.761 (even the last label: 0.762 / 0.762 / 0.754 / 0.730); a second guess: 0.762.
 */
import { saysNothingBaseline } from '../../src/classify/learned/features.js';
import { likeliest } from '../../src/classify/learned/index.js';
import { ERROR_TYPES } from '../../src/domain/error-types.js';
import { chooseGuessFloor, chooseThresholds, NEVER, readingLabels } from './choose-thresholds.js';
import { crossValidate, loadTuningSamples, type HeldOut } from './samples.js';
import { probabilities, trainModel } from './train.js';

const OPTIONS = { lambda: 0.1, epochs: 300, minRepos: 3, learningRate: 0.5, nbAlpha: 0 } as const;
const samples = await loadTuningSamples();
const rows = crossValidate(samples, OPTIONS);
const model = trainModel([...samples.whole, ...samples.tails], OPTIONS);
const choices = chooseThresholds(rows, probabilities(model, new Set()));
const baseline = saysNothingBaseline((features) => probabilities(model, features));
const { guess } = chooseGuessFloor(rows, choices, baseline);

type Policy = (row: HeldOut) => Set<number>;
const macroF1 = (policy: Policy): string => {
  const counts = ERROR_TYPES.map(() => ({ tp: 0, fp: 0, fn: 0 }));
  for (const row of rows) {
    const said = policy(row);
    ERROR_TYPES.forEach((type, k) => {
      const c = counts[k] as { tp: number; fp: number; fn: number };
      const wanted = row.labels.includes(type);
      if (said.has(k) && wanted) c.tp++;
      else if (said.has(k)) c.fp++;
      else if (wanted) c.fn++;
    });
  }
  return (counts.reduce((sum, c) => sum + (c.tp === 0 ? 0 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn)), 0) / counts.length).toFixed(3);
};
const withFloor = (floor: number, base = baseline): Policy => (row) => readingLabels(row, choices, base, floor);
const kept = withFloor(guess);

const guessed = rows.filter((row) => withFloor(NEVER)(row).size === 0 && kept(row).size > 0);
const right = guessed.filter((row) => [...kept(row)].every((k) => row.labels.includes(ERROR_TYPES[k] as never))).length;
console.log(`no guess ${macroF1(withFloor(NEVER))}; kept floor ${guess}: ${macroF1(kept)} (${guessed.length} of ${rows.filter((row) => withFloor(NEVER)(row).size === 0).length} unlabelled readings guessed, ${right} right)`);
for (const floor of [0.15, 0.25, 0.3]) console.log(`floor ${floor}: ${macroF1(withFloor(floor))}`);
console.log(`the guess must beat its baseline by 0.05 more: ${macroF1(withFloor(guess, baseline.map((b) => b + 0.05)))}`);

// Veto: a rule's label whose type the model finds this unlikely is dropped (when another label stays, or always).
for (const veto of [0.01, 0.02, 0.05, 0.1]) {
  const vetoed = (row: HeldOut): Set<number> => new Set([...kept(row)].filter((k) => !(row.rules.includes(ERROR_TYPES[k] as never) && (row.p[k] ?? 0) < veto)));
  const keepOne: Policy = (row) => {
    const left = vetoed(row);
    return left.size > 0 ? left : kept(row);
  };
  console.log(`veto below ${veto}: ${macroF1(keepOne)}; even the last label: ${macroF1(vetoed)}`);
}

// A second guess: the next likeliest type too, when its probability is within this share of the first's.
for (const share of [0.9, 0.8, 0.7]) {
  const two: Policy = (row) => {
    const said = kept(row);
    const [first] = said;
    if (row.rules.length > 0 || said.size !== 1 || first === undefined || (row.p[first] ?? 0) >= (choices[first]?.alone ?? NEVER)) return said;
    const second = likeliest(row.p.map((p, k) => (k === first ? 0 : p)), baseline, guess);
    if (second !== undefined && (row.p[second] ?? 0) >= share * (row.p[first] ?? 0)) said.add(second);
    return said;
  };
  console.log(`second guess within ${share} of the first: ${macroF1(two)}`);
}
