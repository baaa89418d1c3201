/**
 * Package index services: a job that runs a service serving a package index frozen at a date (a "time machine") and
 * points PIP_INDEX_URL/UV_INDEX_URL at it on localhost. Recognized, reported, and connected to the replay's own
 * pinning: with `indexUrl` the service is replaced by that index; otherwise it stays, and `pinDate` (or the service's
 * own cutoff) is what a backend that cannot run services substitutes.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { PackageIndexService, ReportEntry } from '../types.js';
import { keyOf, mapAt, nodeText, pairsOf, stringAt, walkStrings } from '../nodes.js';
import { pinTimestamp } from './settings.js';

const INDEX_VARIABLES = /^(?:PIP_INDEX_URL|PIP_EXTRA_INDEX_URL|UV_INDEX_URL|UV_DEFAULT_INDEX|UV_EXTRA_INDEX_URL|UV_INDEX|PIP_FIND_LINKS)$/;
const TIME_MACHINE = /time-?machine/i;
const DATE = /\b(\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?Z?)?)\b/;

interface LocalUrl {
  variable: string;
  url: string;
  host: string;
  port: string | undefined;
}

function localUrls(env: YAMLMap | undefined, services: readonly string[]): LocalUrl[] {
  const hosts = ['localhost', '127.0.0.1', ...services].map((host) => host.replaceAll('.', '\\.')).join('|');
  const pattern = new RegExp(String.raw`^https?://(${hosts})(?::(\d+))?(?:/[^\s]*)?$`);
  return pairsOf(env).flatMap((pair) => {
    const variable = keyOf(pair);
    const value = isScalar(pair.value) ? String(pair.value.value ?? '').trim() : '';
    const match = INDEX_VARIABLES.test(variable) ? pattern.exec(value) : null;
    return match === null ? [] : [{ variable, url: value, host: match[1] ?? '', port: match[2] }];
  });
}

function servicePorts(service: YAMLMap): string[] {
  const ports = service.get('ports', true);
  if (!isSeq(ports)) return [];
  return ports.items.flatMap((item) => (isScalar(item) ? [String(item.value).split(':')[0] ?? ''] : []));
}

export interface PackageIndexOptions {
  pinDate?: Date | undefined;
  indexUrl?: string | undefined;
}

/** Finds package index services in the kept jobs; with `indexUrl`, replaces them by it. */
export function handlePackageIndexes(root: YAMLMap, jobs: YAMLMap, options: PackageIndexOptions): { report: ReportEntry[]; services: PackageIndexService[] } {
  const report: ReportEntry[] = [];
  const services: PackageIndexService[] = [];
  const workflowEnv = mapAt(root, 'env');
  for (const pair of pairsOf(jobs)) {
    const job = isMap(pair.value) ? pair.value : undefined;
    const serviceMap = job === undefined ? undefined : mapAt(job, 'services');
    if (job === undefined || serviceMap === undefined) continue;
    const jobId = keyOf(pair);
    const names = pairsOf(serviceMap).map(keyOf);
    const steps = job.get('steps', true);
    const stepEnvs = (isSeq(steps) ? steps.items : []).flatMap((step) => (isMap(step) ? [mapAt(step, 'env')] : []));
    const envs: Array<YAMLMap | undefined> = [workflowEnv, mapAt(job, 'env'), ...stepEnvs];
    const urls = envs.flatMap((env) => localUrls(env, names));
    for (const servicePair of pairsOf(serviceMap)) {
      const service = isMap(servicePair.value) ? servicePair.value : undefined;
      if (service === undefined) continue;
      const name = keyOf(servicePair);
      const image = stringAt(service, 'image');
      const ports = servicePorts(service);
      const serving = urls.filter((url) => url.host === name || (url.port !== undefined && ports.includes(url.port)));
      if (serving.length === 0 && !TIME_MACHINE.test(`${name} ${image ?? ''}`)) continue;
      if (serving.length === 0) continue;
      const cutoff = DATE.exec(nodeText(service))?.[1];
      const url = serving[0]?.url ?? '';
      const variables = [...new Set(serving.map((entry) => entry.variable))];
      const target = `jobs.${jobId}.services.${name}`;
      if (options.indexUrl !== undefined) {
        const replaced = options.indexUrl;
        for (const env of envs) {
          walkStrings(env, '', ({ scalar, key }) => {
            if (key !== undefined && INDEX_VARIABLES.test(key) && serving.some((entry) => entry.url === String(scalar.value).trim())) scalar.value = replaced;
          });
        }
        serviceMap.delete(name);
        if (serviceMap.items.length === 0) job.delete('services');
        report.push({
          action: 'package-index',
          target,
          reason: `a package index service (${image ?? name}${cutoff === undefined ? '' : `, cutoff ${cutoff}`}) served ${url} to ${variables.join(', ')}; replaced by the configured index ${replaced} and removed`,
        });
        services.push({ job: jobId, service: name, image, url, variables, cutoff, handling: 'replaced', substitute: { indexUrl: replaced } });
        continue;
      }
      const pin = options.pinDate === undefined ? cutoff : pinTimestamp(options.pinDate);
      report.push({
        action: 'package-index',
        target,
        reason: `a package index service (${image ?? name}${cutoff === undefined ? '' : `, cutoff ${cutoff}`}) serves ${url} to ${variables.join(', ')}; kept. A backend that cannot run it substitutes ${pin === undefined ? 'an index pinned to the commit date (pinDate or indexUrl)' : `an index pinned to ${pin} (pinDate), or indexUrl`}`,
      });
      services.push({ job: jobId, service: name, image, url, variables, cutoff, handling: 'kept', substitute: pin === undefined ? undefined : { pinDate: pin } });
    }
  }
  return { report, services };
}
