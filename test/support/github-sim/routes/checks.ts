import type { SimContext } from '../context.js';
import { ensureAppSuite } from '../check-suites.js';
import { resolveRef } from '../git/bare-repo.js';
import { GhError, notFoundError, validationError } from '../http/gh-error.js';
import { paginate } from '../http/paginate.js';
import { route, type Route } from '../http/router.js';
import { serializeCheckRun, serializeCheckSuite } from '../serialize/checks.js';
import { findRepoById, nextId } from '../state.js';
import type { SimCheckRun, SimCheckRunAction, SimRepo } from '../types.js';
import { emitRepoEvent } from '../webhooks/payloads.js';
import { readyRepoFrom, repoFrom } from './repos.js';

const MAX_TEXT = 65_535;
const MAX_ANNOTATIONS = 50;

interface OutputInput {
  title?: unknown;
  summary?: unknown;
  text?: unknown;
  annotations?: unknown;
}

function validate(body: Record<string, unknown>, creating: boolean): void {
  if (creating) {
    const missing = ['name', 'head_sha'].filter((field) => typeof body[field] !== 'string' || body[field] === '');
    if (missing.length > 0) throw validationError(`Invalid request.\n\n${missing.map((f) => `"${f}"`).join(', ')} wasn't supplied.`);
  }
  if (body.status === 'completed' && body.conclusion === undefined) throw validationError('Invalid request.\n\n"conclusion" wasn\'t supplied.');
  const output = body.output as OutputInput | undefined;
  if (output) {
    if (typeof output.summary !== 'string') throw validationError('Invalid request.\n\n"summary" wasn\'t supplied.');
    for (const field of ['summary', 'text'] as const) {
      const value = output[field];
      if (typeof value === 'string' && value.length > MAX_TEXT) {
        throw validationError(`Invalid request.\n\nOnly ${MAX_TEXT} characters are allowed; ${value.length} were supplied.`);
      }
    }
    if (Array.isArray(output.annotations)) {
      if (output.annotations.length > MAX_ANNOTATIONS) throw validationError(`Invalid request.\n\nOnly ${MAX_ANNOTATIONS} annotations are allowed per request.`);
      for (const annotation of output.annotations as Record<string, unknown>[]) {
        const needed = ['path', 'start_line', 'end_line', 'annotation_level', 'message'].filter((f) => annotation[f] === undefined);
        if (needed.length > 0) throw validationError(`Invalid request.\n\n${needed.map((f) => `"${f}"`).join(', ')} wasn't supplied.`);
        if (!['notice', 'warning', 'failure'].includes(String(annotation.annotation_level))) throw validationError('Invalid request.\n\n"annotation_level" is not a permitted value.');
      }
    }
  }
  if (Array.isArray(body.actions)) {
    const actions = body.actions as Record<string, unknown>[];
    if (actions.length > 3) throw validationError('Invalid request.\n\nOnly 3 actions are allowed.');
    for (const action of actions) {
      const tooLong = (field: string, max: number): boolean => typeof action[field] !== 'string' || String(action[field]).length > max;
      if (tooLong('label', 20) || tooLong('description', 40) || tooLong('identifier', 20)) throw validationError('Invalid request.\n\nAction label, description or identifier is missing or too long.');
    }
  }
}

export interface ChecksApi {
  routes: Route[];
  clickAction(checkRunId: number, identifier: string): void;
  /** GitHub's "Re-run" button of a check run created by the App: a `check_run` `rerequested` event. */
  rerequest(checkRunId: number): void;
}

export function checksRoutes(ctx: SimContext): ChecksApi {
  const { state } = ctx;
  const emit = (repo: SimRepo, run: SimCheckRun, action: string, extra: Record<string, unknown> = {}): void => {
    const suite = state.checkSuites.get(run.checkSuiteId);
    const checkRun = serializeCheckRun(ctx.base(), state, run);
    if (suite) checkRun.check_suite = serializeCheckSuite(ctx.base(), state, suite);
    emitRepoEvent(ctx, 'check_run', repo, { action, check_run: checkRun, ...extra });
  };
  const maybeCompleteSuite = (repo: SimRepo, run: SimCheckRun): void => {
    const suite = state.checkSuites.get(run.checkSuiteId);
    if (!suite || suite.completedSent) return;
    const runs = [...state.checkRuns.values()].filter((r) => r.checkSuiteId === suite.id);
    if (!runs.every((r) => r.status === 'completed')) return;
    suite.completedSent = true;
    suite.updatedAt = new Date().toISOString();
    emitRepoEvent(ctx, 'check_suite', repo, { action: 'completed', check_suite: serializeCheckSuite(ctx.base(), state, suite) });
  };
  const apply = (run: SimCheckRun, body: Record<string, unknown>): void => {
    if (typeof body.name === 'string') run.name = body.name;
    if (typeof body.details_url === 'string') run.detailsUrl = body.details_url;
    if (typeof body.external_id === 'string') run.externalId = body.external_id;
    if (typeof body.status === 'string') run.status = body.status as SimCheckRun['status'];
    if (typeof body.started_at === 'string') run.startedAt = body.started_at;
    if (typeof body.conclusion === 'string') {
      run.conclusion = body.conclusion as SimCheckRun['conclusion'];
      run.status = 'completed';
    }
    if (run.status === 'completed') run.completedAt = typeof body.completed_at === 'string' ? body.completed_at : run.completedAt ?? new Date().toISOString();
    if (run.status === 'in_progress') run.startedAt ??= new Date().toISOString();
    const output = body.output as OutputInput | undefined;
    if (output) {
      run.output.title = typeof output.title === 'string' ? output.title : run.output.title;
      run.output.summary = typeof output.summary === 'string' ? output.summary : run.output.summary;
      run.output.text = typeof output.text === 'string' ? output.text : run.output.text;
      if (Array.isArray(output.annotations)) run.output.annotations.push(...(output.annotations as unknown[]));
    }
    if (Array.isArray(body.actions)) run.actions = body.actions as SimCheckRunAction[];
  };
  const findRun = (repo: SimRepo, id: string | undefined): SimCheckRun => {
    const run = state.checkRuns.get(Number(id));
    if (!run || run.repoId !== repo.id) throw notFoundError();
    return run;
  };

  const routes = [
    route('POST', '/repos/{owner}/{repo}/check-runs', async (req) => {
      if (req.auth.kind !== 'installation') throw new GhError(403, 'You must authenticate via a GitHub App.');
      const repo = readyRepoFrom(ctx, req, 'checks', 'write');
      validate(req.body, true);
      const sha = String(req.body.head_sha);
      if ((await resolveRef(repo.gitDir, sha)) !== sha) throw validationError(`No commit found for SHA: ${sha}`);
      const run: SimCheckRun = {
        id: nextId(state, 'job'), repoId: repo.id, name: '', headSha: sha, status: 'queued', conclusion: null,
        startedAt: new Date().toISOString(), completedAt: null, detailsUrl: null, externalId: null,
        output: { title: null, summary: null, text: null, annotations: [] }, actions: [], checkSuiteId: (await ensureAppSuite(ctx, repo, sha, null)).id, owner: 'app',
      };
      apply(run, req.body);
      state.checkRuns.set(run.id, run);
      emit(repo, run, 'created');
      if (run.status === 'completed') maybeCompleteSuite(repo, run);
      return { status: 201, body: serializeCheckRun(ctx.base(), state, run) };
    }),
    route('PATCH', '/repos/{owner}/{repo}/check-runs/{check_run_id}', (req) => {
      if (req.auth.kind !== 'installation') throw new GhError(403, 'You must authenticate via a GitHub App.');
      const repo = readyRepoFrom(ctx, req, 'checks', 'write');
      const run = findRun(repo, req.params.check_run_id);
      if (run.owner !== 'app') throw new GhError(403, 'Invalid app_id `' + state.app.id + '` - check run can only be modified by the GitHub App that created it.');
      validate(req.body, false);
      const wasCompleted = run.status === 'completed';
      apply(run, req.body);
      if (!wasCompleted && run.status === 'completed') {
        emit(repo, run, 'completed');
        maybeCompleteSuite(repo, run);
      }
      return { status: 200, body: serializeCheckRun(ctx.base(), state, run) };
    }),
    route('GET', '/repos/{owner}/{repo}/check-runs/{check_run_id}', (req) => {
      const repo = repoFrom(ctx, req, 'checks', 'read');
      return { status: 200, body: serializeCheckRun(ctx.base(), state, findRun(repo, req.params.check_run_id)) };
    }),
    route('GET', '/repos/{owner}/{repo}/commits/{ref}/check-runs', async (req) => {
      const repo = readyRepoFrom(ctx, req, 'checks', 'read');
      const ref = req.params.ref ?? '';
      const sha = (await resolveRef(repo.gitDir, ref)) ?? (await resolveRef(repo.gitDir, `refs/heads/${ref}`));
      if (!sha) throw validationError(`No commit found for SHA: ${ref}`);
      const q = req.query;
      let runs = [...state.checkRuns.values()].filter((r) => r.repoId === repo.id && r.headSha === sha)
        .filter((r) => !q.get('check_name') || r.name === q.get('check_name'))
        .filter((r) => !q.get('status') || r.status === q.get('status'))
        .filter((r) => !q.get('app_id') || String(r.owner === 'app' ? state.app.id : 15368) === q.get('app_id'));
      if ((q.get('filter') ?? 'latest') === 'latest') {
        const latest = new Map<string, SimCheckRun>();
        for (const r of runs) if ((latest.get(`${r.owner}/${r.name}`)?.id ?? 0) < r.id) latest.set(`${r.owner}/${r.name}`, r);
        runs = [...latest.values()];
      }
      runs.sort((a, b) => b.id - a.id);
      const { page, headers } = paginate(runs, q, `${ctx.base()}${req.path}?${q.toString()}`);
      return { status: 200, body: { total_count: runs.length, check_runs: page.map((r) => serializeCheckRun(ctx.base(), state, r)) }, headers };
    }),
  ];

  return {
    routes,
    clickAction(checkRunId, identifier) {
      const run = state.checkRuns.get(checkRunId);
      const repo = run ? findRepoById(state, run.repoId) : undefined;
      if (!run || !repo) throw new Error(`no check run ${checkRunId}`);
      if (!run.actions.some((a) => a.identifier === identifier)) throw new Error(`check run ${checkRunId} has no action ${identifier}`);
      emit(repo, run, 'requested_action', { requested_action: { identifier } });
    },
    rerequest(checkRunId) {
      const run = state.checkRuns.get(checkRunId);
      const repo = run ? findRepoById(state, run.repoId) : undefined;
      if (!run || !repo) throw new Error(`no check run ${checkRunId}`);
      emit(repo, run, 'rerequested', {});
    },
  };
}
