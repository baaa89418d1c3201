/** What a step is for. */
export type StepPurpose =
  | 'setup'
  | 'work'
  | 'publish'
  | 'registry-login'
  | 'release'
  | 'pages'
  | 'deploy'
  | 'notification'
  | 'coverage-upload'
  | 'artifact-upload'
  | 'repo-write'
  | 'security-upload'
  | 'cloud-credentials'
  | 'credentials'
  | 'debug-session'
  | 'benchmark-service'
  | 'external-upload';

export interface StepFacts {
  uses?: string | undefined;
  run?: string | undefined;
  name?: string | undefined;
  /** The `with:` inputs, as plain values (for actions/github-script scripts). */
  with?: Record<string, unknown> | undefined;
}

export interface StepClass {
  purpose: StepPurpose;
  detail: string;
  /** What showed it: the action name or the command. */
  evidence?: string;
}
