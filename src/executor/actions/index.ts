export type { ActionManifest, ActionRef, ActionSettings, PreparedAction, RemoteActionRef } from './types.js';
export { parseActionRef } from './action-ref.js';
export { actionUnavailable, getAction, pinnedSha, type CachedAction } from './action-cache.js';
export { parseManifest, readManifest } from './manifest.js';
export { HOST_ACTION_RUNTIME, isBuiltinAction, prepareJobActions, type ActionRuntime } from './prepare.js';
export { hasPreStage, runPreStage, runUses, type UsesContext } from './run-action.js';
export { runJobProcess, type JobProcess } from './job-process.js';
