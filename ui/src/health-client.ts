import { api } from './api.js';

/** Benchmark health as the dashboard shows it. */
export interface HealthView {
  statuses: Record<string, number>;
  repositories: { repo: string; total: number; checked: number; health: Record<string, number>; flakyRate: number | null }[];
  recent: { id: string; instanceId: string; repo: string; status: string; result: string | null; health: string; counts: Record<string, number> | null; backend: string | null; startedAt: string; completedAt: string | null }[];
}

/**
 * The one place the dashboard reads benchmark health. Today: `/v1/dashboard/health`, built from the instances'
 * health and the re-validation records; when `GET /v1/health/instances` (src/health/) lands, map it here.
 */
export const loadHealth = (): Promise<HealthView> => api<HealthView>('/v1/dashboard/health?recent=30');
