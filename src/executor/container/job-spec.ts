/** A job's `container:` or one of its `services:`, with expressions already evaluated. */
export interface ContainerSpec {
  image: string;
  env: Record<string, string>;
  options: string;
  ports: string[];
  volumes: string[];
  /** `credentials:` was given: never used (no registry credentials are passed to the runtime). */
  credentials: boolean;
}

export interface ServiceSpec extends ContainerSpec {
  id: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * Reads `container:` (a string image or a mapping) or one service's mapping, evaluating `${{ }}` with `evaluate`.
 * Returns null when there is no image (GitHub skips a service whose image evaluates to empty).
 */
export function parseContainerSpec(raw: unknown, evaluate: (value: string) => string): ContainerSpec | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') {
    const image = evaluate(raw).trim();
    return image === '' ? null : { image, env: {}, options: '', ports: [], volumes: [], credentials: false };
  }
  if (!isObj(raw)) throw new Error('container must be an image name or a mapping');
  const image = evaluate(text(raw.image)).trim();
  if (image === '') return null;
  const env = isObj(raw.env) ? Object.fromEntries(Object.entries(raw.env).map(([k, v]) => [k, evaluate(text(v))])) : {};
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => evaluate(text(x))) : v === undefined ? [] : [evaluate(text(v))]);
  return { image, env, options: evaluate(text(raw.options)), ports: list(raw.ports), volumes: list(raw.volumes), credentials: raw.credentials !== undefined };
}

export function parseServices(raw: unknown, evaluate: (value: string) => string): ServiceSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!isObj(raw)) throw new Error('services must be a mapping of service ids');
  const out: ServiceSpec[] = [];
  for (const [id, value] of Object.entries(raw)) {
    const spec = parseContainerSpec(value, evaluate);
    if (spec !== null) out.push({ id, ...spec });
  }
  return out;
}

/**
 * The container port of each `ports:` entry (`6379`, `6379/tcp`, `8080:80` → 80): services share the job
 * container's network namespace, so a service is reached on its own port; `job.services.<id>.ports[<port>]` is
 * that port. A host port different from the container port is not mapped (reported as a note).
 */
export function servicePorts(ports: string[]): { ports: Record<string, string>; unmapped: string[] } {
  const out: Record<string, string> = {};
  const unmapped: string[] = [];
  for (const entry of ports) {
    const parts = entry.replace(/\/(tcp|udp)$/, '').split(':');
    const container = parts[parts.length - 1] ?? '';
    if (!/^\d+$/.test(container)) continue;
    out[container] = container;
    const host = parts.length >= 2 ? parts[parts.length - 2] : undefined;
    if (host !== undefined && host !== '' && host !== container) unmapped.push(entry);
  }
  return { ports: out, unmapped };
}
