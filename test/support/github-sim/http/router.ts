import type { IncomingHttpHeaders } from 'node:http';
import type { AuthContext } from '../auth.js';

export interface SimRequest {
  method: string;
  path: string;
  template: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  auth: AuthContext;
}

export interface SimResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: SimRequest) => Promise<SimResponse> | SimResponse;

export interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

/** Compiles an OpenAPI path template; `{ref}` and `{path}` may span slashes, like GitHub's. */
export function route(method: string, template: string, handler: Handler): Route {
  const names: string[] = [];
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}|\{(\w+)\}/g, (_m, a: string | undefined, b: string | undefined) => {
    const name = a ?? b ?? '';
    names.push(name);
    return name === 'ref' || name === 'path' ? '(.+?)' : '([^/]+)';
  });
  return { method, template, pattern: new RegExp(`^${source}$`), names, handler };
}

export function matchRoute(routes: Route[], method: string, path: string): { route: Route; params: Record<string, string> } | 'method' | null {
  let pathMatched = false;
  for (const candidate of routes) {
    const m = candidate.pattern.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (candidate.method !== method) continue;
    const params: Record<string, string> = {};
    candidate.names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route: candidate, params };
  }
  return pathMatched ? 'method' : null;
}
