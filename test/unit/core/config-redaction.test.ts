import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('configuration errors never print a credential', () => {
  it('a malformed DATABASE_URL is named and shown without its password', () => {
    const message = configError({ DATABASE_URL: 'postgresql://u:hunter2@h:notaport/db' });
    expect(message).toContain('DATABASE_URL: must be a valid URL');
    expect(message).toContain('postgresql://u:***@h:notaport/db');
    expect(message).not.toContain('hunter2');
  });

  it('masks passwords, token-only userinfo and credential parameters in any *_URL, parsed or not', () => {
    const message = configError({
      REDIS_URL: 'redis://:s3cr3t-pass@cache:port/0',
      DATABASE_URL: 'postgres://app:p%40ssw0rd@db:xx/ci?sslpassword=k3y-pass&application_name=ci',
      GITHUB_API_URL: 'not a url ghp_tokenvalue123@',
      PUBLIC_URL: 'https://ghp_abcdef123456@:bad',
    });
    for (const secret of ['s3cr3t-pass', 'p%40ssw0rd', 'p@ssw0rd', 'k3y-pass', 'ghp_abcdef123456']) expect(message, secret).not.toContain(secret);
    expect(message).toContain('REDIS_URL');
    expect(message).toContain('redis://:***@cache:port/0');
    expect(message).toContain('sslpassword=***');
  });

  it('never shows a secret-valued variable, and masks its value wherever a message would carry it', () => {
    const message = configError({
      CI_BACKEND: 'github',
      APP_ID: 'not-a-number',
      WEBHOOK_SECRET: 'whsec-very-secret',
      PRIVATE_KEY: '-----BEGIN KEY-----\\nMIIEsecretline\\n-----END KEY-----',
      // A secret that also lands in a non-secret variable is masked there too.
      GITHUB_API_URL: 'whsec-very-secret',
      SOME_API_TOKEN: 'tok-123456',
      PORT: 'tok-123456',
    });
    expect(message).toContain('APP_ID: the numeric GitHub App id');
    expect(message).toContain('GITHUB_API_URL: Invalid URL (got "***")');
    expect(message).toContain('PORT');
    for (const secret of ['whsec-very-secret', 'MIIEsecretline', 'tok-123456']) expect(message, secret).not.toContain(secret);
  });

  it('accepts valid URLs with credentials unchanged', () => {
    const config = loadConfig({ DATABASE_URL: 'postgresql://u:hunter2@db.internal:5432/ci', REDIS_URL: 'redis://:pw@cache:6379/2' });
    expect(config.databaseUrl).toBe('postgresql://u:hunter2@db.internal:5432/ci');
    expect(config.redisUrl).toBe('redis://:pw@cache:6379/2');
  });
});
