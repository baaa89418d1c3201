/** `runs-on` labels a backend cannot provide: self-hosted, GPU, Windows and macOS runners. */
import type { Combination } from '../matrix/expand.js';
import { resolveMatrix } from './conditions.js';
import { isObj, textOf, yamlValue, type JobView } from './model.js';
import type { BackendCapabilities, Blocker, RunnerOs } from './types.js';

const GPU_LABEL = /(?:^|[^a-z])(?:gpu|cuda|nvidia)/i;

function osOf(label: string): RunnerOs | undefined {
  if (/^windows(?:-|$)/i.test(label)) return 'windows';
  if (/^macos(?:-|$)/i.test(label)) return 'macos';
  if (/^(?:ubuntu|linux)(?:-|$)/i.test(label)) return 'linux';
  return undefined;
}

/** The labels of `runs-on` for one configuration; expressions other than `matrix.*` are left out. */
function labelsFor(runsOn: unknown, combo: Combination): string[] {
  const raw = isObj(runsOn) ? runsOn.labels : runsOn;
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return values.flatMap((value) => {
    const text = textOf(value);
    if (text === undefined) return [];
    const resolved = resolveMatrix(text, combo);
    return resolved === null ? [] : resolved.split(/\s*,\s*/).filter((label) => label !== '');
  });
}

export function runnerBlockers(job: JobView, capabilities: BackendCapabilities): Blocker[] {
  const runsOn = job.raw['runs-on'];
  if (runsOn === undefined) return [];
  const selfHosted = new Set<string>();
  const gpu = new Set<string>();
  const otherOs = new Set<string>();
  for (const combo of job.combos) {
    const labels = labelsFor(runsOn, combo);
    const shown = labels.join(', ');
    if (!capabilities.runners.selfHosted && labels.some((label) => label.toLowerCase() === 'self-hosted')) selfHosted.add(shown);
    if (!capabilities.runners.gpu && labels.some((label) => GPU_LABEL.test(label))) gpu.add(shown);
    const systems = labels.map(osOf).filter((os): os is RunnerOs => os !== undefined);
    if (systems.some((os) => !capabilities.runners.os.includes(os))) otherOs.add(shown);
  }
  const evidence = yamlValue(runsOn);
  const where = (labels: Set<string>): string => [...labels].map((shown) => `[${shown}]`).join(', ');
  const blockers: Blocker[] = [];
  if (selfHosted.size > 0) {
    blockers.push({ code: 'self_hosted_runner', job: job.id, evidence, message: `job ${job.id} runs on a self-hosted runner (${where(selfHosted)}), which ${capabilities.label} does not have` });
  }
  if (gpu.size > 0) {
    blockers.push({ code: 'gpu_runner', job: job.id, evidence, message: `job ${job.id} asks for a GPU runner (${where(gpu)}); ${capabilities.label} has no GPU runners` });
  }
  if (otherOs.size > 0) {
    const systems = capabilities.runners.os.map((os) => (os === 'macos' ? 'macOS' : os === 'windows' ? 'Windows' : 'Linux')).join(' and ');
    blockers.push({ code: 'non_linux_runner', job: job.id, evidence, message: `job ${job.id} runs on ${where(otherOs)}; ${capabilities.label} runs ${systems} jobs only` });
  }
  return blockers;
}
