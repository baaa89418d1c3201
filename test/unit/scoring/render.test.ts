import { describe, it, expect } from 'vitest';
import { buildCiRepairReport, type CiInstance, type CiRunInput } from '../../../src/scoring/ci-repair/index.js';
import { csvField, renderReport } from '../../../src/scoring/render/index.js';

const instances: CiInstance[] = [
  { id: 'i1', repo: 'a/x', labels: ['Code Linting'], health: 'healthy' },
  { id: 'i2', repo: 'a/x', labels: ['Test Failure', 'Code Linting'], health: 'healthy' },
  { id: 'i3', repo: 'b/y', labels: ['Syntax Error'], health: 'drifted' },
];
const run = (id: string, passed: string[]): CiRunInput => ({
  id,
  label: id,
  submissions: ['i1', 'i2'].map((instanceId) => ({
    instanceId,
    createdAt: 1,
    state: 'completed' as const,
    verdict: passed.includes(instanceId) ? ('passed' as const) : ('invalid' as const),
    reason: 'log "truncated", retry',
    observedLabels: [],
  })),
});
const report = buildCiRepairReport(instances, [run('gpt', ['i1']), run('claude', ['i1', 'i2'])]);

describe('renderReport', () => {
  it('aligns terminal tables', () => {
    const text = renderReport(report, 'table', { by: 'type' });
    const lines = text.split('\n');
    const header = lines.find((line) => line.startsWith('Error type'));
    const linting = lines.find((line) => line.startsWith('Code Linting'));
    expect(header).toBeDefined();
    expect(linting).toMatch(/^Code Linting\s+2\s+1\s+50\.0\s+2\s+100\.0$/);
    // right-aligned numbers end under the end of their header
    expect(header!.indexOf('Occurrences') + 'Occurrences'.length).toBe(linting!.indexOf(' 2 ') + 2);
    expect(text).toContain('Total (labels)');
  });

  it('renders markdown tables with right-aligned numeric columns', () => {
    const markdown = renderReport(report, 'markdown', { by: 'repo' });
    expect(markdown).toContain('| Repository | Instances | gpt repaired | gpt % | claude repaired | claude % |');
    expect(markdown).toContain('|:---|---:|---:|---:|---:|---:|');
    expect(markdown).toContain('| a/x | 2 | 1 | 50.0 | 2 | 100.0 |');
  });

  it('writes RFC 4180 CSV', () => {
    const csv = renderReport(report, 'csv', { by: 'instance' });
    const records = csv.split('\r\n');
    expect(records[0]).toBe('Instance,Repository,Labels,gpt outcome,gpt observed,claude outcome,claude observed');
    expect(records[2]).toBe('i2,a/x,Test Failure; Code Linting,"invalid (log ""truncated"", retry)",,passed,');
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField('plain')).toBe('plain');
  });

  it('summarizes runs with exclusions, invalid reasons and the paired test', () => {
    const text = renderReport(report, 'table');
    expect(text).toContain('CI-Repair-Bench: 2 instances in scope');
    expect(text).toContain('Excluded as unhealthy (1): i3 (drifted)');
    expect(text).toContain('gpt: not evaluated — invalid: log "truncated", retry (1)');
    expect(text).toMatch(/gpt\s+claude\s+1\s+0\s+1\s+0\s+exact_binomial\s+1\.000/);
    const csv = renderReport(report, 'csv');
    expect(csv.split('\r\n')[1]).toMatch(/^gpt,2,1,50\.0,/);
  });

  it('names both success rates and shows every not-evaluated outcome as its own column in every format', () => {
    const outcomes: CiRunInput = {
      id: 'm',
      label: 'm',
      submissions: [
        { instanceId: 'i1', createdAt: 1, state: 'completed', verdict: 'passed', outcome: 'passed', observedLabels: [] },
        { instanceId: 'i2', createdAt: 1, state: 'infra_error', verdict: 'invalid', outcome: 'infra_error', reason: 'network_unreachable', observedLabels: [] },
      ],
    };
    const infra = buildCiRepairReport(instances, [outcomes]);
    const csv = renderReport(infra, 'csv').split('\r\n');
    const header = csv[0]?.split(',') ?? [];
    const row = csv[1]?.split(',') ?? [];
    const cell = (name: string): string | undefined => row[header.indexOf(name)];
    expect(cell('Success % strict (passed / all in scope)')).toBe('50.0');
    expect(cell('Success % evaluated (passed / evaluated)')).toBe('100.0');
    expect(cell('Evaluated')).toBe('1');
    expect(cell('Not evaluated')).toBe('1');
    expect(cell('Not evaluated: infra_error')).toBe('1');
    expect(cell('Repair failed: failed')).toBe('0');
    for (const name of ['Not evaluated: no_run', 'Not evaluated: timed_out', 'Repair failed: patch_failed']) expect(header, name).toContain(name);
    const markdown = renderReport(infra, 'markdown');
    expect(markdown).toContain('Success % strict (passed / all in scope)');
    expect(markdown).toContain('Success % evaluated (passed / evaluated)');
    expect(markdown).toContain("Success % strict = passed / all instances in scope × 100 (the paper's Pass@1");
    expect(markdown).toContain('m: not evaluated — infra_error: network_unreachable (1)');
    const table = renderReport(infra, 'table');
    expect(table).toMatch(/^m\s+2\s+1\s+50\.0\s+\S+\s+1\s+100\.0\s+\S+\s+1\s+0\s+0\s+1\s/m);
    const json = JSON.parse(renderReport(infra, 'json')) as { definitions: Record<string, unknown>; runs: Record<string, unknown>[] };
    expect(json.definitions).toMatchObject({ successRateStrict: expect.stringContaining('all instances in scope'), successRateEvaluated: expect.stringContaining('passed + failed + patch_failed') });
    expect(json.runs[0]).toMatchObject({ successRateStrict: { percent: 50 }, successRateEvaluated: { percent: 100 }, evaluated: 1, notEvaluated: 1, notRepaired: { infra_error: 1, failed: 0 } });
  });

  it('emits JSON views', () => {
    const parsed: unknown = JSON.parse(renderReport(report, 'json', { by: 'type' }));
    expect(parsed).toMatchObject({ labels: 3, runs: [{ runId: 'gpt' }, { runId: 'claude' }] });
    const full: unknown = JSON.parse(renderReport(report, 'json'));
    expect(full).toMatchObject({ benchmark: 'ci-repair-bench', scope: { instances: 2 } });
  });

  it('renders observed types per run', () => {
    const text = renderReport(report, 'markdown', { by: 'observed' });
    expect(text).toContain('### gpt: observed failure types (0 failed, 0 without a type)');
  });
});
