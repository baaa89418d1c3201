/** Credentials kept out of configuration errors: URL passwords, tokens, key parameters, secret-named variables. */

/** Variables whose value is a secret as a whole: never shown, and masked wherever it would appear. */
const SECRET_NAMES = /KEY|SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|AUTH/i;

/** `scheme://user:password@` or `scheme://token@` at the start of a value (parsed or not: a malformed URL too). */
const URL_USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#\s]*)@/i;
/** Query parameters that carry a credential (`?password=…`, `&sslpassword=…`, `?token=…`, `?api_key=…`). */
const URL_SECRET_PARAM = /([?&;][^=&;#\s]*(?:pass|pwd|secret|token|key)[^=&;#\s]*=)[^&;#\s]*/gi;

/** A value with the credentials of a URL masked: `postgresql://u:hunter2@h/db` → `postgresql://u:***@h/db`. */
function redactUrl(value: string): string {
  const masked = value.replace(URL_USERINFO, (_, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon === -1 ? '***' : `${userinfo.slice(0, colon)}:***`}@`;
  });
  return masked.replace(URL_SECRET_PARAM, '$1***');
}

/** The credentials found in the environment: secret-named values, and passwords, tokens and key parameters inside URLs. */
function credentialsIn(source: NodeJS.ProcessEnv): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || value === '') continue;
    // PRIVATE_KEY_PATH and the like name where a secret is, not the secret.
    if (SECRET_NAMES.test(name) && !/_(PATH|FILE|DIR)$/.test(name)) found.push(value, ...value.split(/\r?\n/).map((line) => line.trim()));
    const userinfo = URL_USERINFO.exec(value)?.[2];
    if (userinfo !== undefined) found.push(userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : userinfo);
    for (const match of value.matchAll(URL_SECRET_PARAM)) found.push(value.slice((match.index ?? 0) + match[1]!.length, (match.index ?? 0) + match[0].length));
  }
  // Very short values would mask ordinary words; percent-decoded forms are masked too.
  const decoded = found.flatMap((secret) => {
    try {
      return [secret, decodeURIComponent(secret)];
    } catch {
      return [secret];
    }
  });
  return [...new Set(decoded.filter((secret) => secret.length >= 4))].sort((a, b) => b.length - a.length);
}

/** Every problem line with each credential of the environment masked, whatever put it there (a value, a message). */
export function redactProblems(problems: string[], source: NodeJS.ProcessEnv): string[] {
  const secrets = credentialsIn(source);
  return problems.map((problem) => secrets.reduce((text, secret) => text.split(secret).join('***'), problem));
}

export function describeValue(name: string, value: string | undefined): string {
  if (value === undefined) return 'nothing';
  if (SECRET_NAMES.test(name)) return 'a value (hidden)';
  const shown = redactUrl(value);
  return JSON.stringify(shown.length > 60 ? `${shown.slice(0, 60)}…` : shown);
}
