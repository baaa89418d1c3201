import { eventFilePath } from '../event-payload/index.js';
import type { ContextValue, Contexts } from '../expressions.js';
import type { JobInput, JobState } from './job-state.js';

/** The job id GitHub exposes (`github.job`): the callee's key for an inlined reusable workflow job. */
function jobKey(input: JobInput): string {
  return input.job.calledFrom?.calleeKey ?? input.job.key;
}

export function githubContext(input: JobInput, workspace: string): Record<string, ContextValue> {
  const [owner = '', name = ''] = input.repo.fullName.split('/');
  const refName = input.ref.replace(/^refs\/(heads|tags)\//, '');
  return {
    action: '',
    actor: owner,
    api_url: 'https://api.github.com',
    base_ref: '',
    event: input.event,
    event_name: input.eventName,
    graphql_url: 'https://api.github.com/graphql',
    head_ref: '',
    job: jobKey(input),
    ref: input.ref,
    ref_name: refName,
    ref_type: input.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    repository: input.repo.fullName,
    repository_owner: owner,
    repository_name: name,
    retention_days: '90',
    run_attempt: String(input.runAttempt),
    run_id: input.runId,
    run_number: String(input.runNumber),
    server_url: 'https://github.com',
    sha: input.sha,
    token: '',
    workflow: input.workflow.name,
    workflow_ref: `${input.repo.fullName}/${input.workflow.path}@${input.ref}`,
    workspace,
  };
}

/** The default variables every step sees (GITHUB_*, RUNNER_*, CI), on top of the clean base. */
export function defaultVariables(input: JobInput, state: JobState, stepFiles: Record<string, string>): Record<string, string> {
  const refName = input.ref.replace(/^refs\/(heads|tags)\//, '');
  return {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION: '',
    GITHUB_ACTOR: input.repo.fullName.split('/')[0] ?? '',
    GITHUB_API_URL: 'https://api.github.com',
    GITHUB_EVENT_NAME: input.eventName,
    GITHUB_EVENT_PATH: eventFilePath(state.temp),
    GITHUB_JOB: jobKey(input),
    GITHUB_REF: input.ref,
    GITHUB_REF_NAME: refName,
    GITHUB_REF_TYPE: input.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    GITHUB_REPOSITORY: input.repo.fullName,
    GITHUB_REPOSITORY_OWNER: input.repo.fullName.split('/')[0] ?? '',
    GITHUB_RUN_ATTEMPT: String(input.runAttempt),
    GITHUB_RUN_ID: input.runId,
    GITHUB_RUN_NUMBER: String(input.runNumber),
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_SHA: input.sha,
    GITHUB_WORKFLOW: input.workflow.name,
    GITHUB_WORKFLOW_REF: `${input.repo.fullName}/${input.workflow.path}@${input.ref}`,
    GITHUB_WORKSPACE: state.workspace,
    GITHUB_ENV: stepFiles.env ?? '',
    GITHUB_OUTPUT: stepFiles.output ?? '',
    GITHUB_PATH: stepFiles.path ?? '',
    GITHUB_STEP_SUMMARY: stepFiles.summary ?? '',
    RUNNER_ARCH: 'X64',
    RUNNER_NAME: input.runnerName,
    RUNNER_OS: 'Linux',
    RUNNER_TEMP: state.temp,
    RUNNER_TOOL_CACHE: state.temp,
    RUNNER_ENVIRONMENT: 'self-hosted',
  };
}

/** `job`: status, and in a container the job container and its services (`job.services.<id>.ports[<port>]`). */
function jobContext(state: JobState): Record<string, ContextValue> {
  const status = state.status.cancelled ? 'cancelled' : state.status.failed ? 'failure' : 'success';
  const c = state.environment.container;
  if (c === null) return { status };
  const services = Object.fromEntries(Object.entries(state.environment.services).map(([id, s]) => [id, { id: s.id, network: s.network, ports: s.ports }]));
  return { status, container: { id: c.name, network: Object.keys(services).length > 0 ? `container:${c.name}` : '' }, services };
}

export function buildContexts(input: JobInput, state: JobState, env: Record<string, string>): Contexts {
  return {
    github: githubContext(input, state.workspace),
    env,
    matrix: input.matrix ?? {},
    needs: input.needs,
    steps: state.steps,
    job: jobContext(state),
    runner: { name: input.runnerName, os: 'Linux', arch: 'X64', temp: state.temp, tool_cache: state.temp, debug: '' },
    inputs: input.inputs,
    secrets: {},
    vars: {},
    strategy: {
      'fail-fast': input.job.strategy.failFast,
      'job-index': input.matrixIndex,
      'job-total': input.matrixTotal,
      'max-parallel': input.matrixTotal,
    },
  };
}
