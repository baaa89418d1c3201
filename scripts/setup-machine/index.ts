/**
 * `npm run setup`: makes this machine ready for the README's commands, the same way for everyone — `.ci/run`
 * calls it before `npm run check`, `npm test` runs it first (`pretest`), and `npm run demo` runs its tool check.
 * It makes PostgreSQL and Redis answer (starting them, installing them with apt when absent), checks the tools the
 * tests and the example run exactly as the local executor will find them (scripts/setup-machine/tools.ts), installs
 * what is missing when it can (Debian packages as root or through sudo), and prints every interpreter and tool it
 * checked. Otherwise it exits 1 with one message naming what is missing and the command that installs it.
 * Cheap when all is there (about a second): nothing is installed or started then.
 *
 *   tsx scripts/setup-machine/index.ts [--check] [--demo]
 *     --check  only check: start and install nothing
 *     --demo   only what `npm run demo` needs (flake8, black, pytest), not the whole test suite's tools
 */
import { ensureTools } from './install-tools.js';
import { ensureServices } from './services.js';
import { ensureContainers } from './containers.js';
import type { SetupScope } from './tools.js';

const args = process.argv.slice(2);
const checkOnly = args.includes('--check');
const scope: SetupScope = args.includes('--demo') ? 'demo' : 'tests';
const say = (line: string): void => void process.stdout.write(`${line}\n`);

say(`ci-replay setup (${scope === 'demo' ? 'the demo' : 'the tests'}${checkOnly ? ', check only' : ''}): node ${process.version}`);
const problems = await ensureServices({ start: !checkOnly, say });
const tools = await ensureTools(scope, { install: !checkOnly, say });
// the container runtime and its images (docs/local-containers.md): the tests' container mode; not for the demo
if (scope === 'tests') problems.push(...(await ensureContainers({ start: !checkOnly, say })));
say(`  tools PATH (the local executor's steps): ${tools.report.toolsPath}`);
say(`  setup-python ${tools.report.setupPython === null ? 'finds no 3.11' : `3.11 → ${tools.report.setupPython.binary} (${tools.report.setupPython.version})`}; python3 → ${tools.report.python3 ?? 'none'}`);
for (const check of tools.report.checks) {
  say(`  ${check.ok ? 'ok     ' : 'MISSING'}  ${check.name.padEnd(22)} ${check.path ?? '-'}  ${check.detail}`);
}
if (problems.length > 0) process.stderr.write(`ci-replay setup: ${problems.join('; ')}\n`);
if (tools.message !== null) process.stderr.write(tools.message);
if (problems.length > 0 || !tools.ok) process.exitCode = 1;
else say('ci-replay setup: ready');
