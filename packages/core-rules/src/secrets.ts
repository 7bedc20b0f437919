/**
 * Secret redaction shared by every package that shows or stores model text: structural redaction (the value of
 * every secret-named key, in objects and in JSON strings at any escaping depth) and ordered text patterns
 * (labelled values, command-line shapes, provider token prefixes, private keys, URL credentials). One copy: the
 * engine's descriptions (`text.ts`) and telemetry-store's stored texts both use it. Pure module: safe in browsers.
 */
/** Marker that replaces a secret value. */
export const REDACTED = '[REDACTED]';

/**
 * Words that make a key name a secret's name, compared against the key lowercased with `_`, `-`, `.` and spaces
 * removed, so `privateKey`, `private_key`, `private-key` and `PRIVATE_KEY` all read `privatekey`.
 */
const SECRET_KEY_WORDS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'accesskey',
  'privatekey',
  'accountkey',
  'credential',
  'authorization',
  'cookie',
  'sessionid',
  'signingkey',
  'encryptionkey',
  'masterkey',
];
/** Whole key names (normalized) that hold a secret although they contain none of the words (docker's `auth`). */
const SECRET_KEY_NAMES = new Set(['auth', 'pw', 'pwd', 'pass', 'sig', 'dbpass']);

/** True when a key (in any case style) names a secret: its value, of any type, is redacted whole. */
export function isSecretKeyName(key: string): boolean {
  if (key.length > 200) return false;
  const normal = key.toLowerCase().replace(/[\s_.-]/g, '');
  if (SECRET_KEY_NAMES.has(normal) || normal.endsWith('pwd') || normal.endsWith('pass')) return true;
  if (TOKEN_COUNT_NAME.test(normal)) return false;
  return SECRET_KEY_WORDS.some((word) => normal.includes(word));
}

/** Nesting beyond this (objects, arrays, JSON inside strings) is replaced, not walked. */
const MAX_STRUCTURE_DEPTH = 64;

/**
 * Structural redaction: walks objects and arrays and replaces the value of every secret-named key, whatever its
 * type. A string that is itself JSON (an argument holding a JSON document, at any escaping depth) is parsed,
 * redacted the same way and written back; other strings are left for the text patterns. Returns the input itself
 * when nothing was found.
 */
export function redactStructure(value: unknown, depth = 0, ancestors: object[] = []): unknown {
  if (typeof value === 'string') return redactJsonString(value, depth);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_STRUCTURE_DEPTH) return '[nested too deep]';
  if (ancestors.includes(value)) return '[circular]';
  ancestors.push(value);
  try {
    return redactObject(value, depth, ancestors);
  } finally {
    ancestors.pop();
  }
}

function redactObject(value: object, depth: number, ancestors: object[]): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = redactStructure(item, depth + 1, ancestors);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const next = isSecretKeyName(key) ? REDACTED : redactStructure(item, depth + 1, ancestors);
    if (next !== item) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}

function redactJsonString(text: string, depth: number): string {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[' && first !== '"') return text;
  if (depth >= MAX_STRUCTURE_DEPTH) return '[nested too deep]';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof parsed !== 'object' && typeof parsed !== 'string') return text;
  const redacted = redactStructure(parsed, depth + 1);
  return redacted === parsed ? text : JSON.stringify(redacted);
}

/** Prefixes and suffixes that make a `token` name a count or a limit (`max_tokens`, `tokenCount`), not a secret. */
const TOKEN_COUNT_PREFIX = '(?:max|min|num|input|output|prompt|completion|total|cached|reasoning|context)[_-]?';
const TOKEN_COUNT_SUFFIX = 's?[_-]?(?:count|limit|budget|usage|used|length|len)(?![a-z])';
const TOKEN_NOT_A_COUNT = `(?<!${TOKEN_COUNT_PREFIX})token(?!${TOKEN_COUNT_SUFFIX})`;
const TOKEN_COUNT_NAME = new RegExp(`^${TOKEN_COUNT_PREFIX}tokens?$|^tokens?${TOKEN_COUNT_SUFFIX}$`);

/** A key name that says it holds a secret (bounded repetitions keep matching linear on long identifier runs). */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]{0,40}(?:password|passwd|passphrase|secret|${TOKEN_NOT_A_COUNT}|api[_-]?key|access[_-]?key|private[_-]?key|account[_-]?key|credentials?|signing[_-]?key|encryption[_-]?key|master[_-]?key|session[_-]?id|[A-Za-z0-9]_?pwd|_pass|[A-Za-z0-9][_-]?key(?![A-Za-z])|(?<![A-Za-z0-9_.-])(?:pwd|pw|pass)(?=\\*["']?\s*=))[A-Za-z0-9_.-]{0,40}`;
/** The same, plus whole key names that are secret only as a whole (`"auth"` in docker's config.json). */
const JSON_SECRET_KEY = String.raw`(?:${SECRET_KEY}|auth|pw|pwd|pass)`;
/** Value of an unquoted `key=value`: up to whitespace, a quote or an escape; `&`/`;` end it only before another `key=`. */
const BARE_VALUE = String.raw`(?:[^\s"'\\&;]|[&;](?![A-Za-z_][A-Za-z0-9_.-]{0,60}=))+`;
/** A flat bracketed value: `[...]` or `{...}` without nesting. */
const FLAT_BRACKETED = String.raw`(?:\[[^\]\r\n]{0,4000}\]|\{[^}\r\n]{0,4000}\})`;
/** A quoted value (quotes possibly escaped) or a bare word. */
const QUOTED_OR_BARE = String.raw`(?:'[^'\r\n]*'|\\*"[^"\\\r\n]*\\*"|[^\s"'\\,)\]]+)`;
const PRIVATE_KEY_BLOCK =
  /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g;

/**
 * Ordered replacements: structural text forms first (they keep their label), then command-line shapes agents
 * type, then bare token shapes. Each rule runs only when its lowercase `hint` occurs in the text.
 */
const RULES: readonly { hint: string; pattern: RegExp; replace: string }[] = [
  // PEM and PGP private keys, including one cut off before its END line.
  { hint: 'private key', pattern: PRIVATE_KEY_BLOCK, replace: '[REDACTED:private-key]' },
  // Authorization / Proxy-Authorization and Cookie header values (whole value up to the end of the line or quote).
  {
    hint: 'authorization',
    pattern: /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\r\n"'\\]+/gi,
    replace: `$1${REDACTED}`,
  },
  { hint: 'cookie', pattern: /((?:set-)?cookie["']?\s*:\s*["']?)[^\r\n"'\\]+/gi, replace: `$1${REDACTED}` },
  // Bearer credentials anywhere; Basic ones when the value looks encoded (so "basic example" stays prose).
  { hint: 'bearer', pattern: /\b(bearer)(\s+)[A-Za-z0-9._~+/=-]{6,}/gi, replace: `$1$2${REDACTED}` },
  {
    hint: 'basic',
    pattern: /\b([Bb]asic|BASIC)(\s+)(?=[A-Za-z0-9+/]*(?:[0-9+/=]|[a-z][A-Z]))[A-Za-z0-9+/]{6,}=*/g,
    replace: `$1$2${REDACTED}`,
  },
  // JSON keys, also inside JSON strings at any escaping depth (\"token\": \"value\"): a string value ends at a
  // quote preceded by exactly as many backslashes as the key's quotes; deeper-escaped quotes are content.
  {
    hint: '"',
    pattern: new RegExp(String.raw`((\\*)"${JSON_SECRET_KEY}\2"\s*:\s*)\2"(?:[^\\"]|\\+(?=[^"\\])|\2\\+")*?\2"`, 'gi'),
    replace: `$1$2"${REDACTED}$2"`,
  },
  // ... and a value of another type: number, literal, flat array or object.
  {
    hint: '"',
    pattern: new RegExp(
      String.raw`((\\*)"${JSON_SECRET_KEY}\2"\s*:\s*)(?:-?[0-9][0-9.eE+-]*|true|false|null|${FLAT_BRACKETED})`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // Python dict keys: 'token': 'value'.
  {
    hint: "'",
    pattern: new RegExp(
      String.raw`('${JSON_SECRET_KEY}'\s*:\s*)(?:'(?:[^'\\]|\\[\s\S])*'|-?[0-9][0-9.]*|${FLAT_BRACKETED})`,
      'gi',
    ),
    replace: `$1'${REDACTED}'`,
  },
  // A .env / shell line assigning a secret-named variable: everything to the end of the line.
  {
    hint: '=',
    pattern: new RegExp(
      String.raw`((?:^|\\n|\n)[ \t]*(?:export[ \t]+)?${SECRET_KEY}[ \t]*=[ \t]*)(?![ \t]|\\*["'])[^\r\n\\]+`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // key="quoted value" (quotes possibly escaped), key='quoted value', key=[...], key=value / key: value pairs.
  {
    hint: '',
    pattern: new RegExp(
      String.raw`(\b${SECRET_KEY}["']?\s*[=:]\s*)(\\*)"(?:[^\\"\r\n]|\\+(?=[^"\\])|\2\\+")*?\2"`,
      'gi',
    ),
    replace: `$1$2"${REDACTED}$2"`,
  },
  {
    hint: '',
    pattern: new RegExp(String.raw`(\b${SECRET_KEY}["']?\s*[=:]\s*)'[^'\r\n]*'`, 'gi'),
    replace: `$1'${REDACTED}'`,
  },
  {
    hint: '',
    pattern: new RegExp(String.raw`(\b${SECRET_KEY}["']?\s*[=:]\s*)${FLAT_BRACKETED}`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  {
    hint: '',
    pattern: new RegExp(String.raw`(\b${SECRET_KEY}["']?\s*[=:]\s*)(?![\["'\\{])${BARE_VALUE}`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // CLI flags such as --password hunter2 / --token abc / --client-secret=x.
  {
    hint: '--',
    pattern: new RegExp(String.raw`(--${SECRET_KEY}[\s=]+)(?!-)(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // mysql/mariadb -p<password> or -p <password>; sshpass -p; docker/podman/helm login -p.
  {
    hint: 'mysql',
    pattern:
      /(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\r\n|;&]*?\s-p)(?!\s*-)\s*(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)/gi,
    replace: `$1${REDACTED}`,
  },
  {
    hint: 'maria',
    pattern: /(\b(?:mariadb|mariadb-dump)\b[^\r\n|;&]*?\s-p)(?!\s*-)\s*(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)/gi,
    replace: `$1${REDACTED}`,
  },
  {
    hint: 'sshpass',
    pattern: /(\bsshpass\b(?:\s+-[a-oq-zA-Z]\S*)*\s+-p)\s*(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)/g,
    replace: `$1${REDACTED}`,
  },
  {
    hint: 'login',
    pattern: /(\blogin\b[^\r\n|;&]*?\s-p)(?!\s*-)\s*(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)/g,
    replace: `$1${REDACTED}`,
  },
  // curl-style user:password credentials (-u, --user, -uuser:pw).
  {
    hint: '-u',
    pattern: /((?:^|\s|\\n)(?:-u|--user)(?:[\s=]+|(?=[^\s-]))(?:'|\\?")?[^\s:"'\\]*:)(?:'[^']*'|[^\s"'\\]+)/g,
    replace: `$1${REDACTED}`,
  },
  // `aws configure set <name> <value>`: the value of any setting (keys and secrets are set this way).
  {
    hint: 'configure',
    pattern: /(\baws\s+configure\s+set\s+\S+\s+)(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)/gi,
    replace: `$1${REDACTED}`,
  },
  // .netrc: `machine h login u password p` (one line or several).
  {
    hint: 'machine',
    pattern: /(\b(?:password|passwd|account)\s+)(?!\[REDACTED)(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)/gi,
    replace: `$1${REDACTED}`,
  },
  // Azure connection strings and SAS signatures.
  {
    hint: 'key=',
    pattern: /(\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)=)[^;"'\s\\]+/gi,
    replace: `$1${REDACTED}`,
  },
  { hint: 'sig=', pattern: /([?&;]sig=)[^&;"'\s\\]+/gi, replace: `$1${REDACTED}` },
  // A secret-named subscript or call argument: os.environ['X_TOKEN'] = '...', os.Setenv("API_TOKEN", "..."),
  // setdefault('SECRET', ...): the quoted name, then `] =` or `,`, then the value.
  {
    hint: '',
    pattern: new RegExp(String.raw`((\\*)["']${SECRET_KEY}\2["']\s*(?:\]\s*=|,)\s*)${QUOTED_OR_BARE}`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // XML elements named like a secret: <password>...</password>, <apiToken>...</apiToken>.
  {
    hint: '<',
    pattern: new RegExp(String.raw`(<(${SECRET_KEY})>)[^<]{1,4000}(?=</\2>)`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // Shell commands that take a secret-named variable and its value as two words: fish `set -x GITHUB_TOKEN v`,
  // csh `setenv`, `secret set NAME --body v` (gh), `user-secrets set "Db:Password" v`, rclone/aws `name value`
  // settings. Only names that say secret, only after these verbs.
  {
    hint: 'set',
    pattern: new RegExp(
      String.raw`(\b(?:set(?:\s+-[a-zA-Z]+)*|setenv|secrets?\s+set|user-secrets\s+set)\s+(?:\\*["'])?(?:[A-Za-z0-9_.-]{0,40}:)?${SECRET_KEY}(?:\\*["'])?\s+(?:(?:--body|-b)[\s=]+)?)(?!-)${QUOTED_OR_BARE}`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  {
    hint: 'secret',
    pattern: new RegExp(
      String.raw`(\bsecrets?\s+set\s+\S+\s+(?:[^\r\n|;&]*?\s)?(?:--body|-b)[\s=]+)${QUOTED_OR_BARE}`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // `rclone config create|update name type key value ...`: the value of each secret-named setting.
  {
    hint: 'config',
    pattern: new RegExp(
      String.raw`((?<=\bconfig\s+(?:create|update)\b[^\r\n|;&]*)\s${SECRET_KEY}\s+)(?!-)${QUOTED_OR_BARE}`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // curl cookies given on the command line (-b 'name=value; ...'; without `=` it is a cookie-jar file name).
  {
    hint: 'curl',
    pattern:
      /(\bcurl\b[^\r\n|;&]*?\s(?:-b|--cookie)[\s=]+)(?:'[^'=]*=[^']*'|\\*"[^"=\\]*=[^"\\]*\\*"|[^\s"'\\=]*=[^\s"'\\]+)/g,
    replace: `$1${REDACTED}`,
  },
  // Single-dash password options: openssl -pass/-passin/-passout pass:<pw>, keytool -storepass/-keypass <pw>.
  {
    hint: 'pass',
    pattern:
      /(\s-[a-z]*pass[a-z]*[\s=]+(?:pass:)?)(?!-|env:|file:|fd:|stdin\b)(?:'[^']*'|\\*"[^"\\]*\\*"|[^\s"'\\]+)/gi,
    replace: `$1${REDACTED}`,
  },
  { hint: 'pass:', pattern: /(\bpass:)(?:'[^']*'|\\*"[^"\\]*\\*"|[^\s"'\\]+)/g, replace: `$1${REDACTED}` },
  // Tools whose short option is a password: redis-cli -a, sqlcmd/bcp/osql -P, twine -p.
  {
    hint: '-',
    pattern: new RegExp(
      String.raw`(\b(?:redis-cli\b[^\r\n|;&]*?\s-a|(?:sqlcmd|bcp|osql)\b[^\r\n|;&]*?\s-P|twine\b[^\r\n|;&]*?\s-p)\s*)(?!-)${QUOTED_OR_BARE}`,
      'g',
    ),
    replace: `$1${REDACTED}`,
  },
  // htpasswd -b (password on the command line): its last argument.
  {
    hint: 'htpasswd',
    pattern: /(\bhtpasswd\s+-[a-zA-Z]*b[a-zA-Z]*\s[^\r\n|;&"'\\]*\s)(?:'[^']*'|\\*"[^"\\]*\\*"|[^\s"'\\|;&]+)/g,
    replace: `$1${REDACTED}`,
  },
  // `vault login <token>`.
  {
    hint: 'vault',
    pattern: new RegExp(String.raw`(\bvault\s+login\s+)(?!-)${QUOTED_OR_BARE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // A value echoed into a command that reads a password or secret from stdin (docker login --password-stdin,
  // chpasswd, passwd --stdin, wrangler/gh secret put|set).
  {
    hint: '|',
    pattern:
      /(\b(?:echo|printf)(?:\s+-[neE]+)*\s+)(?:'[^']*'|\\*"[^"\\]*\\*"|[^\s"'\\|]+)(?=\s*\|[^\r\n|;&]*?(?:-stdin\b|\bchpasswd\b|\bpasswd\b|\bsecrets?\s+(?:put|set|create)\b|\blogin\b))/g,
    replace: `$1${REDACTED}`,
  },
  // user:password after -a/--auth (httpie) as after -u/--user.
  {
    hint: '-a',
    pattern: /((?:^|\s|\\n)(?:-a|--auth)(?:[\s=]+|(?=[^\s-]))(?:'|\\?")?[^\s:"'\\]*:)(?:'[^']*'|[^\s"'\\]+)/g,
    replace: `$1${REDACTED}`,
  },
  // .pgpass lines: host:port:database:user:password.
  {
    hint: ':',
    pattern: /((?<![\w.:/-])(?=[^:\s]*[A-Za-z*])[A-Za-z0-9.*_-]+:(?:\d{1,5}|\*):[^\s:"'\\]+:[^\s:"'\\]+:)[^\s"'\\]+/g,
    replace: `$1${REDACTED}`,
  },
  // PuTTY private key files: the private lines and their MAC.
  {
    hint: 'private-lines',
    pattern: /(Private-Lines:\s*\d+)[\s\S]*?(?:Private-MAC:\s*[0-9a-fA-F]*|$)/g,
    replace: '$1 [REDACTED:private-key]',
  },
  // Webhook and bot URLs whose path is the credential.
  {
    hint: 'webhooks',
    pattern: /(discord(?:app)?\.com\/api\/webhooks\/\d+\/)[^\s"'\\/?#]+/gi,
    replace: `$1${REDACTED}`,
  },
  { hint: 'bot', pattern: /(\bbot\d{6,12}:)[A-Za-z0-9_-]{20,}/g, replace: `$1${REDACTED}` },
  { hint: ':', pattern: /(?<![A-Za-z0-9])(\d{8,12}:)AA[A-Za-z0-9_-]{30,}/g, replace: `$1${REDACTED}` },
  // Provider key shapes.
  { hint: 'sk-', pattern: /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{12,}/g, replace: `sk-${REDACTED}` },
  { hint: 'k_', pattern: /(?<![A-Za-z0-9])([sr]k_(?:live|test)_)[A-Za-z0-9]{10,}/g, replace: `$1${REDACTED}` },
  { hint: 'npm_', pattern: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, replace: `npm_${REDACTED}` },
  { hint: 'hf_', pattern: /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}/g, replace: `hf_${REDACTED}` },
  { hint: 'glpat-', pattern: /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g, replace: `glpat-${REDACTED}` },
  { hint: 'github_pat_', pattern: /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g, replace: `github_pat_${REDACTED}` },
  { hint: 'gh', pattern: /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g, replace: REDACTED },
  { hint: 'xox', pattern: /(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9-]{8,}/g, replace: REDACTED },
  { hint: 'xapp-', pattern: /(?<![A-Za-z0-9])xapp-[A-Za-z0-9-]{8,}/g, replace: REDACTED },
  {
    hint: 'hooks.slack.com',
    pattern: /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[^\s"'\\]+/g,
    replace: `$1${REDACTED}`,
  },
  { hint: 'a', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: REDACTED },
  { hint: 'aiza', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, replace: REDACTED },
  { hint: 'ya29.', pattern: /ya29\.[A-Za-z0-9_-]{20,}/g, replace: `ya29.${REDACTED}` },
  {
    hint: 'sg.',
    pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g,
    replace: `SG.${REDACTED}`,
  },
  { hint: 'lin_api_', pattern: /(?<![A-Za-z0-9])lin_api_[A-Za-z0-9]{30,}/g, replace: REDACTED },
  { hint: 'pypi-', pattern: /(?<![A-Za-z0-9])pypi-[A-Za-z0-9_-]{40,}/g, replace: `pypi-${REDACTED}` },
  { hint: 'hv', pattern: /(?<![A-Za-z0-9])(hv[sbr]\.)[A-Za-z0-9_-]{20,}/g, replace: `$1${REDACTED}` },
  { hint: 'base64:', pattern: /(\bbase64:)[A-Za-z0-9+/]{32,}={0,2}/g, replace: `$1${REDACTED}` },
  // JSON Web Tokens.
  { hint: 'eyj', pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g, replace: `${REDACTED}:jwt` },
  // Credentials in URLs: scheme://user:password@host, also with an empty user and with `@` inside the password
  // (the password runs to the last `@` before the host's path).
  {
    hint: '://',
    pattern: /(:\/\/[^\s:/@"'\\]{0,200}:)[^\s/?#"'\\]{0,400}@(?=[^\s@/?#"'\\]*(?:[/?#\s"'\\]|$))/g,
    replace: `$1${REDACTED}@`,
  },
  // A URL's userinfo without a password (Sentry DSN keys, tokens used as user names); a short lowercase login
  // name such as `git@` or `deploy@` is kept.
  {
    hint: '://',
    pattern:
      /(:\/\/)(?![a-z_][a-z0-9._-]{0,15}@)(?!\[REDACTED)[^\s:/@"'\\]{1,200}@(?=[^\s@/?#"'\\]*(?:[/?#\s"'\\]|$))/g,
    replace: `$1${REDACTED}@`,
  },
];

/** Replaces every secret-looking value in `text` with a redaction marker. Text without secrets is returned as is. */
export function redact(text: string): string {
  const lower = text.toLowerCase();
  let out = text;
  for (const rule of RULES) {
    if (rule.hint !== '' && !lower.includes(rule.hint)) continue;
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace);
  }
  return out.includes(PEM_END) ? redactOrphanKeyTails(out) : out;
}

const PEM_END = '-----END';
const PEM_END_LINE = /-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
/** Characters of a PEM body: base64, whitespace, and the `\n` / `\r` escapes it has inside a JSON string. */
const PEM_BODY_CHAR = /[A-Za-z0-9+/=\s]/;

/**
 * The tail of a private key whose BEGIN line was cut off (e.g. by a preview window) ends with an END line:
 * remove the END line and the key body before it. Walks backwards in linear time (a regex here would backtrack).
 */
function redactOrphanKeyTails(text: string): string {
  let out = '';
  let copiedUpTo = 0;
  for (const match of text.matchAll(PEM_END_LINE)) {
    let start = match.index;
    while (start > copiedUpTo) {
      const char = text[start - 1] as string;
      if ((char === 'n' || char === 'r') && text[start - 2] === '\\') start -= 2;
      else if (PEM_BODY_CHAR.test(char)) start -= 1;
      else break;
    }
    out += `${text.slice(copiedUpTo, start)}[REDACTED:private-key]`;
    copiedUpTo = match.index + match[0].length;
  }
  return out + text.slice(copiedUpTo);
}
