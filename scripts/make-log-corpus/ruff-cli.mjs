#!/usr/bin/env node
// Renders Ruff's CLI text output from @astral-sh/ruff-wasm-nodejs diagnostics (the Ruff CLI is not installable here).
// Usage: ruff check [--select X,Y] [--output-format full|concise] <paths...> | ruff format --check <paths...>
// `check` prints the `full` format by default, as ruff >= 0.12.9 does (see ruff-full-render.mjs); `concise` prints
// `path:row:col: CODE [*] message` lines.
// RUFF_WASM_DIR points at a node_modules holding @astral-sh/ruff-wasm-nodejs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { renderFull } from './ruff-full-render.mjs';

const require = createRequire(join(process.env.RUFF_WASM_DIR ?? process.cwd(), 'noop.js'));
const { Workspace, PositionEncoding } = require('@astral-sh/ruff-wasm-nodejs');

const args = process.argv.slice(2);
const mode = args.shift();
let select;
let outputFormat = 'full';
const paths = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--select') select = args[++i].split(',');
  else if (arg === '--output-format') outputFormat = args[++i];
  else if (arg.startsWith('--output-format=')) outputFormat = arg.slice('--output-format='.length);
  else if (arg === '--target-version') i++;
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
if (outputFormat !== 'full' && outputFormat !== 'concise') {
  process.stderr.write(`error: output format '${outputFormat}' is not rendered here (full, concise)\n`);
  process.exit(2);
}

if (mode === 'check') {
  let count = 0;
  let fixable = 0;
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    const diags = ws.check(src);
    for (const d of diags) {
      count++;
      if (d.fix) fixable++;
      if (outputFormat === 'full') {
        process.stdout.write(renderFull(d, rel(f), src));
        continue;
      }
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
