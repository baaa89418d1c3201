/**
 * Splits setup.cfg (INI) and pyproject.toml (TOML) into sections at their headers, marking the sections that
 * configure pytest, coverage or tox. TOML settings can also sit outside their own table (dotted keys such as
 * `tool.pytest.ini_options.addopts = …` or inline tables under `[tool]`); those are collected as `strays`, since
 * they cannot be restored section by section.
 */
import { isProtectedIniSection, isProtectedTomlPath, isTomlAncestorOfProtected, type SectionFormat } from './default-rules.js';

/** A header and the lines up to the next header (the preamble has key ''). */
export interface Section {
  key: string;
  text: string;
  protected: boolean;
}

export interface ScannedFile {
  sections: Section[];
  /** Protected settings written outside a protected section (TOML only), as their source text. */
  strays: string[];
}

export function scanSections(text: string, format: SectionFormat): ScannedFile {
  return format === 'ini' ? scanIni(text) : scanToml(text);
}

const lines = (text: string): string[] => (text === '' ? [] : text.split(/(?<=\n)/));

function scanIni(text: string): ScannedFile {
  const sections: Section[] = [{ key: '', text: '', protected: false }];
  for (const line of lines(text)) {
    // configparser and iniconfig both take a bracketed line as a header; a trailing comment may follow it.
    const header = /^\[(.+)\]/.exec(line.trim());
    if (header?.[1] !== undefined) {
      const name = header[1].trim();
      sections.push({ key: `[${name}]`, text: line, protected: isProtectedIniSection(name) });
      continue;
    }
    const current = sections.at(-1);
    if (current !== undefined) current.text += line;
  }
  return { sections, strays: [] };
}

/** Lexer state carried across lines: inside a multi-line string, or inside brackets of a value. */
interface TomlState {
  string: '"""' | "'''" | null;
  depth: number;
}

function scanToml(text: string): ScannedFile {
  const sections: Section[] = [{ key: '', text: '', protected: false }];
  const strays: string[] = [];
  const state: TomlState = { string: null, depth: 0 };
  let table: string[] = [];
  let stray: string | null = null;
  for (const line of lines(text)) {
    const current = sections.at(-1);
    if (current === undefined) break;
    if (state.string !== null || state.depth > 0) {
      current.text += line;
      if (stray !== null) stray += line;
      scanValue(line, 0, state);
      if (stray !== null && state.string === null && state.depth === 0) {
        strays.push(stray.trim());
        stray = null;
      }
      continue;
    }
    const trimmed = line.trimStart();
    if (trimmed.startsWith('[')) {
      const array = trimmed.startsWith('[[');
      const path = parseKey(trimmed.slice(array ? 2 : 1), array ? ']]' : ']');
      if (path !== null) {
        table = path;
        const name = path.join('.');
        sections.push({ key: array ? `[[${name}]]` : `[${name}]`, text: line, protected: isProtectedTomlPath(path) });
        continue;
      }
    }
    current.text += line;
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const key = parseKey(trimmed, '=');
    const full = key === null ? null : [...table, ...key];
    const equals = keyEnd(trimmed);
    if (equals >= 0) scanValue(trimmed, equals + 1, state);
    if (full === null || current.protected || !(isProtectedTomlPath(full) || isTomlAncestorOfProtected(full))) continue;
    if (state.string === null && state.depth === 0) strays.push(line.trim());
    else stray = line;
  }
  if (stray !== null) strays.push(stray.trim());
  return { sections, strays };
}

/** The index of the `=` ending a key line's key (outside quotes), or -1. */
function keyEnd(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quote !== null) {
      if (char === '\\' && quote === '"') i += 1;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '=') return i;
  }
  return -1;
}

/**
 * Parses a dotted TOML key (bare, "basic" or 'literal' parts) up to `end` (`]`, `]]` or `=`); null when the text
 * is not a key followed by `end`.
 */
export function parseKey(text: string, end: string): string[] | null {
  const parts: string[] = [];
  let i = 0;
  const skipSpace = (): void => {
    while (text[i] === ' ' || text[i] === '\t') i += 1;
  };
  for (;;) {
    skipSpace();
    const char = text[i];
    if (char === '"' || char === "'") {
      const close = findClose(text, i, char);
      if (close < 0) return null;
      const raw = text.slice(i, close + 1);
      parts.push(char === '"' ? decodeBasic(raw) : raw.slice(1, -1));
      i = close + 1;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
      if (bare === null) return null;
      parts.push(bare[0]);
      i += bare[0].length;
    }
    skipSpace();
    if (text[i] === '.') {
      i += 1;
      continue;
    }
    return text.startsWith(end, i) ? parts : null;
  }
}

function findClose(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i += 1) {
    if (quote === '"' && text[i] === '\\') i += 1;
    else if (text[i] === quote) return i;
  }
  return -1;
}

function decodeBasic(raw: string): string {
  try {
    return String(JSON.parse(raw));
  } catch {
    return raw.slice(1, -1);
  }
}

/** Advances the lexer over a value's characters from `start`: strings, comments and bracket depth. */
function scanValue(line: string, start: number, state: TomlState): void {
  let i = start;
  while (i < line.length) {
    if (state.string !== null) {
      const close = state.string === '"""' ? findTripleBasic(line, i) : line.indexOf("'''", i);
      if (close < 0) return;
      i = close + 3;
      while (line[i] === state.string[0]) i += 1; // up to two quotes may end the content
      state.string = null;
      continue;
    }
    const char = line[i];
    if (char === '#') return;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      state.string = line.startsWith('"""', i) ? '"""' : "'''";
      i += 3;
      continue;
    }
    if (char === '"' || char === "'") {
      const close = findClose(line, i, char);
      i = close < 0 ? line.length : close + 1;
      continue;
    }
    if (char === '[' || char === '{') state.depth += 1;
    else if ((char === ']' || char === '}') && state.depth > 0) state.depth -= 1;
    i += 1;
  }
}

function findTripleBasic(line: string, from: number): number {
  for (let i = from; i < line.length; i += 1) {
    if (line[i] === '\\') i += 1;
    else if (line.startsWith('"""', i)) return i;
  }
  return -1;
}
