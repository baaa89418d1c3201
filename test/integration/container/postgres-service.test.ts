import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainerRuntime, ContainerSettings } from '../../../src/executor/container/index.js';
import { createFixtureRepo, runFixtureWorkflow, type FixtureRepo } from '../../support/executor-fixtures.js';
import { requireContainerRuntime } from '../../support/container-runtime.js';

// A `postgres:` service (the image built from Debian's PostgreSQL 15 by `ci-replay images build`, standing in for
// the registry's `postgres:16` no registry serves here) configured by POSTGRES_* and reached on localhost:5432.
let repo: FixtureRepo;
let runtime: ContainerRuntime;
let settings: ContainerSettings;
let postgresImage: string;

beforeAll(async () => {
  ({ runtime, settings, postgresImage } = await requireContainerRuntime());
  repo = createFixtureRepo({ 'README.md': 'fixture\n' });
});

afterAll(() => repo?.cleanup());

/** The containers of a job (its job container and services, by the name its log gives) the runtime still has. */
const leftOf = (log: string): string => {
  const name = /Job container: (\S+) from/.exec(log)?.[1];
  if (name === undefined) throw new Error('the log names no job container');
  return execFileSync(runtime.bin, ['ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}'], { encoding: 'utf8' }).trim();
};

describe('a Postgres service', () => {
  it('starts with POSTGRES_PASSWORD/USER/DB, passes pg_isready, and is reached on localhost:5432 with that password only', async () => {
    // the job runs in the Postgres image itself for its psql (the runner image has no Postgres client)
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  db:
    runs-on: ubuntu-latest
    container:
      image: ${postgresImage}
    services:
      postgres:
        image: postgres:16
        env:
          POSTGRES_PASSWORD: s3cret-pw
          POSTGRES_USER: app
          POSTGRES_DB: appdb
        ports: ['5432:5432']
        options: >-
          --health-cmd pg_isready
          --health-interval 500ms
          --health-timeout 5s
          --health-retries 40
    steps:
      - run: |
          echo "port=\${{ job.services.postgres.ports['5432'] }}"
          PGPASSWORD=s3cret-pw psql -h localhost -p 5432 -U app -d appdb -tAc "create table t(x int); insert into t values (41), (1); select 'sum=' || sum(x) || ' user=' || current_user || ' db=' || current_database() from t"
          PGPASSWORD=s3cret-pw psql -h postgres -U app -d appdb -tAc "select 'by-name=' || count(*) from t"
          if PGPASSWORD=wrong psql -h localhost -U app -d appdb -tAc 'select 1' 2>&1; then echo wrong-password-accepted; else echo wrong-password-refused; fi
`, { container: settings });
    const log = run.log('db');
    expect(run.result.conclusion, log).toBe('success');
    expect(log).toMatch(/Service postgres: ci-replay\/postgres:\w+ is healthy/);
    expect(log).toContain('Image postgres:16 is not available locally; using ci-replay/postgres');
    expect(log).toContain('port=5432');
    expect(log).toContain('sum=42 user=app db=appdb');
    expect(log).toContain('by-name=2');
    expect(log).toContain('password authentication failed for user "app"');
    expect(log).toContain('wrong-password-refused');
    expect(leftOf(log)).toBe('');
  });

  it('fails the job at Set up job, with the image\'s message, when POSTGRES_PASSWORD is missing', async () => {
    const run = await runFixtureWorkflow(repo, `
on: push
jobs:
  nopw:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
        options: --health-cmd pg_isready --health-interval 500ms
    steps:
      - run: echo never
`, { container: settings });
    const log = run.log('nopw');
    expect(run.result.conclusion).toBe('failure');
    expect(log).toContain('superuser password is not specified');
    expect(log).not.toMatch(/Z never$/m);
  });
});
