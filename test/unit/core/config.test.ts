import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

describe('loadConfig', () => {
  it('has working defaults: the local backend, local services', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ ciBackend: 'local', port: 3000, databaseUrl: 'postgresql://postgres@127.0.0.1:5432/ci_replay', redisUrl: 'redis://127.0.0.1:6379', github: undefined });
    expect(config.limits.patchMaxBytes).toBe(5 * 1024 * 1024);
  });

  it('names each bad variable and never echoes a secret', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', CI_BACKEND: 'github', WEBHOOK_SECRET: 'x', PRIVATE_KEY: 'super-secret-key', APP_ID: 'abc' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT');
    expect(message).toContain('APP_ID: the numeric GitHub App id');
    expect(message).not.toContain('super-secret-key');
    expect(message).toContain('.env.example');
  });

  it('requires the GitHub App settings with CI_BACKEND=github', () => {
    expect(() => loadConfig({ CI_BACKEND: 'github', WEBHOOK_SECRET: 'x' })).toThrow(/APP_ID: is required when CI_BACKEND=github[\s\S]*BENCH_OWNER: is required[\s\S]*PRIVATE_KEY: or PRIVATE_KEY_PATH is required/);
  });

  it('builds the GitHub App settings, with \\n escapes in an inline key, and treats empty values as unset', () => {
    const config = loadConfig({ CI_BACKEND: 'github', APP_ID: '42', PRIVATE_KEY: '-----BEGIN-----\\nabc\\n-----END-----', WEBHOOK_SECRET: 's', BENCH_OWNER: 'bench-org', GITHUB_API_URL: 'http://127.0.0.1:9999/', PORT: '' });
    expect(config.github).toMatchObject({ appId: '42', privateKey: '-----BEGIN-----\nabc\n-----END-----', benchOwner: 'bench-org', apiUrl: 'http://127.0.0.1:9999', repoMode: 'fork' });
    expect(config.port).toBe(3000);
  });

  it('builds the step sandbox settings: service ports and remote endpoints blocked, service paths hidden, secrets to mask', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://ci:p%40ss-word@db.example.com:6543/x', REDIS_URL: 'redis://:redis-pw@127.0.0.1', PORT: '8080',
      EXECUTOR_BLOCKED_PORTS: '9000, 9001', EXECUTOR_RUN_AS_UID: '70000-70009', EXECUTOR_HIDDEN_PATHS: '/etc/ci-replay', DATA_DIR: '/var/lib/ci-replay',
      WEBHOOK_SECRET: 'whsec-1234', EXECUTOR_STEP_MEMORY_MB: '2048',
    });
    expect(config.executor.sandbox).toMatchObject({
      mode: 'auto', network: 'egress', runAsUid: { first: 70000, last: 70009 }, runAsGid: null,
      blockedPorts: [6543, 6379, 8080, 9000, 9001], blockedEndpoints: [{ host: 'db.example.com', port: 6543 }],
      hiddenPaths: expect.arrayContaining(['/var/lib/ci-replay', '/etc/ci-replay']), limits: expect.objectContaining({ memoryMb: 2048, maxProcesses: 1024 }),
    });
    expect(config.executor.secretValues).toEqual(['p%40ss-word', 'p@ss-word', 'redis-pw', 'whsec-1234']);
    expect(() => loadConfig({ EXECUTOR_BLOCKED_PORTS: '5432,http' })).toThrow(/EXECUTOR_BLOCKED_PORTS/);
    expect(() => loadConfig({ EXECUTOR_RUN_AS_UID: '70009-70000' })).toThrow(/EXECUTOR_RUN_AS_UID: uids from 1, first <= last/);
    expect(() => loadConfig({ EXECUTOR_SANDBOX: 'docker' })).toThrow(/EXECUTOR_SANDBOX/);
  });

  it('explains an unreadable PRIVATE_KEY_PATH', () => {
    expect(() => loadConfig({ PRIVATE_KEY_PATH: '/nonexistent/key.pem' })).toThrow(/PRIVATE_KEY_PATH: cannot read \/nonexistent\/key.pem/);
  });
});
