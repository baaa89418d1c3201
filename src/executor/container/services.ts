import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StepLimits } from '../sandbox/settings.js';
import { checkOptions } from './docker-options.js';
import { resolveImage } from './image-resolution.js';
import { limitOptions } from './limits.js';
import type { ServiceSpec } from './job-spec.js';
import type { ContainerRuntime } from './runtime.js';
import { cli } from './runtime.js';
import type { EngineApi } from './engine-api.js';
import { engineApi } from './engine-api.js';
import type { ContainerSettings } from './settings.js';

export interface StartService {
  runtime: ContainerRuntime;
  service: ServiceSpec;
  name: string;
  jobContainer: string;
  jobId: string;
  limits: StepLimits;
  settings: ContainerSettings;
  privateDir: string;
  note: (line: string) => void;
  onStarted: () => void;
}

/** `running healthy`, `running none` (no health check), `exited none`… through the Engine API, else `docker inspect`. */
async function serviceState(runtime: ContainerRuntime, api: EngineApi | null, name: string): Promise<[string | undefined, string | undefined]> {
  if (api !== null) {
    const r = await api.call<{ State?: { Status?: string; Health?: { Status?: string } | null } }>('GET', `/containers/${encodeURIComponent(name)}/json`, undefined, 30_000).catch(() => null);
    if (r !== null && typeof r.body === 'object') return [r.body.State?.Status, r.body.State?.Health?.Status ?? 'none'];
  }
  const state = await cli(runtime, ['inspect', '--format', '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}', name], { timeoutMs: 30_000 });
  const [status, health] = state.stdout.trim().split(' ');
  return [status, health];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts one service container in the job container's network namespace (`--network container:<job>`: it listens
 * on the job's localhost), with its env (from a 0600 file removed once started, never on a command line), its
 * allowed `options`, and the job's limits; then waits for its health check (`--health-cmd`) to pass: 250 ms
 * doubling to 2 s, at most LOCAL_SERVICE_HEALTH_TIMEOUT_MS. No health check counts as healthy once running.
 */
export async function startService(req: StartService): Promise<void> {
  const { runtime, service, note } = req;
  const options = checkOptions(service.options);
  if ('error' in options) throw new Error(`service ${service.id}: ${options.error}`);
  if (service.credentials) note(`Service ${service.id}: credentials ignored (registry credentials are never passed to the runtime)`);
  if (service.volumes.length > 0) note(`Service ${service.id}: volumes ignored (${service.volumes.join(', ')}): host paths are never bound into a service`);
  const image = await resolveImage(runtime, service.image, note);
  const envFile = join(req.privateDir, `service-${service.id.replace(/[^a-zA-Z0-9_.-]/g, '-')}.env`);
  writeFileSync(envFile, Object.entries(service.env).map(([k, v]) => `${k}=${v.replace(/\n/g, ' ')}`).join('\n'), { mode: 0o600 });
  const run = await cli(runtime, [
    'run', '-d', '--name', req.name, '--label', `ci-replay.job=${req.jobId}`, '--label', `ci-replay.service=${service.id}`,
    `--network=container:${req.jobContainer}`, '--security-opt', 'no-new-privileges', ...limitOptions(req.limits, req.settings.cpus, runtime.kind),
    '--env-file', envFile, ...options.args, image,
  ], { timeoutMs: 120_000 });
  rmSync(envFile, { force: true });
  if (run.code !== 0) throw new Error(`service ${service.id} (${image}) could not start: ${run.stderr.trim()}`);
  req.onStarted();
  const deadline = Date.now() + req.settings.serviceHealthTimeoutMs;
  const api = engineApi(runtime);
  let wait = 250;
  for (;;) {
    const [status, health] = await serviceState(runtime, api, req.name);
    if (status !== 'running') {
      const logs = await cli(runtime, ['logs', '--tail', '20', req.name], { timeoutMs: 30_000 });
      const tail = `${logs.stdout}${logs.stderr}`.trim().split('\n').slice(-5).join(' | ');
      throw new Error(`service ${service.id} (${image}) exited before it was ready (${status ?? 'unknown'}): ${tail}`);
    }
    if (health === 'none' || health === 'healthy') {
      note(`Service ${service.id}: ${image} ${health === 'healthy' ? 'is healthy' : 'is running (no health check)'}, on localhost`);
      return;
    }
    if (health === 'unhealthy') throw new Error(`service ${service.id} (${image}) is unhealthy: its health check failed`);
    if (Date.now() > deadline) throw new Error(`service ${service.id} (${image}) was not healthy within ${req.settings.serviceHealthTimeoutMs} ms (status ${health ?? 'unknown'})`);
    await sleep(wait);
    wait = Math.min(wait * 2, 2000);
  }
}
