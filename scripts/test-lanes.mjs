// `npm test`: the whole suite in two lanes at once, each a `vitest run` of its own.
// - faults (test/faults/): campaigns that mostly wait (leases running out, Postgres and Redis outages): about one
//   core's worth of CPU, at normal priority, so their 3-second leases are never starved;
// - suite (test/unit/, test/integration/, test/e2e/): CPU-bound, at a lower priority (nice 10), so it takes every
//   cycle the fault campaigns leave and none they need.
// Run one after the other, the faults' ~500 s of waiting left a core idle; side by side the run is that much shorter.
// With arguments (`npm test -- <files or vitest options>`) it is a plain `vitest run <arguments>`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = `${root}/node_modules/.bin/vitest`;
const args = process.argv.slice(2);

if (args.length > 0) {
  const child = spawn(vitest, ['run', ...args], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
} else {
  const nice = ['/usr/bin/nice', '/bin/nice'].find((path) => existsSync(path));
  const lanes = [
    { name: 'faults', command: vitest, args: ['run', '--project', 'faults'] },
    nice === undefined
      ? { name: 'suite', command: vitest, args: ['run', '--project', 'suite', '--project', 'e2e'] }
      : { name: 'suite', command: nice, args: ['-n', '10', vitest, 'run', '--project', 'suite', '--project', 'e2e'] },
  ];
  const width = Math.max(...lanes.map((lane) => lane.name.length));
  const started = Date.now();
  const children = [];
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => children.forEach((child) => child.kill(signal)));
  const results = await Promise.all(
    lanes.map(
      (lane) =>
        new Promise((resolve) => {
          const child = spawn(lane.command, lane.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
          children.push(child);
          const prefix = `${lane.name.padEnd(width)} | `;
          createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
          createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${prefix}${line}\n`));
          child.on('error', (error) => resolve({ lane: lane.name, code: 1, seconds: 0, error: error.message }));
          child.on('close', (code, signal) => resolve({ lane: lane.name, code: code ?? 1, signal, seconds: Math.round((Date.now() - started) / 1000) }));
        }),
    ),
  );
  for (const result of results) {
    const outcome = result.code === 0 ? 'passed' : `FAILED (exit ${result.code}${result.signal ? `, ${result.signal}` : ''}${result.error ? `: ${result.error}` : ''})`;
    console.log(`lane ${result.lane.padEnd(width)}: ${outcome} after ${result.seconds} s`);
  }
  process.exit(results.every((result) => result.code === 0) ? 0 : 1);
}
