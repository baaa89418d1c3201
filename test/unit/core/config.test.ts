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

  it('explains an unreadable PRIVATE_KEY_PATH', () => {
    expect(() => loadConfig({ PRIVATE_KEY_PATH: '/nonexistent/key.pem' })).toThrow(/PRIVATE_KEY_PATH: cannot read \/nonexistent\/key.pem/);
  });
});
