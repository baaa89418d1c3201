// `npm test`: the whole suite as three `vitest run`s, in two phases.
// 1. Side by side:
//    - `faults` (test/faults/): campaigns that mostly wait (leases running out, Postgres and Redis outages), about one
//      core's worth of CPU, at normal priority so their 3-second leases are never starved;
//    - `suite` (test/unit/, test/integration/): CPU-bound, under `nice -n 10`, so it takes every cycle the campaigns
//      leave and none they need.
// 2. Then `e2e` (test/e2e/) alone with the whole machine: its files start servers, workers and whole campaigns, and
//    wait for them within bounds sized for an unshared machine.
// Run one after the other, the campaigns' waiting left a core idle; side by side the run is that much shorter.
// With arguments (`npm test -- <files or vitest options>`) it is a plain `vitest run <arguments>`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { failureRecap } from './failure-recap.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = `${root}/node_modules/.bin/vitest`;
const args = process.argv.slice(2);
const children = new Set();
/** The signal that stopped the run (passed on to the lanes running; no later lane starts). */
let stoppedBy = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stoppedBy = signal;
    children.forEach((child) => child.kill(signal));
  });
}

if (args.length > 0) {
  const child = spawn(vitest, ['run', ...args], { cwd: root, stdio: 'inherit' });
  children.add(child);
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
} else {
  const nice = ['/usr/bin/nice', '/bin/nice'].find((path) => existsSync(path));
  const niced = (command) => (nice === undefined ? command : [nice, '-n', '10', ...command]);
  const width = Math.max(...['faults', 'suite', 'e2e'].map((name) => name.length));
  const started = Date.now();

  /** Runs one lane, its output lines prefixed with its name; resolves with its result. */
  const lane = (name, [command, ...rest]) =>
    new Promise((resolve) => {
      const child = spawn(command, rest, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      const prefix = `${name.padEnd(width)} | `;
      const recap = failureRecap();
      createInterface({ input: child.stdout }).on('line', (line) => {
        recap.add(line);
        process.stdout.write(`${prefix}${line}\n`);
      });
      createInterface({ input: child.stderr }).on('line', (line) => {
        recap.add(line);
        process.stderr.write(`${prefix}${line}\n`);
      });
      const end = (code, detail) => {
        children.delete(child);
        resolve({ name, code, detail, recap: recap.lines, seconds: Math.round((Date.now() - started) / 1000) });
      };
      child.on('error', (error) => end(1, error.message));
      child.on('close', (code, signal) => end(code ?? 1, signal ?? ''));
    });

  const results = await Promise.all([
    lane('faults', [vitest, 'run', '--project', 'faults']),
    lane('suite', niced([vitest, 'run', '--project', 'suite'])),
  ]);
  if (stoppedBy === null) results.push(await lane('e2e', [vitest, 'run', '--project', 'e2e']));
  for (const result of results.filter((result) => result.code !== 0 && result.recap.length > 0)) {
    console.log(`\n== lane ${result.name}: what failed (repeated from its output above)`);
    result.recap.forEach((line) => console.log(`${result.name.padEnd(width)} | ${line}`));
  }
  for (const result of results) {
    const outcome = result.code === 0 ? 'passed' : `FAILED (exit ${result.code}${result.detail ? `: ${result.detail}` : ''})`;
    console.log(`lane ${result.name.padEnd(width)}: ${outcome}, ended ${result.seconds} s after the start`);
  }
  if (stoppedBy !== null) console.log(`stopped by ${stoppedBy}: the e2e lane did not start`);
  process.exit(stoppedBy !== null ? 128 + (stoppedBy === 'SIGINT' ? 2 : 15) : results.every((result) => result.code === 0) ? 0 : 1);
}
