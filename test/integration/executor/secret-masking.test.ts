import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

const KEY_LINES = ['MIIEpAIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun', 'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK'];
const PRIVATE_KEY = ['-----BEGIN RSA PRIVATE KEY-----', ...KEY_LINES, '-----END RSA PRIVATE KEY-----'].join('\n');
const SECRETS = { db: 'Pg-Pass-4417', redis: 'redis-pass-5678', webhook: 'whsec-abcdef123' };
const NAMES = ['DATABASE_URL', 'REDIS_URL', 'PRIVATE_KEY', 'WEBHOOK_SECRET'] as const;

let repo: FixtureRepo;
const saved = new Map<string, string | undefined>();
const env: Record<(typeof NAMES)[number], string> = {
  DATABASE_URL: `postgresql://ci:${SECRETS.db}@127.0.0.1:5432/ci_replay`,
  REDIS_URL: `redis://:${SECRETS.redis}@127.0.0.1:6379`,
  PRIVATE_KEY: PRIVATE_KEY.replace(/\n/g, '\\n'),
  WEBHOOK_SECRET: SECRETS.webhook,
};

beforeAll(() => {
  repo = createFixtureRepo({});
  // the worker's own environment holds the secrets: the steps' environment must not inherit them
  for (const name of NAMES) {
    saved.set(name, process.env[name]);
    process.env[name] = env[name];
  }
});
afterAll(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  repo.cleanup();
});

describe("the service's secrets in job logs", () => {
  it('masks the configured secrets a step prints (log, annotations, summary); the steps never get them in their environment', async () => {
    const config = loadConfig({ ...env, NODE_ENV: 'test' });
    expect(config.executor.secretValues).toEqual(expect.arrayContaining([SECRETS.db, SECRETS.redis, SECRETS.webhook, PRIVATE_KEY, ...KEY_LINES]));
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  leak:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "inherited=$(env | grep -c -E '^(DATABASE_URL|REDIS_URL|PRIVATE_KEY|WEBHOOK_SECRET)=' || true)"
          echo "db password: ${SECRETS.db}; redis: ${SECRETS.redis}"
          echo "webhook=${SECRETS.webhook}"
          cat <<'EOF'
${PRIVATE_KEY.split('\n').map((l) => `          ${l}`).join('\n')}
          EOF
          echo "::error title=leak ${SECRETS.db}::annotated ${SECRETS.webhook}"
          echo "summary ${SECRETS.redis}" >> "$GITHUB_STEP_SUMMARY"
`,
      { secretValues: config.executor.secretValues },
    );
    expect(result.conclusion).toBe('success');
    const text = log('leak');
    for (const secret of [...Object.values(SECRETS), ...KEY_LINES]) expect(text).not.toContain(secret);
    const lines = logLines(text);
    expect(lines).toEqual(expect.arrayContaining(['inherited=0', 'db password: ***; redis: ***', 'webhook=***', '***', '##[error]annotated ***']));
    expect(lines.filter((l) => l === '***')).toHaveLength(KEY_LINES.length + 2);
    const job = result.jobs[0];
    expect(job?.annotations).toContainEqual({ level: 'error', message: 'annotated ***', title: 'leak ***', stepNumber: 2 });
    expect(job?.summary).toBe('summary ***\n');
  });

  it('masks ::add-mask:: values, line by line for a multi-line value', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  mask:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "::add-mask::first-line-value%0Asecond-line-value"
          echo "then first-line-value and second-line-value"
`,
    );
    expect(result.conclusion).toBe('success');
    expect(logLines(log('mask'))).toContain('then *** and ***');
  });
});
