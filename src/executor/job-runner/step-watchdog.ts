import type { LimitName, StepLauncher } from '../sandbox/index.js';
import { breachOf, killJobProcesses, listJobProcesses, nearLimits, usageOf } from '../sandbox/index.js';
import { killGroup } from '../spawn-process.js';

export interface StepWatch {
  /** The step's process started (its pid is also its process group). */
  started(pid: number): void;
  /** Output arrived (counted against the output limit). */
  output(bytes: number): void;
  /** Stops watching once the step ended: the limit that got it killed, and the limits it came close to. */
  finish(): Promise<{ breach: LimitName | null; near: Set<LimitName> }>;
}

/**
 * Samples the job's processes while a step runs (every `intervalMs`): at the memory or process limit, or past the
 * output limit, the step's process group and every process of the job are killed at once, so a fork bomb, a memory
 * hog or an endless printer ends in well under a second instead of running into the job timeout.
 */
export function watchStep(launcher: StepLauncher, intervalMs = 200): StepWatch {
  let pid = 0;
  let breach: LimitName | null = null;
  let killing: Promise<void> = Promise.resolve();
  const near = new Set<LimitName>();
  let outputBytes = 0;
  let timer: NodeJS.Timeout | null = null;
  const kill = (limit: LimitName): void => {
    if (breach !== null || pid === 0) return;
    breach = limit;
    killGroup(pid, 'SIGKILL');
    killing = killJobProcesses(launcher.membership(pid));
  };
  const tick = (): void => {
    const usage = usageOf(listJobProcesses(launcher.membership(pid)));
    for (const limit of nearLimits(usage, launcher.limits)) near.add(limit);
    const hit = breachOf(usage, launcher.limits, launcher.processSlack);
    if (hit !== null) kill(hit);
  };
  return {
    started(stepPid) {
      pid = stepPid;
      timer = setInterval(tick, intervalMs);
    },
    output(bytes) {
      outputBytes += bytes;
      if (outputBytes > launcher.limits.maxOutputBytes) kill('output');
    },
    async finish() {
      if (timer !== null) clearInterval(timer);
      await killing;
      return { breach, near };
    },
  };
}
