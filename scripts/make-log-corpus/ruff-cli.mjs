#!/usr/bin/env node
// Renders Ruff's CLI text output from @astral-sh/ruff-wasm-nodejs diagnostics (the Ruff CLI is not installable here).
// Usage: ruff check [--select X,Y] [--output-format concise] <paths...> | ruff format --check <paths...>
// RUFF_WASM_DIR points at a node_modules holding @astral-sh/ruff-wasm-nodejs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const require = createRequire(join(process.env.RUFF_WASM_DIR ?? process.cwd(), 'noop.js'));
const { Workspace, PositionEncoding } = require('@astral-sh/ruff-wasm-nodejs');

const args = process.argv.slice(2);
const mode = args.shift();
let select;
const paths = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--select') select = args[++i].split(',');
  else if (arg === '--output-format' || arg === '--target-version') i++;
  else if (arg.startsWith('-')) continue;
  else paths.push(arg);
}
const files = [];
const walk = (p) => {
  if (statSync(p).isDirectory()) {
    for (const e of readdirSync(p).sort()) if (!e.startsWith('.') && e !== '__pycache__') walk(join(p, e));
  } else if (p.endsWith('.py')) files.push(p);
};
for (const p of paths.length ? paths : ['.']) walk(p);
// The CLI's default rule selection.
const settings = { lint: { select: select ?? ['E4', 'E7', 'E9', 'F'] } };
const ws = new Workspace(settings, PositionEncoding.Utf16);
const rel = (f) => relative(process.cwd(), f) || f;

if (mode === 'check') {
  let count = 0;
  let fixable = 0;
  for (const f of files) {
    const diags = ws.check(readFileSync(f, 'utf8'));
    for (const d of diags) {
      count++;
      if (d.fix) fixable++;
      // The CLI prints syntax errors as `SyntaxError: <message>`.
      const code = d.code && d.code !== 'invalid-syntax' ? `${d.code} ` : 'SyntaxError: ';
      const mark = d.fix ? '[*] ' : '';
      process.stdout.write(`${rel(f)}:${d.start_location.row}:${d.start_location.column}: ${code}${mark}${d.message}\n`);
    }
  }
  if (count === 0) {
    process.stdout.write('All checks passed!\n');
    process.exit(0);
  }
  process.stdout.write(`Found ${count} error${count === 1 ? '' : 's'}.\n`);
  if (fixable > 0) process.stdout.write(`[*] ${fixable} fixable with the \`--fix\` option.\n`);
  process.exit(1);
} else if (mode === 'format') {
  let changed = 0;
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    let out;
    try {
      out = ws.format(src);
    } catch (e) {
      process.stderr.write(`error: Failed to parse ${rel(f)}: ${String(e)}\n`);
      process.exit(2);
    }
    if (out !== src) {
      changed++;
      process.stdout.write(`Would reformat: ${rel(f)}\n`);
    }
  }
  const same = files.length - changed;
  if (changed > 0) {
    process.stdout.write(`${changed} file${changed === 1 ? '' : 's'} would be reformatted${same ? `, ${same} file${same === 1 ? '' : 's'} already formatted` : ''}\n`);
    process.exit(1);
  }
  process.stdout.write(`${same} file${same === 1 ? '' : 's'} already formatted\n`);
} else {
  process.stderr.write(`error: unrecognized subcommand '${mode}'\n`);
  process.exit(2);
}
