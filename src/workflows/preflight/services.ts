/**
 * Service containers, job containers, and URLs on localhost that only a service container would serve.
 *
 * The localhost rule, kept narrow so that test servers a job starts itself are never flagged: a URL
 * (`scheme://[user@]host:port…`, or a bare `host:port` value) whose host is localhost, 127.0.0.1, 0.0.0.0
 * or [::1] and that names its port explicitly is a blocker only when the job declares `services:` and the
 * port is one a service publishes (`ports: ['5432:5432']` → 5432; a bare `6379` counts as 6379). Jobs without
 * services, URLs without a port, and ports no service publishes (a `uvicorn --port 8000 &` the job starts) are
 * left alone. Only env values (workflow, job, step), `with:` inputs and `run:` scripts of steps that may run on
 * Linux are read.
 */
import { reachable } from './conditions.js';
import { isObj, objAt, textOf, yamlValue, type JobView, type Obj } from './model.js';
import type { BackendCapabilities, Blocker } from './types.js';

interface Service {
  name: string;
  image: string;
  ports: Set<number>;
}

function portsOf(value: unknown): Set<number> {
  const ports = new Set<number>();
  for (const entry of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
    const text = textOf(entry);
    if (text === undefined || text.includes('${{')) continue;
    const parts = text.split('/')[0]?.split(':') ?? [];
    // `host:container`, `ip:host:container`, or `container` alone (published on a port of GitHub's choosing).
    const published = parts.length >= 2 ? parts[parts.length - 2] : parts[0];
    const port = Number.parseInt(published ?? '', 10);
    if (Number.isInteger(port) && port > 0 && port < 65536) ports.add(port);
  }
  return ports;
}

function servicesOf(job: JobView): Service[] {
  return Object.entries(objAt(job.raw.services)).map(([name, value]) => ({
    name,
    image: textOf(isObj(value) ? value.image : value) ?? '',
    ports: portsOf(isObj(value) ? value.ports : undefined),
  }));
}

export function containerBlockers(job: JobView, capabilities: BackendCapabilities): Blocker[] {
  const blockers: Blocker[] = [];
  if (!capabilities.services) {
    for (const service of servicesOf(job)) {
      blockers.push({
        code: 'service_container',
        job: job.id,
        evidence: service.image,
        message: `job ${job.id} needs the service container "${service.name}" (${service.image || 'no image'}); ${capabilities.label} cannot start service containers`,
      });
    }
  }
  const container = job.raw.container;
  if (!capabilities.jobContainers && container !== undefined && container !== null && container !== '') {
    const image = textOf(isObj(container) ? container.image : container) ?? yamlValue(container);
    blockers.push({
      code: 'job_container',
      job: job.id,
      evidence: image,
      message: `job ${job.id} runs its steps in the container ${image}; ${capabilities.label} runs steps on the host, where the image's tools and paths are not`,
    });
  }
  return blockers;
}

const LOCAL_HOST = String.raw`(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])`;
const URL_WITH_PORT = new RegExp(String.raw`\b([a-z][a-z0-9+.-]*:\/\/(?:[^\s/@'"\`]*@)?${LOCAL_HOST}:(\d{1,5}))`, 'gi');
const BARE_HOST_PORT = new RegExp(String.raw`^(${LOCAL_HOST}:(\d{1,5}))(?:\/\S*)?$`, 'i');

function localUrls(text: string, bare: boolean): { url: string; port: number }[] {
  const found = [...text.matchAll(URL_WITH_PORT)].map((match) => ({ url: match[1] ?? '', port: Number(match[2]) }));
  const single = bare ? BARE_HOST_PORT.exec(text.trim()) : null;
  if (single) found.push({ url: single[1] ?? '', port: Number(single[2]) });
  return found;
}

interface Place {
  step?: string;
  where: string;
  text: string;
  /** Env values and inputs may be a bare `localhost:5432`; scripts need a scheme. */
  bare: boolean;
}

function envPlaces(env: Obj, where: string, step?: string): Place[] {
  return Object.entries(env).flatMap(([key, value]) => {
    const text = textOf(value);
    return text === undefined ? [] : [{ ...(step === undefined ? {} : { step }), where: `${where} ${key}`, text, bare: true }];
  });
}

export function serviceUrlBlockers(job: JobView, capabilities: BackendCapabilities): Blocker[] {
  if (capabilities.services) return [];
  const services = servicesOf(job);
  if (services.length === 0) return [];
  const places: Place[] = [...envPlaces(job.workflow.env, 'workflow env'), ...envPlaces(objAt(job.raw.env), 'job env')];
  for (const step of job.steps) {
    if (reachable(step.raw.if, job.combos).length === 0) continue;
    places.push(...envPlaces(objAt(step.raw.env), 'env', step.display), ...envPlaces(objAt(step.raw.with), 'input', step.display));
    const run = textOf(step.raw.run);
    if (run !== undefined) places.push({ step: step.display, where: 'script', text: run, bare: false });
  }
  const blockers: Blocker[] = [];
  const seen = new Set<string>();
  for (const place of places) {
    for (const { url, port } of localUrls(place.text, place.bare)) {
      const service = services.find((candidate) => candidate.ports.has(port));
      const key = `${place.step ?? ''}\u0000${place.where}\u0000${port}`;
      if (service === undefined || seen.has(key)) continue;
      seen.add(key);
      const holder = place.step === undefined ? `the ${place.where}` : `the ${place.where} of step "${place.step}"`;
      blockers.push({
        code: 'localhost_service_url',
        job: job.id,
        ...(place.step === undefined ? {} : { step: place.step }),
        evidence: url,
        message: `${holder} in job ${job.id} reaches ${url}, port ${port} of the service container "${service.name}" (${service.image || 'no image'}), which ${capabilities.label} cannot start`,
      });
    }
  }
  return blockers;
}
