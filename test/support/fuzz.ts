/**
 * Seeded randomness for the fuzz suites: a failure reproduces with the seed the suite prints
 * (`FUZZ_SEED=<n> npx vitest run <file>`). Only tests read FUZZ_SEED, through fuzzSeed().
 */
export interface Random {
  /** [0, 1) */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** FUZZ_SEED when set (a number), else the suite's fixed default; the suite prints it. */
export function fuzzSeed(fallback: number): number {
  const raw = process.env.FUZZ_SEED;
  if (raw === undefined || raw.trim() === '') return fallback;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${raw}`);
  return seed;
}

/** mulberry32: small, fast, and good enough to spread mutations. */
export function prng(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (p) => next() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)] as T;
    },
  };
}

/** Characters that break parsers: quotes, escapes, separators, line ends, control and non-ASCII characters. */
export const NASTY_CHARS = ['"', "'", '\\', '/', '.', ' ', '\t', '\r', '\n', '\r\n', '\0', '\u001b', ':', '#', '-', '*', '&', '!', '|', '>', '{', '}', '[', ']', '%', '@', '`', 'é', '\u2028', '\ufeff', '\ud800', '𝔘'];

/**
 * One random edit of a text, line- or character-wise: delete, duplicate, swap, truncate, insert nasty characters or
 * one of `inserts`, switch line endings, repeat a line many times.
 */
export interface MutateOptions {
  /** Lines a mutation may insert (header lines, log markers). */
  inserts?: readonly string[];
  /** Most copies of one line a mutation makes (default 2000: a huge input). */
  maxRepeat?: number;
}

export function mutateText(random: Random, text: string, options: MutateOptions = {}): string {
  const inserts = options.inserts ?? [];
  const lines = text.split('\n');
  const at = random.int(lines.length);
  const pos = random.int(text.length + 1);
  switch (random.int(12)) {
    case 0:
      lines.splice(at, 1 + random.int(3));
      return lines.join('\n');
    case 1:
      lines.splice(at, 0, ...lines.slice(at, at + 1 + random.int(4)));
      return lines.join('\n');
    case 2: {
      const other = random.int(lines.length);
      [lines[at], lines[other]] = [lines[other] ?? '', lines[at] ?? ''];
      return lines.join('\n');
    }
    case 3:
      return text.slice(0, pos);
    case 4:
      return `${text.slice(0, pos)}${random.pick(NASTY_CHARS)}${text.slice(pos)}`;
    case 5:
      return `${text.slice(0, pos)}${text.slice(pos + 1 + random.int(8))}`;
    case 6:
      return text.replace(/\r?\n/g, random.chance(0.5) ? '\r\n' : '\n');
    case 7:
      if (inserts.length === 0) return `${text.slice(0, pos)}${random.pick(NASTY_CHARS).repeat(random.between(1, 50))}${text.slice(pos)}`;
      lines.splice(at, random.int(2), random.pick(inserts));
      return lines.join('\n');
    case 8:
      lines.splice(at, 0, ...Array.from({ length: random.between(2, options.maxRepeat ?? 2000) }, () => lines[at] ?? ''));
      return lines.join('\n');
    case 9: {
      // Indentation and structure: shift a line left or right.
      const line = lines[at] ?? '';
      lines[at] = random.chance(0.5) ? `${' '.repeat(random.between(1, 6))}${line}` : line.trimStart();
      return lines.join('\n');
    }
    case 10: {
      // A character replaced by a neighbour's (keeps the text plausible).
      const char = text.charAt(random.int(text.length));
      return `${text.slice(0, pos)}${char}${text.slice(pos + 1)}`;
    }
    default:
      return `${text.slice(0, pos)}${String.fromCharCode(random.int(0x3000))}${text.slice(pos)}`;
  }
}

/** Applies 1..max mutations. */
export function mutateMany(random: Random, text: string, max: number, options: MutateOptions = {}): string {
  let result = text;
  for (let i = random.between(1, max); i > 0; i -= 1) result = mutateText(random, result, options);
  return result;
}
