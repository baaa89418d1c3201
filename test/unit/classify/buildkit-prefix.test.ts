import { describe, expect, it } from 'vitest';
import { classifyJob, labelTypes } from '../../../src/classify/index.js';
import { normalizeLine } from '../../../src/classify/normalize-line.js';

const stamp = (i: number): string => `2026-03-30T09:15:${String(10 + (i % 50)).padStart(2, '0')}.8017117Z`;
const raw = (lines: string[]): string => lines.map((text, i) => `${stamp(i)} ${text}`).join('\n');

describe('BuildKit output inside a docker build step', () => {
  it('strips the `#13 6.867 ` progress prefix and the `6.867 ` prefix of the failure excerpt', () => {
    expect(normalizeLine('#13 6.867 src/a.tsx(5,10): error TS2305: x').text).toBe('src/a.tsx(5,10): error TS2305: x');
    expect(normalizeLine('6.867 src/a.tsx(5,10): error TS2305: x').text).toBe('src/a.tsx(5,10): error TS2305: x');
  });

  it('keeps lines that only look alike: BuildKit status lines, numbers followed by spaces', () => {
    expect(normalizeLine('#13 DONE 0.1s').text).toBe('#13 DONE 0.1s');
    expect(normalizeLine('#13 [builder 4/6] RUN npm run build').text).toBe('#13 [builder 4/6] RUN npm run build');
    expect(normalizeLine('1.250   seconds elapsed').text).toBe('1.250   seconds elapsed');
  });

  it('reads tsc errors a Dockerfile RUN printed through docker/build-push-action', async () => {
    const log = raw([
      '##[group]Run docker/build-push-action@v5',
      'with:',
      '  context: ./frontend',
      '##[endgroup]',
      '#13 [builder 4/6] RUN npm run build',
      '#13 6.867 src/pages/Halls.tsx(5,10): error TS2305: Module \'"../api/halls"\' has no exported member \'getHalls\'.',
      '#13 ERROR: process "/bin/sh -c npm run build" did not complete successfully: exit code: 2',
      '------',
      ' > [builder 4/6] RUN npm run build:',
      '6.867 src/pages/Halls.tsx(5,10): error TS2305: Module \'"../api/halls"\' has no exported member \'getHalls\'.',
      '------',
      '##[error]buildx failed with: ERROR: failed to build: failed to solve: process "/bin/sh -c npm run build" did not complete successfully: exit code: 2',
    ]);
    const result = await classifyJob({ log, jobConclusion: 'failure', learnedFallback: false });
    expect(labelTypes(result)).toEqual(['Type Checking']);
    const finding = result.labels[0]?.findings[0];
    expect(finding?.path).toBe('src/pages/Halls.tsx');
    expect(finding?.line).toBe(5);
  });
});
