import { describe, expect, it } from 'vitest';
import { ERROR_TYPES, normalizeErrorType } from '../../../src/domain/error-types.js';
import { canTransition, SUBMISSION_STATES, TERMINAL_STATES } from '../../../src/domain/states.js';
import { isRetryable, invalidInput, permanent, rateLimited, transient } from '../../../src/errors.js';
import { jobId } from '../../../src/queue/payloads.js';
import { retryDelay } from '../../../src/queue/workers.js';

describe('error types', () => {
  it('maps every released spelling onto the 12 types', () => {
    const aliases: Record<string, string> = {
      Linting: 'Code Linting', 'Code Quality': 'Code Linting', 'Type Checking Error': 'Type Checking', 'Import Error': 'Dependency Issues',
      'Package Install Error': 'Package Installation Error', 'Pkg. Install Error': 'Package Installation Error', 'Build Failure': 'Configuration Error',
      'Infrastructure Error': 'Environment Error', Documentation: 'Doc/Docstring', ' code   formatting ': 'Code Formatting',
    };
    for (const [alias, type] of Object.entries(aliases)) expect(normalizeErrorType(alias), alias).toBe(type);
    for (const type of ERROR_TYPES) expect(normalizeErrorType(type.toUpperCase())).toBe(type);
    expect(normalizeErrorType('Flaky')).toBeUndefined();
  });
});

describe('submission states', () => {
  it('only move forward and never leave a terminal state', () => {
    expect(canTransition('queued', 'preparing')).toBe(true);
    expect(canTransition('running', 'completed')).toBe(true);
    expect(canTransition('published', 'queued')).toBe(false);
    expect(canTransition('running', 'published')).toBe(false);
    for (const terminal of TERMINAL_STATES) for (const next of SUBMISSION_STATES) expect(canTransition(terminal, next)).toBe(false);
  });
});

describe('retries are decided by error type', () => {
  it('retries transient and rate-limited errors only, waiting as told when rate limited', () => {
    expect(isRetryable(transient('x', 'network'))).toBe(true);
    expect(isRetryable(rateLimited('slow down', 30_000))).toBe(true);
    expect(isRetryable(permanent('x', 'no'))).toBe(false);
    expect(isRetryable(invalidInput('x', 'bad'))).toBe(false);
    expect(isRetryable(new Error('ECONNRESET transient'))).toBe(false);
    expect(retryDelay(1, rateLimited('slow down', 30_000))).toBe(30_000);
    expect(retryDelay(1, transient('x', 'y'))).toBe(1000);
    expect(retryDelay(4, transient('x', 'y'))).toBe(8000);
    expect(retryDelay(40, transient('x', 'y'))).toBe(300_000);
  });

  it('derives queue job ids without colons', () => {
    expect(jobId('delivery', 'a:b')).toBe('delivery-a_b');
    expect(jobId('finalize', 'id', '123', 2)).toBe('finalize-id-123-2');
  });
});
