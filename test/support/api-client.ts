import type { FastifyInstance } from 'fastify';
import { mintToken } from '../../src/auth/tokens.js';
import { buildApp } from '../../src/http/app.js';
import type { TestEnv } from './test-env.js';

export interface ApiHarness {
  app: FastifyInstance;
  operator: string;
  submitter: string;
  auth(token: string): { authorization: string };
}

/** Builds the real app on a test environment, with one operator and one submitter token. */
export async function createApiHarness(env: TestEnv): Promise<ApiHarness> {
  const { deps } = env;
  const app = await buildApp({ config: deps.config, logger: deps.logger, repos: deps.repos, submissions: deps.submissions, readiness: deps.readiness, extraRoutes: deps.routes });
  const operator = (await mintToken(deps.repos.tokens, { name: 'test-operator', role: 'operator' })).token;
  const submitter = (await mintToken(deps.repos.tokens, { name: 'test-submitter', role: 'submitter' })).token;
  return { app, operator, submitter, auth: (token) => ({ authorization: `Bearer ${token}` }) };
}

export const simplePatch = (path = 'src/pkg/core.py', line = 'print("hello")'): string =>
  [`diff --git a/${path} b/${path}`, 'index 3b18e51..a9c1f2d 100644', `--- a/${path}`, `+++ b/${path}`, '@@ -1,1 +1,1 @@', '-print("hi")', `+${line}`, ''].join('\n');
