import { mkdtemp } from 'node:fs/promises';
import { createSyntheticRunner } from './test/support/github-sim/runs/synthetic-runner.js';
const r = createSyntheticRunner({ durations: { kind: 'fixed', ms: 50 }, timeScale: 1 });
const dir = await mkdtemp('/tmp/x');
let n = 0;
const out = await r.run({ workflow: { text: `name: CI\non:\n  workflow_dispatch:\njobs:\n  test:\n    strategy:\n      matrix:\n        leg: [1, 2]\n    steps:\n      - run: echo\n`, path: 'x', name: 'x' }, repo: { gitDir: '', fullName: 'a/b', cloneUrl: '' }, sha: 'x', ref: 'refs/heads/main', event: 'push', runId: '1', runAttempt: 1, workRoot: dir, logsDir: dir, artifactsDir: dir, nextJobId: () => String(++n), onEvent: (e) => console.log(e.kind, (e as any).status), signal: new AbortController().signal });
console.log(out);
