import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';

describe('logger', () => {
  it('redacts tokens, passwords and authorization headers, also nested and inside errors', () => {
    const lines: string[] = [];
    const destination = new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
    const logger = createLogger({ level: 'info', destination });
    logger.info({ token: 'ghs_secret1', auth: { token: 'ghs_secret2', nested: { password: 'pw-secret3' } }, req: { headers: { authorization: 'Bearer cirp_secret4' } } }, 'fixed message');
    logger.error({ err: { message: 'boom', request: { headers: { authorization: 'token ghs_secret5' } } } }, 'request failed');
    const output = lines.join('');
    for (const secret of ['ghs_secret1', 'ghs_secret2', 'pw-secret3', 'cirp_secret4', 'ghs_secret5']) expect(output).not.toContain(secret);
    expect(output).toContain('[redacted]');
    expect(output).toContain('fixed message');
  });
});
