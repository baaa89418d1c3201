/**
 * Runners: retired images and larger or grouped runners are mapped to standard hosted labels (jobs would wait
 * forever for them in a copy); special hardware (GPUs, TPUs, self-hosted machines) is recognized so the job goes.
 */
import { isMap, isScalar, isSeq, Scalar, type YAMLMap } from 'yaml';
import type { ReportEntry } from '../types.js';
import { keyOf, mapAt, nodeText, pairsOf, stringAt, stringList, walkStrings } from '../nodes.js';
import { splitTopLevel, stripOuterParens, unwrapCondition } from '../expressions.js';
import { gateSatisfied } from '../matrix/select.js';

/** Retired image → the closest image still offered (older Pythons stay available on ubuntu-22.04). */
export const RETIRED_RUNNERS: Readonly<Record<string, string>> = {
  'ubuntu-16.04': 'ubuntu-22.04',
  'ubuntu-18.04': 'ubuntu-22.04',
  'ubuntu-20.04': 'ubuntu-22.04',
  'macos-10.15': 'macos-latest',
  'macos-11': 'macos-latest',
  'macos-12': 'macos-latest',
  'macos-13': 'macos-latest',
  'windows-2016': 'windows-latest',
  'windows-2019': 'windows-latest',
};

const GPU = /gpu|cuda|tpu|nvidia|\ba100\b|\bh100\b|\bl4\b|\bt4\b|(?:^|[-_])(?:g4dn|g5|g6|g6e|p3|p4d|p5)(?:[-_.]|$)/i;
const LARGER = /^(?:blacksmith|depot|namespace-profile|namespace|warp|buildjet|ubicloud|runs-on|cirun)-|^(?:ubuntu|windows|macos)-[\w.]*-?\d+-?cores?\b|^linux-(?:x86|x64|amd64|arm64|arm)-|^(?:ubuntu|windows)-latest-\d+-cores?$/i;

/** The hosted label a larger or grouped runner stands for. */
export function hostedEquivalent(label: string): string {
  if (/windows/i.test(label)) return 'windows-latest';
  if (/macos|mac\b|osx/i.test(label)) return 'macos-latest';
  if (/arm/i.test(label)) return 'ubuntu-24.04-arm';
  return 'ubuntu-latest';
}

function matrixValues(job: YAMLMap, key: string): string[] {
  const matrix = mapAt(mapAt(job, 'strategy'), 'matrix');
  const values: string[] = [];
  for (const pair of pairsOf(matrix)) {
    const name = keyOf(pair);
    if (name === key) values.push(...stringList(pair.value));
    if (name === 'include' && isSeq(pair.value)) {
      for (const entry of pair.value.items) if (isMap(entry)) values.push(...stringList(entry.get(key, true)));
    }
  }
  return values;
}

/** Special hardware a job needs (GPU, TPU, a self-hosted or benchmark machine), described; undefined for hosted runners. */
export function specialHardware(job: YAMLMap): string | undefined {
  const runsOn = job.get('runs-on', true);
  const labels = stringList(runsOn);
  const fromMatrix = labels.flatMap((label) => [...label.matchAll(/\bmatrix\.([\w-]+)/g)].flatMap((match) => matrixValues(job, match[1] ?? '')));
  const all = [...labels.filter((label) => !label.includes('${{')), ...fromMatrix];
  const gpu = all.find((label) => GPU.test(label));
  if (gpu !== undefined && (fromMatrix.length === 0 || fromMatrix.every((label) => GPU.test(label)))) return `a GPU/TPU runner (${gpu})`;
  if (all.some((label) => /^self-hosted$/i.test(label)) && !all.some((label) => /^(?:ubuntu|windows|macos)-/.test(label))) return 'a self-hosted runner';
  if (all.some((label) => /^codspeed-/i.test(label))) return `CodSpeed's benchmark runners (${all.join(', ')})`;
  const container = job.get('container', true);
  if (/--gpus\b/.test(nodeText(container))) return 'a GPU (the container asks for --gpus)';
  if (/\bnvidia-smi\b/.test(nodeText(job.get('steps', true)))) return 'a GPU (the steps call nvidia-smi)';
  return undefined;
}

function replacementFor(label: string): { to: string; why: string } | undefined {
  const retired = RETIRED_RUNNERS[label];
  if (retired !== undefined) return { to: retired, why: `${label} is retired` };
  if (LARGER.test(label) && !GPU.test(label)) return { to: hostedEquivalent(label), why: `${label} is a larger or third-party runner a copy does not have` };
  return undefined;
}

/** Rewrites the clauses of a condition on `matrix.<key>` that the replacement would turn from true to false (or back). */
function keepGates(condition: string, key: string, from: string, to: string): string | undefined {
  const clauses = splitTopLevel(unwrapCondition(condition), '&&');
  let changed = false;
  const rewritten = clauses.map((clause) => {
    if (!new RegExp(String.raw`\bmatrix\.${key}\b`).test(clause)) return clause;
    const before = gateSatisfied(stripOuterParens(clause), { [key]: from });
    const after = gateSatisfied(stripOuterParens(clause), { [key]: to });
    if (before === undefined || before === after) return clause;
    changed = true;
    return String(before);
  });
  if (!changed) return undefined;
  const remaining = rewritten.filter((clause) => clause !== 'true');
  return remaining.length === 0 ? 'true' : remaining.join(' && ');
}

function fixGates(job: YAMLMap, jobId: string, key: string, from: string, to: string, report: ReportEntry[]): void {
  const places: Array<[YAMLMap, string]> = [[job, `jobs.${jobId}.if`]];
  const steps = job.get('steps', true);
  if (isSeq(steps)) steps.items.forEach((step, index) => { if (isMap(step)) places.push([step, `jobs.${jobId}.steps[${index}].if`]); });
  for (const [node, target] of places) {
    const condition = stringAt(node, 'if');
    if (condition === undefined) continue;
    const rewritten = keepGates(condition, key, from, to);
    if (rewritten === undefined) continue;
    if (rewritten === 'true') node.delete('if');
    else node.set('if', rewritten);
    report.push({ action: 'rewrote-guard', target, reason: `\`${condition.trim()}\` held for the chosen configuration (matrix.${key} = ${from}); kept it true after the runner became ${to}` });
  }
}

/** Replaces retired, larger and grouped runners in every job (runs-on and the matrix values it reads). */
export function replaceRunners(jobs: YAMLMap): ReportEntry[] {
  const report: ReportEntry[] = [];
  for (const pair of pairsOf(jobs)) {
    if (!isMap(pair.value)) continue;
    const job: YAMLMap = pair.value;
    const jobId = keyOf(pair);
    const runsOn = job.get('runs-on', true);
    if (isMap(runsOn) && runsOn.has('group')) {
      const group = stringAt(runsOn, 'group') ?? '';
      const to = hostedEquivalent(`${group} ${stringList(runsOn.get('labels', true)).join(' ')}`);
      job.set('runs-on', new Scalar(to));
      report.push({ action: 'rewrote-runner', target: `jobs.${jobId}.runs-on`, reason: `runner group ${group} is a larger runner, not special hardware; replaced by ${to}` });
    } else if (isScalar(runsOn) && typeof runsOn.value === 'string' && /^\$\{\{\s*vars\.[\w-]+\s*\}\}$/.test(runsOn.value.trim())) {
      report.push({ action: 'rewrote-runner', target: `jobs.${jobId}.runs-on`, reason: `${runsOn.value.trim()} is a repository variable a copy does not have; replaced by ubuntu-latest` });
      runsOn.value = 'ubuntu-latest';
    }
    const matrix = mapAt(mapAt(job, 'strategy'), 'matrix');
    const places: Array<[unknown, string]> = [[job.get('runs-on', true), `jobs.${jobId}.runs-on`]];
    if (matrix !== undefined) places.push([matrix, `jobs.${jobId}.strategy.matrix`]);
    for (const [node, path] of places) {
      if (!isScalar(node) && !isSeq(node) && !isMap(node)) continue;
      walkStrings(node, path, ({ scalar, path: where }) => {
        const from = String(scalar.value);
        const replacement = replacementFor(from);
        if (replacement === undefined) return;
        report.push({ action: 'rewrote-runner', target: where, reason: `${replacement.why}; replaced by ${replacement.to}` });
        scalar.value = replacement.to;
        const key = /\.strategy\.matrix\.(?:include\[\d+\]\.)?([\w-]+)/.exec(where)?.[1];
        if (where.includes('.strategy.matrix') && key !== undefined && matrixValues(job, key).length === 1) fixGates(job, jobId, key, from, replacement.to, report);
      });
    }
  }
  return report;
}
