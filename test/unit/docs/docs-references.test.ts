import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/index.js';

/**
 * The documentation names commands, settings, scripts, files and other pages; this checks each name against the
 * code so that a renamed command or a moved file shows up here rather than in a reader's terminal.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

interface Page {
  path: string;
  /** Lines outside fenced code blocks. */
  prose: string[];
  /** Contents of fenced code blocks, one entry per line. */
  code: string[];
  /** Inline code spans of the prose. */
  spans: string[];
}

function parsePage(path: string): Page {
  const prose: string[] = [];
  const code: string[] = [];
  let fence: string | null = null;
  for (const line of read(path).split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    (fence === null ? prose : code).push(line);
  }
  const spans = prose.flatMap((line) => [...line.matchAll(/(`+)(.+?)\1/g)].map((match) => match[2]!.trim()));
  return { path, prose, code, spans };
}

const pages = PAGES.map(parsePage);

/** GitHub's heading anchors (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(page: Page): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of page.prose) {
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

describe('docs references', () => {
  it('reads README.md and every page of docs/', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.every((page) => page.prose.length > 0)).toBe(true);
  });

  it('names only CLI commands and subcommands that the program has', () => {
    const program = buildProgram({ out: () => undefined, err: () => undefined });
    const find = (parent: Command, name: string): Command | undefined => parent.commands.find((command) => command.name() === name || command.aliases().includes(name));
    const mentions = pages.flatMap((page) =>
      [...page.spans, ...page.code].flatMap((text) =>
        // `ci-replay setup: …` and `ci-replay setup (…)` are messages of scripts/setup-machine, not commands.
        [...text.matchAll(/(?<![\w/.-])ci-replay\s+([a-z][\w-]*)(?![\w-]*(?::|\s\())(?:\s+([a-z][\w-]*)(?![\w-]))?/g)].map((match) => ({ page: page.path, words: [match[1]!, match[2]] as const })),
      ),
    );
    expect(mentions.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const { page, words } of mentions) {
      const [name, sub] = words;
      const command = find(program, name);
      if (command === undefined) {
        problems.push(`${page}: ci-replay ${name} (no such command)`);
        continue;
      }
      if (sub !== undefined && command.commands.length > 0 && find(command, sub) === undefined) {
        problems.push(`${page}: ci-replay ${name} ${sub} (no such subcommand; has ${command.commands.map((c) => c.name()).join(', ')})`);
      }
    }
    expect([...new Set(problems)]).toEqual([]);
  });

  it('documents in docs/configuration.md exactly the variables src/config.ts reads (schema: src/config/env-schema.ts)', () => {
    expect(read('src/config.ts')).toContain('envSchema.safeParse(');
    const source = read('src/config/env-schema.ts');
    const start = source.indexOf('export const envSchema = z');
    const end = source.indexOf('.superRefine', start);
    expect(start).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const read_ = new Set([...source.slice(start, end).matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!));
    expect(source.slice(0, start).concat(source.slice(end)).match(/process\.env\.[A-Z_]+|process\.env\[/g) ?? []).toEqual([]);

    const table = parsePage('docs/configuration.md').prose.filter((line) => /^\|\s*`[A-Z]/.test(line));
    const documented = new Set(table.flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!)));
    expect(read_.size).toBeGreaterThan(30);
    expect([...read_].filter((name) => !documented.has(name)).sort()).toEqual([]);
    expect([...documented].filter((name) => !read_.has(name)).sort()).toEqual([]);
  });

  it('names only npm scripts that package.json defines', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const named = pages.flatMap((page) =>
      [...page.prose, ...page.code].flatMap((line) => [...line.matchAll(/npm run ([\w:.-]+)/g)].map((match) => `${page.path}: ${match[1]!}`)),
    );
    expect(named.length).toBeGreaterThan(3);
    expect([...new Set(named.filter((entry) => !scripts.includes(entry.split(': ')[1]!)))]).toEqual([]);
  });

  it('names only bench/, scripts/, src/ and test/ paths that exist', () => {
    const named = pages.flatMap((page) =>
      [...page.spans, ...page.code].flatMap((text) =>
        text
          .split(/[\s"'(),;=]+/)
          .filter((word) => /^(bench|scripts|src|test)\/[\w.-]/.test(word))
          // Files of example patches (`src/x.py`, `src/../../x.py`) are not the project's.
          .filter((word) => !/(^|\/)\.\.(\/|$)/.test(word) && !/\/[a-z]\.\w+$/.test(word))
          .map((word) => ({ page: page.path, word })),
      ),
    );
    expect(named.length).toBeGreaterThan(20);
    const missing = named.flatMap(({ page, word }) => {
      // A pattern (`src/executor/*`, `test/<area>/…`) is checked up to its first variable part.
      const fixed = word.split(/[*<{…[]/)[0]!.replace(/[:.,]+$/, '').replace(/:\d+(?:-\d+)?$/, '');
      const path = /[*<{…[]/.test(word) ? fixed.slice(0, fixed.lastIndexOf('/') + 1) : fixed;
      return existsSync(join(ROOT, path)) ? [] : [`${page}: ${word}`];
    });
    expect([...new Set(missing)]).toEqual([]);
  });

  it('links only to pages and headings that exist', () => {
    const anchors = new Map(pages.map((page) => [page.path, anchorsOf(page)]));
    const problems: string[] = [];
    let links = 0;
    for (const page of pages) {
      for (const line of page.prose) {
        for (const match of line.replace(/(`+).+?\1/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
          const target = match[1]!;
          if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
          links += 1;
          const [file, anchor] = target.split('#') as [string, string | undefined];
          const path = file === '' ? page.path : relative(ROOT, resolve(ROOT, dirname(page.path), decodeURIComponent(file)));
          if (!existsSync(join(ROOT, path))) {
            problems.push(`${page.path}: ${target} (no such file)`);
            continue;
          }
          if (anchor === undefined || anchor === '') continue;
          const known = anchors.get(path) ?? (path.endsWith('.md') ? anchorsOf(parsePage(path)) : undefined);
          if (known !== undefined && !known.has(decodeURIComponent(anchor))) problems.push(`${page.path}: ${target} (no such heading)`);
        }
      }
    }
    expect(links).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });
});
