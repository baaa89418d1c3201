/** Splits a `docker run` options string as a POSIX shell would (quotes, backslashes), without expanding anything. */
export function splitOptions(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] ?? '';
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && ['"', '\\', '$', '`'].includes(text[i + 1] ?? '')) current += text[(i += 1)] ?? '';
      else current += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < text.length) {
      current += text[(i += 1)] ?? '';
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(current);
      current = '';
      has = false;
    } else {
      current += c;
      has = true;
    }
  }
  if (quote !== null) throw new Error(`unterminated ${quote} quote in options`);
  if (has) out.push(current);
  return out;
}

/** `docker run` options a workflow's `options:` may use, with whether each takes a value. */
const ALLOWED: Record<string, boolean> = {
  '--health-cmd': true, '--health-interval': true, '--health-timeout': true, '--health-retries': true, '--health-start-period': true,
  '--no-healthcheck': false, '-e': true, '--env': true, '--entrypoint': true, '--workdir': true, '-w': true, '--user': true, '-u': true,
  '--tmpfs': true, '--shm-size': true, '--ulimit': true, '--stop-timeout': true, '--stop-signal': true, '--init': false,
  '--label': true, '-l': true, '--read-only': false, '--memory': true, '-m': true, '--cpus': true,
};

/**
 * Checks a workflow's `options:` against what the local runtime accepts: health checks, env, entrypoint, user,
 * tmpfs and the like pass through; networking (`--network`, `-p`, `--add-host`, `--hostname`: services share the
 * job's namespace), host access (`-v`, `--mount`, `--device`, `--privileged`, `--cap-add`, `--pid`, …) and
 * anything unknown are refused with the option named.
 */
export function checkOptions(text: string): { args: string[] } | { error: string } {
  let words: string[];
  try {
    words = splitOptions(text);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const args: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    const takesValue = ALLOWED[name];
    if (takesValue === undefined) return { error: `option '${name}' is not allowed in the local runtime (allowed: ${Object.keys(ALLOWED).join(', ')})` };
    if (!takesValue) {
      args.push(name);
      continue;
    }
    if (eq > 0) args.push(name, word.slice(eq + 1));
    else {
      const value = words[i + 1];
      if (value === undefined) return { error: `option '${name}' needs a value` };
      args.push(name, value);
      i += 1;
    }
  }
  return { args };
}
