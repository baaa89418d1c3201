/** Small, text-level helpers for GitHub Actions `${{ }}` expressions and `if:` conditions. */

const EXPRESSION = /\$\{\{([\s\S]*?)\}\}/g;

/** The expression of an `if:` value, without a surrounding `${{ }}`. */
export function unwrapCondition(value: string): string {
  const trimmed = value.trim();
  const match = /^\$\{\{([\s\S]*)\}\}$/.exec(trimmed);
  if (match?.[1] !== undefined && !match[1].includes('}}')) return match[1].trim();
  return trimmed;
}

/** Splits an expression on a top-level binary operator, respecting parentheses and string literals. */
export function splitTopLevel(expression: string, operator: '&&' | '||'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < expression.length; i += 1) {
    const char = expression[i];
    if (char === "'") {
      quoted = !quoted;
      continue;
    }
    if (quoted) continue;
    if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (depth === 0 && expression.startsWith(operator, i)) {
      parts.push(expression.slice(start, i).trim());
      start = i + operator.length;
      i += operator.length - 1;
    }
  }
  parts.push(expression.slice(start).trim());
  return parts;
}

/** Removes parentheses that enclose the whole expression. */
export function stripOuterParens(expression: string): string {
  let current = expression.trim();
  while (current.startsWith('(') && current.endsWith(')') && enclosesWhole(current)) {
    current = current.slice(1, -1).trim();
  }
  return current;
}

function enclosesWhole(expression: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < expression.length; i += 1) {
    const char = expression[i];
    if (char === "'") quoted = !quoted;
    if (quoted) continue;
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (depth === 0 && i < expression.length - 1) return false;
  }
  return true;
}

/**
 * Rewrites every `${{ ... }}` in a string. `rewrite` receives the inner expression and returns its
 * replacement: a new inner expression, or `{ literal }` to replace the whole `${{ }}` with plain text.
 */
export function rewriteExpressions(
  text: string,
  rewrite: (inner: string) => string | { literal: string },
): string {
  return text.replace(EXPRESSION, (whole, inner: string) => {
    const result = rewrite(inner);
    if (typeof result !== 'string') return result.literal;
    return result === inner ? whole : `\${{ ${result.trim()} }}`;
  });
}

/** The inner texts of all `${{ }}` expressions in a string. */
export function expressionsIn(text: string): string[] {
  return [...text.matchAll(EXPRESSION)].map((match) => match[1] ?? '');
}

/** Quotes a value as an expression string literal. */
export function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

const SECRET_REFERENCE = /\bsecrets\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])/g;

/** Names of the secrets referenced inside a string's expressions (GITHUB_TOKEN excluded). */
export function secretNames(text: string): string[] {
  const names = new Set<string>();
  for (const inner of expressionsIn(text)) {
    for (const match of inner.matchAll(SECRET_REFERENCE)) {
      const name = match[1] ?? match[2] ?? '';
      if (name.toUpperCase() !== 'GITHUB_TOKEN') names.add(name);
    }
  }
  return [...names];
}

/**
 * Replaces secret references by a string value. A `${{ secrets.X }}` alone becomes the plain value;
 * inside a larger expression `secrets.X` becomes a string literal.
 */
export function replaceSecrets(text: string, valueFor: (name: string) => string): string {
  return rewriteExpressions(text, (inner) => {
    const alone = /^\s*secrets\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])\s*$/.exec(inner);
    const aloneName = alone ? (alone[1] ?? alone[2] ?? '') : undefined;
    if (aloneName !== undefined && aloneName.toUpperCase() !== 'GITHUB_TOKEN') return { literal: valueFor(aloneName) };
    return inner.replace(SECRET_REFERENCE, (whole, dotted: string | undefined, indexed: string | undefined) => {
      const name = dotted ?? indexed ?? '';
      return name.toUpperCase() === 'GITHUB_TOKEN' ? whole : literal(valueFor(name));
    });
  });
}
