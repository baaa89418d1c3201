/** Git layer: mirror cache, patch application without a working tree, commit, push, tree reads. */
export { applyPatch, type ApplyPatchOptions, type ApplyResult, type CommitIdentity, type FileOverride, type TreeChange } from './apply-patch/index.js';
export { COMMIT_SOURCES, createMirrorCache, forkUrlOf, upstreamUrl, type CommitLocation, type CommitSource, type LocatedCommits, type MirrorCache, type MirrorCacheOptions, type MissingCommit, type UpstreamRepo } from './mirror-cache.js';
export { remoteGitError, stripCredentials } from './git-error.js';
export { pushCommit, type GitCredentials, type PushCommitOptions } from './push-commit.js';
export { listFilesAt, readFileAt, readFilesAt, type TreeFile, type TreeFileContent } from './read-files.js';
export { runGit, type GitResult, type RunGitOptions } from './run-git.js';
