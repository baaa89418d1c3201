import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { segmentLogs } from '../../../src/classify/index.js';

const dir = join(import.meta.dirname, '../../fixtures/logs');
const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
const stamp = '2025-04-07T12:57:33.2943173Z';

/** A failing pip step buried in download progress, after a set-up that must not show. */
function noisyPipLog(): string {
  const lines = ['Current runner version: \'2.323.0\'', '##[group]Run actions/checkout@v4', 'Syncing repository: org/repo', '##[endgroup]'];
  lines.push('##[group]Run pip install -r requirements.txt', 'pip install -r requirements.txt', '##[endgroup]');
  for (let i = 0; i < 50; i++) {
    lines.push(`Collecting pkg-${i}==1.0 (from -r requirements.txt (line ${i}))`);
    lines.push(`  Downloading pkg_${i}-1.0-py3-none-any.whl (120 kB)`);
    lines.push('     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 120.0/120.0 kB 9.1 MB/s eta 0:00:00');
  }
  lines.push('ERROR: Cannot install alpha==1.0 and beta==2.0 because these package versions have conflicting dependencies.');
  lines.push('ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts');
  lines.push('##[error]Process completed with exit code 1.', 'Post job cleanup.', 'Cleaning up orphan processes');
  return lines.map((t) => `${stamp} ${t}`).join('\n');
}

describe('segmentLogs', () => {
  it('keeps the failing step around the evidence, without set-up or download noise, with o200k token counts', async () => {
    const result = await segmentLogs({ logs: [{ jobName: 'install', text: noisyPipLog() }], budgetTokens: 2000 });
    expect(result.truncated).toBe(false);
    expect(result.segments.length).toBeGreaterThan(0);
    const all = result.segments.map((s) => s.text).join('\n');
    expect(all).toContain('ResolutionImpossible');
    expect(all).toContain('##[error]Process completed with exit code 1.');
    expect(all).not.toMatch(/Collecting|Downloading|━|Syncing repository|Current runner/);
    for (const s of result.segments) {
      expect(s.jobName).toBe('install');
      expect(s.stepName).toBe('Run pip install -r requirements.txt');
      expect(s.tokens).toBe(countTokens(s.text));
      expect(s.startLine).toBeLessThanOrEqual(s.endLine);
    }
    expect(result.totalTokens).toBe(result.segments.reduce((n, s) => n + s.tokens, 0));
  });

  it('puts the most recent failures first and streams input', async () => {
    const result = await segmentLogs({
      logs: [
        { jobName: 'lint', text: read('code-linting/flake8-unused-import.log') },
        { jobName: 'test', stream: Readable.from([Buffer.from(read('assertion-error/pytest-assert-equal.log'))]) },
      ],
      budgetTokens: 5000,
    });
    expect(result.segments[0]?.jobName).toBe('test');
    expect(result.segments[result.segments.length - 1]?.jobName).toBe('lint');
    expect(result.segments.find((s) => s.jobName === 'test')?.text).toContain('assert 5 == 4');
    expect(result.segments.find((s) => s.jobName === 'lint')?.text).toContain("F401 'os' imported but unused");
  });

  it('cuts to the budget, keeping the end of the window, and says so', async () => {
    const result = await segmentLogs({ logs: [{ jobName: 'test', text: read('assertion-error/pytest-verbose-color.log') }], budgetTokens: 60 });
    expect(result.truncated).toBe(true);
    expect(result.totalTokens).toBeLessThanOrEqual(60);
    expect(result.segments.length).toBeGreaterThan(0);
    expect(result.segments.map((s) => s.text).join('\n')).toContain('Process completed with exit code 1.');
    expect(result.segments.every((s) => !s.text.includes('\x1b['))).toBe(true);
  });

  it('uses the evidence lines of a classification given by the caller', async () => {
    const log = noisyPipLog();
    const line = log.split('\n').findIndex((l) => l.includes('ERROR: Cannot install')) + 1;
    const result = await segmentLogs({
      logs: [{ jobName: 'install', text: log, classification: { labels: [{ type: 'Dependency Issues', evidence: [{ startLine: line, endLine: line, text: '', tool: 'pip', rule: 'x' }], findings: [] }] } }],
      budgetTokens: 2000,
      contextLines: 0,
      stepTailLines: 1,
    });
    expect(result.segments.map((s) => s.text)).toEqual([
      'ERROR: Cannot install alpha==1.0 and beta==2.0 because these package versions have conflicting dependencies.',
      '##[error]Process completed with exit code 1.',
    ]);
    expect(result.segments[0]).toMatchObject({ startLine: line, endLine: line });
    await expect(segmentLogs({ logs: [{ jobName: 'x' }], budgetTokens: 10 })).rejects.toMatchObject({ kind: 'invalid_input' });
  });
});
