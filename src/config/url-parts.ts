/** Parts of connection URLs the configuration derives settings from (passwords to mask, ports and hosts to block). */

/** The password of a URL (`scheme://user:password@host`), as written and decoded; undefined when it has none. */
export function urlPassword(value: string): string[] | undefined {
  try {
    const raw = new URL(value).password;
    if (raw === '') return undefined;
    return [raw, decodeURIComponent(raw)];
  } catch {
    return undefined;
  }
}

export function urlPort(value: string, fallback: number): number {
  try {
    const parsed = new URL(value);
    return parsed.port === '' ? fallback : Number(parsed.port);
  } catch {
    return fallback;
  }
}

const LOCAL_HOSTS = new Set(['', 'localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

/** A service endpoint on another host (local ones are covered by the local-address port rules). */
export function endpoint(value: string, fallback: number): { host: string; port: number } | null {
  try {
    const parsed = new URL(value);
    if (LOCAL_HOSTS.has(parsed.hostname)) return null;
    return { host: parsed.hostname, port: parsed.port === '' ? fallback : Number(parsed.port) };
  } catch {
    return null;
  }
}
