import { describe, expect, it } from 'vitest';
import { renderSweCiRun, renderSweCiTrack, type SweCiRunTableInput, type SweCiTrackTableInput } from '../../../src/scoring/render/index.js';

const summary: SweCiRunTableInput = {
  runId: 'run-1',
  gamma: 1.2,
  trackIds: ['t1', 't2', 't3'],
  unscored: ['t4'],
  tasks: [
    { taskId: 'swe-ci-1', p0: 10, pStar: 20, rounds: 4, invalidRounds: 0, finalPassed: 20, finalChange: 1, evoScore: 0.88, solved: true, zeroRegression: false },
    { taskId: 'org/app, "b"', p0: 5, pStar: 18, rounds: 2, invalidRounds: 1, finalPassed: 0, finalChange: -1, evoScore: -1 / 3, solved: false, zeroRegression: false },
    { taskId: 'swe-ci-3', p0: 7, pStar: 9, rounds: 0, invalidRounds: 0, finalPassed: null, finalChange: null, evoScore: 0, solved: false, zeroRegression: true },
  ],
  meanEvoScore: (0.88 - 1 / 3) / 3,
  solvedRate: 1 / 3,
  zeroRegressionRate: 1 / 3,
};

const track: SweCiTrackTableInput = {
  id: 't1',
  instanceId: 'swe-ci-1',
  maxRounds: 20,
  p0: 10,
  pStar: 20,
  rounds: [
    { roundNumber: 1, submissionId: 's1', state: 'completed', status: 'valid', keptFromRound: null, passed: 12, normalizedChange: 0.2 },
    { roundNumber: 2, submissionId: 's2', state: 'patch_failed', status: 'invalid', keptFromRound: 1, passed: null, normalizedChange: -1 },
    { roundNumber: 3, submissionId: 's3', state: 'running', status: 'pending', keptFromRound: 1, passed: null, normalizedChange: null },
  ],
  score: { gamma: 1, evoScore: -0.86, solved: false, zeroRegression: false, rounds: 2, invalidRounds: 1 },
};

describe('renderSweCiRun', () => {
  it('renders one markdown row per task, then the means', () => {
    expect(renderSweCiRun(summary, 'markdown')).toBe(
      [
        '### SWE-CI run run-1: 3 tasks, EvoScore at γ = 1.2',
        '',
        '| Instance | Track | Rounds | Invalid | p0 | Final | p* | Change | EvoScore | Solved | Zero-regression |',
        '|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
        '| swe-ci-1 | t1 | 4 | 0 | 10 | 20 | 20 | 1.000 | 0.880 | yes | no |',
        '| org/app, "b" | t2 | 2 | 1 | 5 | 0 | 18 | -1.000 | -0.333 | no | no |',
        '| swe-ci-3 | t3 | 0 | 0 | 7 | – | 9 | – | 0.000 | no | yes |',
        '| Mean (3 tasks) |  |  |  |  |  |  |  | 0.182 | 33.3% | 33.3% |',
        '',
        '_Final: the count of the last finished round, clipped to [0, p*] (invalid rounds count 0); change: its normalized change._',
        '_Not scored, no base/oracle test sets yet (1): t4_',
        '',
      ].join('\n'),
    );
  });

  it('renders RFC 4180 CSV from the same model, quoting where needed', () => {
    expect(renderSweCiRun(summary, 'csv')).toBe(
      [
        'Instance,Track,Rounds,Invalid,p0,Final,p*,Change,EvoScore,Solved,Zero-regression',
        'swe-ci-1,t1,4,0,10,20,20,1.000,0.880,yes,no',
        '"org/app, ""b""",t2,2,1,5,0,18,-1.000,-0.333,no,no',
        'swe-ci-3,t3,0,0,7,–,9,–,0.000,no,yes',
        'Mean (3 tasks),,,,,,,,0.182,33.3%,33.3%',
        '',
      ].join('\r\n'),
    );
  });

  it('aligns the terminal table and passes the summary through as JSON', () => {
    const lines = renderSweCiRun(summary, 'table').split('\n');
    expect(lines[0]).toBe('SWE-CI run run-1: 3 tasks, EvoScore at γ = 1.2');
    const header = lines.find((line) => line.startsWith('Instance'));
    const mean = lines.find((line) => line.startsWith('Mean'));
    expect(mean).toMatch(/^Mean \(3 tasks\)\s+0\.182\s+33\.3%\s+33\.3%$/);
    expect(header!.length).toBe(mean!.length);
    expect(JSON.parse(renderSweCiRun(summary, 'json'))).toEqual(summary);
  });

  it('shows dashes for the means of a run without tasks', () => {
    const empty = renderSweCiRun({ ...summary, tasks: [], trackIds: [], unscored: [], meanEvoScore: null, solvedRate: null, zeroRegressionRate: null }, 'csv');
    expect(empty.split('\r\n')[1]).toBe('Mean (0 tasks),,,,,,,,–,–,–');
  });
});

describe('renderSweCiTrack', () => {
  it('renders one row per round with the scores as a note', () => {
    expect(renderSweCiTrack(track, 'markdown')).toBe(
      [
        '### SWE-CI track t1 (swe-ci-1): p0 10, p* 20',
        '',
        '| Round | Submission | State | Status | Kept from | Passed | Change |',
        '|---:|:---|:---|:---|---:|---:|---:|',
        '| 1 | s1 | completed | valid | base | 12 | 0.200 |',
        '| 2 | s2 | patch_failed | invalid | 1 | – | -1.000 |',
        '| 3 | s3 | running | pending | 1 | – | – |',
        '',
        '_EvoScore at γ = 1: -0.860 over 2 of 20 rounds (1 invalid); solved: no; zero-regression: no_',
        '',
      ].join('\n'),
    );
    expect(renderSweCiTrack(track, 'csv')).toBe(
      [
        'Round,Submission,State,Status,Kept from,Passed,Change',
        '1,s1,completed,valid,base,12,0.200',
        '2,s2,patch_failed,invalid,1,–,-1.000',
        '3,s3,running,pending,1,–,–',
        '',
      ].join('\r\n'),
    );
  });

  it('says when a track is not scored', () => {
    const text = renderSweCiTrack({ ...track, p0: null, pStar: null, rounds: [], score: null }, 'table');
    expect(text.split('\n')[0]).toBe('SWE-CI track t1 (swe-ci-1): p0 –, p* –');
    expect(text).toContain('Not scored: the instance has no base/oracle test sets yet.');
  });
});
