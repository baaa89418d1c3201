import { invalidInput } from '../errors.js';

/**
 * Parses a GITHUB_ENV / GITHUB_OUTPUT file: `NAME=value` lines and `NAME<<DELIMITER` blocks
 * closed by a line equal to the delimiter.
 */
export function parseKeyValueFile(text: string, fileName: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const lines = text.split(/\r?\n/);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    i += 1;
    if (line.trim() === '') continue;
    const heredoc = line.indexOf('<<');
    const eq = line.indexOf('=');
    if (heredoc > 0 && (eq < 0 || heredoc < eq)) {
      const name = line.slice(0, heredoc);
      const delimiter = line.slice(heredoc + 2);
      if (name === '' || delimiter === '') throw invalidInput('invalid_env_file', `invalid ${fileName} line: ${line}`);
      const body: string[] = [];
      let closed = false;
      while (i < lines.length) {
        const next = lines[i] ?? '';
        i += 1;
        if (next === delimiter) {
          closed = true;
          break;
        }
        body.push(next);
      }
      if (!closed) {
        throw invalidInput('invalid_env_file', `Matching delimiter not found '${delimiter}' in ${fileName}`);
      }
      out.push([name, body.join('\n')]);
      continue;
    }
    if (eq <= 0) throw invalidInput('invalid_env_file', `Invalid format '${line}' in ${fileName}`);
    out.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return out;
}

/** Parses a GITHUB_PATH file: one directory per line. */
export function parsePathFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}
