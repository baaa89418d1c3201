/** Where marketplace actions come from and how they are cached (ACTIONS_BASE_URL, LOCAL_ACTIONS, DATA_DIR/actions). */
export interface ActionSettings {
  /** The GitHub (or GitHub-like) server actions are cloned from: `<baseUrl>/<owner>/<repo>.git`. */
  baseUrl: string;
  /** `offline`: only the cache is read; an action missing from it fails the job at "Set up job". */
  mode: 'online' | 'offline';
  /** `DATA_DIR/actions`: `<owner>/<repo>/<sha>/` trees and `<owner>/<repo>/refs.json` (ref → pinned commit). */
  cacheDir: string;
  /** Sent as HTTP basic auth (x-access-token) through git's environment, never in a URL, argument or log. */
  token?: string | undefined;
}

/** `owner/repo[/path]@ref` of a `uses:` step. */
export interface RemoteActionRef {
  kind: 'remote';
  uses: string;
  owner: string;
  repo: string;
  /** Folder of the action inside the repository ('' for the root). */
  path: string;
  ref: string;
}

/** `./path` of a `uses:` step: an action in the checked-out repository, read from the workspace when its step runs. */
export interface LocalActionRef {
  kind: 'local';
  uses: string;
  path: string;
}

export type ActionRef = RemoteActionRef | { kind: 'docker'; uses: string; image: string } | LocalActionRef;

export interface ActionInputDef {
  description?: string;
  default?: string;
  required: boolean;
  deprecationMessage?: string;
}

export type ActionRuns =
  | { using: 'node'; version: string; main: string; pre?: string; preIf?: string; post?: string; postIf?: string }
  | { using: 'composite'; steps: CompositeStep[] }
  | { using: 'docker'; image: string; args: string[]; entrypoint?: string; preEntrypoint?: string; postEntrypoint?: string; env: Record<string, string> };

export interface CompositeStep {
  id?: string;
  name?: string;
  if?: string;
  run?: string;
  shell?: string;
  uses?: string;
  with: Record<string, unknown>;
  env: Record<string, unknown>;
  workingDirectory?: string;
  continueOnError: boolean | string;
}

/** A parsed `action.yml`. */
export interface ActionManifest {
  name: string;
  inputs: Record<string, ActionInputDef>;
  /** Output name → `value` expression (composite) or '' (JavaScript, Docker: set by the action). */
  outputs: Record<string, string>;
  runs: ActionRuns;
}

/** A `uses:` resolved at "Set up job": where its files are (inside the job directory) and what it runs. */
export interface PreparedAction {
  ref: RemoteActionRef | LocalActionRef;
  /** The pinned commit (a local action: the run's commit). */
  sha: string;
  /** The action's folder inside the job (GITHUB_ACTION_PATH). */
  dir: string;
  manifest: ActionManifest;
}

/** `github.action_repository` of an action: '' for a local one, as on GitHub. */
export const actionRepository = (action: PreparedAction): string => (action.ref.kind === 'local' ? '' : `${action.ref.owner}/${action.ref.repo}`);

/** `github.action_ref`: '' for a local action. */
export const actionRefName = (action: PreparedAction): string => (action.ref.kind === 'local' ? '' : action.ref.ref);

/** `github.action` of a step without an id: `__owner_repo`, `__self` for a local action. */
export const defaultActionId = (action: PreparedAction): string => (action.ref.kind === 'local' ? '__self' : `__${action.ref.owner}_${action.ref.repo}`);
