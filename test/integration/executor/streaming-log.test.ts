import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, runFixtureWorkflow } from '../../support/executor-fixtures.js';

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({});
});
afterAll(() => repo.cleanup());

describe('runWorkflow: logs are streamed', () => {
  it('writes a step\'s output to the job log while the step is still running', async () => {
    const logsDir = join(repo.root, `logs-stream-${Date.now()}`);
    let seenWhileRunning = '';
    const workflow = `
on: push
jobs:
  slow:
    runs-on: ubuntu-latest
    steps:
      - name: Talk then wait
        run: |
          echo "first line, before the wait"
          sleep 3
          echo "after the wait"
`;
    const poll = (async () => {
      for (let i = 0; i < 100; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (!existsSync(logsDir)) continue;
        for (const file of readdirSync(logsDir)) {
          const text = readFileSync(join(logsDir, file), 'utf8');
          // The script itself is echoed in the step's group; the output lines are the ones right after a timestamp.
          if (/Z first line, before the wait$/m.test(text) && !/Z after the wait$/m.test(text)) {
            seenWhileRunning = text;
            return;
          }
        }
      }
    })();
    const run = await runFixtureWorkflow(repo, workflow, { logsDir });
    await poll;
    expect(run.result.conclusion).toBe('success');
    expect(seenWhileRunning).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z first line, before the wait$/m);
    expect(run.log('slow')).toContain('after the wait');
  });
});
