import { lines, type OutcomeRule } from './rule.js';

/** A failed `Set up job`: the job never reached its first step (scope `setup`). */
export const SETUP_RULES: OutcomeRule[] = [
  {
    id: 'setup-sandbox-unavailable',
    outcome: 'infra_error',
    reason: 'sandbox_unavailable',
    scope: 'setup',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/The step sandbox is required \(EXECUTOR_SANDBOX=namespaces\) but this host cannot provide it/),
    example: {
      command: '',
      lines: ['##[error]The step sandbox is required (EXECUTOR_SANDBOX=namespaces) but this host cannot provide it: unprivileged user namespaces are disabled'],
      source: "ci-replay's local executor (src/executor/sandbox/run-plan.ts)",
    },
  },
  {
    id: 'setup-unsupported-by-local-executor',
    outcome: 'infra_error',
    reason: 'unsupported_feature',
    scope: 'setup',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/not supported by the local executor/),
    example: {
      command: '',
      lines: ['Prepare workflow directory', 'Prepare all required actions', '##[error]services are not supported by the local executor'],
      source: "ci-replay's local executor (src/executor/workflow-model.ts: services, container jobs, remote reusable workflows)",
    },
  },
  {
    id: 'setup-action-download-failed',
    outcome: 'infra_error',
    reason: 'action_unavailable',
    scope: 'setup',
    precedence: 'always',
    issuer: 'runner',
    match: lines(/Unable to resolve action|An action could not be found at the URI|Failed to download action|Unable to download actions?\b/),
    example: {
      command: '',
      lines: [
        'Prepare workflow directory',
        'Prepare all required actions',
        "Download action repository 'w9jds/firebase-action@v1.5.0'",
        "##[error]An action could not be found at the URI 'https://api.github.com/repos/w9jds/firebase-action/tarball/v1.5.0'",
      ],
      source: 'https://github.com/w9jds/firebase-action/issues/56 (a GitHub outage: "it should work now")',
    },
  },
];
