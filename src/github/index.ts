/** GitHub App access: the only part of the service that imports @octokit/* or probot. */
export { createGithubApp, type GithubApp, type GithubAppOptions, type GithubClient, type GithubHeaders, type GithubResponse, type InstallationClient } from './app-client.js';
export { mapGithubError, rateLimitWait } from './map-error.js';
export { createMemoryRateBudget, createRedisRateBudget, GITHUB_WINDOWS, type BudgetLimits, type BudgetWindows, type RateBudget, type RateBudgetOptions, type RedisLike } from './rate-budget.js';
export { verifyWebhookSignature } from './verify-signature.js';
export { signWebhookPayload } from './sign-webhook.js';
