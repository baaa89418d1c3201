/** The dashboard's calls to the API: same origin, the session cookie travels with them (never a token in a URL). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...init });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  if (!response.ok) throw new ApiError(response.status, body?.error?.code ?? 'error', body?.error?.message ?? response.statusText);
  return body as T;
}

export interface Session {
  name: string;
  role: 'operator' | 'submitter';
}

export const whoAmI = (): Promise<Session> => api<Session>('/ui/session');
export const login = (token: string): Promise<Session> => api<Session>('/ui/session', { method: 'POST', body: JSON.stringify({ token }) });
export const logout = (): Promise<void> => api<void>('/ui/logout', { method: 'POST' });

export interface Rate {
  count: number;
  total: number;
  percent: number | null;
  ci: { lower: number; upper: number } | null;
}

export interface RunSummary {
  runId: string;
  label: string;
  instances: number;
  passed: number;
  evaluated: number;
  repairFailures: number;
  notEvaluated: number;
  successRateStrict: Rate;
  successRateEvaluated: Rate;
  notRepaired: Record<string, number>;
  notEvaluatedReasons: { outcome: string; reason: string; count: number }[];
}

export interface Report {
  confidence: number;
  scope: { instances: number; includeUnhealthy: boolean; excluded: unknown };
  runs: RunSummary[];
  byType: { type: string; occurrences: number; runs: Rate[] }[];
  byRepo: { repo: string; instances: number; runs: Rate[] }[];
  byInstance: { id: string; repo: string; labels: string[]; runs: { outcome: string; reason: string | null; observedLabels: string[] }[] }[];
  comparisons: { runA: string; runB: string; instances: number; bothPassed: number; onlyA: number; onlyB: number; neither: number; mcnemar: { method: string; statistic: number | null; pValue: number } }[];
}

export interface RunListItem {
  id: string;
  label: string;
  createdAt: string;
  submissions: { total: number; byState: Record<string, number> };
}

export interface RunRow {
  submissionId: string;
  instanceId: string;
  repo: string;
  labels: string[];
  state: string;
  verdict: string | null;
  outcome: string | null;
  reason: string | null;
  observedLabels: string[];
  createdAt: string;
  completedAt: string | null;
}

export const listRuns = (): Promise<{ items: RunListItem[] }> => api('/v1/runs?limit=200');
export const getRun = (id: string): Promise<RunListItem> => api(`/v1/runs/${encodeURIComponent(id)}`);
export const runRows = (id: string): Promise<{ run: { id: string; label: string }; items: RunRow[] }> => api(`/v1/runs/${encodeURIComponent(id)}/instances`);
export const runReport = (id: string): Promise<Report> => api(`/v1/runs/${encodeURIComponent(id)}/report?format=json`);
export const compareRuns = (a: string, b: string): Promise<Report> => api(`/v1/reports/compare?format=json&runs=${encodeURIComponent(a)},${encodeURIComponent(b)}`);
