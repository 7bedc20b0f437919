/**
 * Secret redaction shared by every package that shows or stores model text: structural redaction (the value of
 * every secret-named key, in objects and in JSON strings at any escaping depth) and ordered text patterns
 * (labelled values, command-line shapes, provider token prefixes, private keys, URL credentials). One copy: the
 * engine's descriptions (`text.ts`) and telemetry-store's stored texts both use it. Pure module: safe in browsers.
 */
/** Marker that replaces a secret value. */
export const REDACTED = '[REDACTED]';

/**
 * Where a token may start: not right after a letter or digit, unless that letter is escaped (`\\n`: a token at the
 * start of a line of file content that was JSON-encoded, whose `n` is a letter). One nested look-behind: cheaper,
 * at every position of a text, than two look-behinds in an alternation.
 */
const TOKEN_START = String.raw`(?<!(?<!\\)[A-Za-z0-9])`;
/** The same for a rule that starts at a word (a command at the start of an encoded line): `\b` or an escape. */
const WORD_START = String.raw`(?<!(?<!\\)\w)`;

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

/**
 * Prefixes and suffixes that make a `token` name a count or a limit (`max_tokens`, `tokenCount`), not a secret
 * (`adminToken` is one: its `min` is part of `admin`).
 */
const TOKEN_COUNT_PREFIX = '(?:max|(?<!ad)min|num|input|output|prompt|completion|total|cached|reasoning|context)[_-]?';
const TOKEN_COUNT_SUFFIX = 's?[_-]?(?:count|limit|budget|usage|used|length|len)(?![a-z])';
// The literal first, the look-behind after it: a look-behind tried at every position costs more than the match.
const TOKEN_NOT_A_COUNT = `token(?<!${TOKEN_COUNT_PREFIX}token)(?!${TOKEN_COUNT_SUFFIX})`;
const TOKEN_COUNT_NAME = new RegExp(`^${TOKEN_COUNT_PREFIX}tokens?$|^tokens?${TOKEN_COUNT_SUFFIX}$`);

/**
 * The word of a key name that says it holds a secret, and the rest of the name after it. Used unanchored (no
 * leading part): the rules that find `key = value` anywhere start at the word itself, so a long identifier run
 * is never re-scanned from each of its characters. Two-word key names may be spelled with a space, as a label in
 * prose or on a settings page is (`API key:`, `Secret key:` and the value after it or on the next line).
 */
const SECRET_WORD = String.raw`(?:password|passwd|passphrase|secret|${TOKEN_NOT_A_COUNT}|api[ _-]?key|access[ _-]?key|private[ _-]?key|account[ _-]?key|secret key|credentials?|signing[ _-]?key|encryption[ _-]?key|master[ _-]?key|session[_.-]?id|requirepass|masterauth|auth[_-]?code|[A-Za-z0-9][_.-]?pwd|_pass|_auth(?![A-Za-z])|_creds?(?![A-Za-z])|_salt(?![A-Za-z])|[A-Za-z0-9][_.-]?key(?![A-Za-z])|(?:pwd|pw|pass)(?<![A-Za-z0-9_.-](?:pwd|pw|pass))(?=\\*["']?\s*=))`;
const SECRET_KEY_TAIL = String.raw`${SECRET_WORD}[A-Za-z0-9_.-]{0,40}`;
/** A flag or variable name, captured whole (dash-separated parts, so a run of `--x--x` is not one name). */
const FLAG_NAME = String.raw`[A-Za-z0-9_.]{1,60}(?:-[A-Za-z0-9_.]{1,60}){0,8}`;
const SECRET_WORD_IN_NAME = new RegExp(SECRET_WORD, 'i');
/** True when a captured flag or variable name says it holds a secret (read as if `name=` followed). */
function namesSecret(name: string): boolean {
  return SECRET_WORD_IN_NAME.test(`${name}=`);
}
/** A whole key name that says it holds a secret, for rules anchored at the name's start (a quote, `<`, `--`). */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]{0,40}${SECRET_KEY_TAIL}`;
/** The same, plus whole key names that are secret only as a whole (`"auth"` in docker's config.json). */
const JSON_SECRET_KEY = String.raw`(?:${SECRET_KEY}|auth|pw|pwd|pass)`;
/**
 * Names that say secret only by their last word, after a case or separator boundary: camelCase `twilioAuth`,
 * `adminPass`, `clientCreds`, `hashSalt` (case-sensitive: a capital starts the word, so `author`, `bypass` and
 * `compass` are no such names), kebab-case or dotted `twilio-auth`, `db.pass`, `hash-salt`, and `auth` as a whole
 * key (`{ auth: '...' }`). The word ends the name (`authUrl`, `passCount`, `auth.enabled` are not secret names).
 * Snake-case forms (`_auth`, `_pass`) are in SECRET_WORD. Starts at a fixed-length word: no run is re-scanned.
 */
const WEAK_SECRET_NAME = String.raw`(?:[A-Za-z0-9]Auth|[a-z0-9](?:Pass|Creds?|Salt)|[.-](?:[Aa]uth|AUTH|[Pp]ass|PASS|[Cc]reds?|CREDS?|[Ss]alt|SALT)|(?:auth|Auth|AUTH)(?<![A-Za-z0-9_.-]....))(?![A-Za-z0-9_.-])`;
/**
 * An assignment or key separator: `=`, `:`, Go's `:=`, Make's `?=`, `=>` (PHP, Ruby) and a TypeScript annotation
 * (`: string =`, at most 60 characters of type) before a quoted value; then spaces, newlines and up to 64 escaped
 * newlines at any depth (the value on the line after its label, also inside encoded text; bounded, so a run of
 * them does not grow the engine's backtracking stack).
 */
const ASSIGN = String.raw`(?:=>(?=\s*\\*["'\x60])|:[ \t]*[A-Za-z_][\w.<>[\]|? \t]{0,60}?[ \t]=(?=[ \t]*\\*["'\x60])|[:?]?=|:)\s*(?:\\+[nrt]\s*){0,64}`;
/**
 * A quoted value (a double-quoted one at any escaping depth, see the key-value rule) or a template literal. A run of
 * plain characters is one step of the scan, taken whole (a look-ahead captured and matched by back-reference, group 3
 * of every pattern that uses this): a step per character grows the engine's backtracking stack until a multi-MB
 * value throws, and a plain `+` inside the loop could be split every way when no closing quote comes.
 */
const QUOTED_VALUE = String.raw`(?:(\\*)"(?:(?=([^\\"\r\n]+))\3|\\+(?=[^"\\])|\2\\+")*?\2"|'[^'\r\n]*'|\x60[^\x60]{0,4000}\x60)`;
/**
 * A quoted value whose closing quote never comes (a program cut after `token = "sk-...`): the quote and the word after
 * it, up to the end of the line or text (a space or an escaped newline there). Tried after QUOTED_VALUE only.
 */
const UNCLOSED_QUOTED = String.raw`\\*["'][^\s"'\\]+(?=\s|\\+[nrt]|$)`;
/** A bare value with a digit in it (`db.pass=s3cret`; `auth: enabled` is a setting); its scan stops at `=`/`:`. */
const BARE_VALUE_WITH_DIGIT = String.raw`(?![(\[{])(?=[^\s"'\\,;)\]}=:]*[0-9])[^\s"'\\,;)\]}]+`;
/** A bare value that is a type or a literal (`password: string`, `token?: null`), not a secret. */
const TYPE_WORD = String.raw`(?:string|number|boolean|bigint|unknown|any|undefined|null|true|false|None|str|int|bool)(?![A-Za-z0-9_.-])`;
/**
 * Value of an unquoted `key=value`: up to whitespace, a quote or an escape; `&`/`;` end it only before another `key=`.
 * Runs of plain characters are one step each (a step per character overflows the backtracking stack on a multi-MB
 * value); it ends its pattern, so the match never backtracks into it.
 */
const BARE_VALUE = String.raw`(?:[^\s"'\\&;]+|[&;](?![A-Za-z_][A-Za-z0-9_.-]{0,60}=))+`;
/** A flat bracketed value: `[...]` or `{...}` without nesting (an opening bracket ends the search, so it stays linear). */
const FLAT_BRACKETED = String.raw`(?:\[[^[\]\r\n]{0,4000}\]|\{[^{}\r\n]{0,4000}\})`;
/** A quoted value (quotes possibly escaped) or a bare word. */
const QUOTED_OR_BARE = String.raw`(?:'[^'\r\n]*'|\\*"[^"\\\r\n]*\\*"|[^\s"'\\,)\]]+)`;
/** A command-line value: quoted (quotes possibly escaped) or one bare word. */
const ARG_VALUE = String.raw`(?:'[^']*'|\\*"[^"\\]*\\*"|[^\s"'\\]+)`;
const PRIVATE_KEY_BLOCK =
  /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g;

/** A weak secret name's head (name, quote, separator) whose name ends in `auth`. */
const AUTH_NAME_END = /auth(?:\\*["'])?[ \t]*[:=?>]/i;
/** A quoted value that is one plain word (`"oauth"`, `'Basic'`). */
const PLAIN_WORD_VALUE = /^\\*["'`][A-Za-z]?[a-z]{0,30}\\*["'`]$/;

/** The replacement of a `key = value` match: the key kept, the value replaced in its own quotes. */
function replaceValue(match: string, key = '', backslashes?: string): string {
  const first = match[key.length];
  if (backslashes !== undefined) return `${key}${backslashes}"${REDACTED}${backslashes}"`;
  if (first === "'") return `${key}'${REDACTED}'`;
  if (first === '`') return `${key}\`${REDACTED}\``;
  return `${key}${REDACTED}`;
}

/** Token shapes known by their provider prefix (each is replaced whole). */
const PROVIDER_TOKENS = [
  String.raw`shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,}`, // Shopify
  String.raw`dapi[a-fA-F0-9]{32}(?:-[0-9])?`, // Databricks
  String.raw`gsk_[A-Za-z0-9]{40,}`, // Groq
  String.raw`tskey-[a-z]{2,20}-[A-Za-z0-9_]{8,}-[A-Za-z0-9_]{16,}`, // Tailscale
  String.raw`glc_[A-Za-z0-9+/]{32,}={0,2}`, // Grafana Cloud
  String.raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}`, // Grafana service account
  String.raw`figd_[A-Za-z0-9_-]{40,}`, // Figma
  String.raw`ntn_[A-Za-z0-9]{40,}`, // Notion (2024 format)
  String.raw`secret_[A-Za-z0-9]{40,}`, // Notion (older integration tokens)
  String.raw`v(?:cp|ci|ca|cr|ck)_[A-Za-z0-9]{20,}`, // Vercel
  String.raw`cf(?:k|ut|at)_[A-Za-z0-9]{40,}`, // Cloudflare
  String.raw`dckr_pat_[A-Za-z0-9_-]{20,}`, // Docker Hub
  String.raw`whsec_[A-Za-z0-9+/=]{24,}`, // Stripe webhook signing secret
  String.raw`ops_ey[A-Za-z0-9+/=_-]{50,}`, // 1Password service account (base64 JSON, standard or URL alphabet)
  String.raw`[A-Za-z0-9]{10,20}\.atlasv1\.[A-Za-z0-9_=-]{40,}`, // Terraform Cloud / HCP
  String.raw`gl(?:ptt|dt|rt|ft|soat|agent)-[A-Za-z0-9_-]{20,}`, // GitLab trigger/deploy/runner/feed/agent tokens
  String.raw`sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}`, // Square
  String.raw`dop_v1_[a-f0-9]{64}|do[or]_v1_[a-f0-9]{64}`, // DigitalOcean
  String.raw`pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{30,}`, // PlanetScale
  String.raw`rubygems_[a-f0-9]{48}`, // RubyGems
  String.raw`sntry[su]_[A-Za-z0-9+/=_]{40,}`, // Sentry org and user auth tokens
  String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`, // Postman
  String.raw`xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}`, // Brevo (Sendinblue)
  String.raw`ATATT3[A-Za-z0-9_=-]{100,}`, // Atlassian API token
  String.raw`dp\.(?:pt|st|sa|ct)\.[A-Za-z0-9_-]{40,}`, // Doppler
  String.raw`pul-[a-f0-9]{40}`, // Pulumi
  String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`, // Airtable
  String.raw`r8_[A-Za-z0-9]{37}`, // Replicate
  String.raw`pplx-[A-Za-z0-9]{48}`, // Perplexity
  String.raw`xai-[A-Za-z0-9]{70,}`, // xAI
  String.raw`nvapi-[A-Za-z0-9_-]{60,}`, // NVIDIA
  String.raw`tvly-[A-Za-z0-9-]{30,}`, // Tavily
  String.raw`AGE-SECRET-KEY-1[A-Z0-9]{50,}`, // age
  String.raw`EAA[A-Za-z0-9]{100,}`, // Meta / Facebook access token
  String.raw`SK[a-f0-9]{32}`, // Twilio API key
  String.raw`key-[a-f0-9]{32}`, // Mailgun
  String.raw`lin_api_[A-Za-z0-9]{30,}`, // Linear
  String.raw`(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[0-9A-Z]{16}`, // AWS key and principal ids (secretlint's set)
  String.raw`AIza[0-9A-Za-z_-]{35}`, // Google API key (may end in - or _)
  String.raw`xox[abposre]-[A-Za-z0-9-]{8,}`, // Slack
  String.raw`xapp-[A-Za-z0-9-]{8,}`, // Slack app-level (xapp-1-...)
  String.raw`gh[pousr]_[A-Za-z0-9]{20,}`, // GitHub
  String.raw`ghs_[0-9]{1,20}_[A-Za-z0-9_.-]{20,}`, // GitHub App installation token (ghs_<id>_<JWT>)
  String.raw`(?<![_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}`, // Discord bot token
];

/**
 * One redaction rule. `pattern` runs only when the lowercase `hint` occurs in the text ('' = always). With
 * `command`, the pattern runs only inside each command's segment: from the command word to the end of that
 * simple command (a newline, `|`, `;` or `&`), so "a flag anywhere after the command" costs one pass, not one
 * scan to the end of the line per occurrence of the command word.
 */
export interface RedactionRule {
  /** Short name, for the benchmark and the tests. */
  name: string;
  hint: string;
  pattern: RegExp;
  /** The replacement: a `$1`-style string, or a function of the match and its groups. */
  replace: string | ((match: string, ...groups: (string | undefined)[]) => string);
  command?: RegExp;
}

/**
 * Ordered replacements: structural text forms first (they keep their label), then command-line shapes agents
 * type, then bare token shapes. Every pattern is linear in its input: no unbounded run is followed by a part
 * that can fail and send the engine back over it, or started again from each character of the run
 * (`tests/redact-linear.test.ts` and `bench/redact.bench.mjs` in telemetry-store time crafted worst cases).
 */
export const RULES: readonly RedactionRule[] = [
  // PEM and PGP private keys, including one cut off before its END line.
  { name: 'private-key', hint: 'private key', pattern: PRIVATE_KEY_BLOCK, replace: '[REDACTED:private-key]' },
  // Authorization / Proxy-Authorization and Cookie header values (whole value up to the end of the line or quote).
  {
    name: 'authorization-header',
    hint: 'authorization',
    pattern: /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\r\n"'\\]+/gi,
    replace: `$1${REDACTED}`,
  },
  {
    name: 'cookie-header',
    hint: 'cookie',
    pattern: /((?:set-)?cookie["']?\s*:\s*["']?)[^\r\n"'\\]+/gi,
    replace: `$1${REDACTED}`,
  },
  // Bearer credentials anywhere; Basic ones when the value looks encoded (so "basic example" stays prose).
  {
    name: 'bearer',
    hint: 'bearer',
    pattern: new RegExp(String.raw`${WORD_START}(bearer)(\s+)[A-Za-z0-9._~+/=-]{6,}`, 'gi'),
    replace: `$1$2${REDACTED}`,
  },
  // `token <value>` (GitHub's `Authorization: token x`, prose that pastes one) when the value has a digit.
  {
    name: 'token-word',
    hint: 'token',
    pattern: new RegExp(String.raw`${WORD_START}(token)(\s+)(?=[A-Za-z._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{8,}`, 'gi'),
    replace: `$1$2${REDACTED}`,
  },
  {
    name: 'basic',
    hint: 'basic',
    pattern: new RegExp(
      String.raw`${WORD_START}([Bb]asic|BASIC)(\s+)(?=[A-Za-z0-9+/]*(?:[0-9+/=]|[a-z][A-Z]))[A-Za-z0-9+/]{6,}=*`,
      'g',
    ),
    replace: `$1$2${REDACTED}`,
  },
  // JSON keys, also inside JSON strings at any escaping depth (\"token\": \"value\"): a string value ends at a
  // quote preceded by exactly as many backslashes as the key's quotes; deeper-escaped quotes are content. The
  // key's backslashes start where a run of backslashes starts, so a long run is not tried from each of its
  // characters.
  {
    name: 'json-key-string',
    hint: '"',
    pattern: new RegExp(
      String.raw`((?<!\\)(\\*)"${JSON_SECRET_KEY}\2"\s*:\s*)\2"(?:(?=([^\\"]+))\3|\\+(?=[^"\\])|\2\\+")*?\2"`,
      'gi',
    ),
    replace: `$1$2"${REDACTED}$2"`,
  },
  // ... and a value of another type: number, literal, flat array or object.
  {
    name: 'json-key-other',
    hint: '"',
    pattern: new RegExp(
      String.raw`((?<!\\)(\\*)"${JSON_SECRET_KEY}\2"\s*:\s*)(?:-?[0-9][0-9.eE+-]*|true|false|null|${FLAT_BRACKETED})`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // Python dict keys: 'token': 'value' (a run of plain characters is one step, as in QUOTED_VALUE).
  {
    name: 'python-dict-key',
    hint: "'",
    pattern: new RegExp(
      String.raw`('${JSON_SECRET_KEY}'\s*:\s*)(?:'(?:(?=([^'\\]+))\2|\\[\s\S])*'|-?[0-9][0-9.]*|${FLAT_BRACKETED})`,
      'gi',
    ),
    replace: `$1'${REDACTED}'`,
  },
  // A .env / shell line assigning a secret-named variable: everything to the end of the line.
  {
    name: 'env-line',
    hint: '=',
    pattern: new RegExp(
      String.raw`((?:^|\\n|\n)[ \t]*(?:export[ \t]+)?${SECRET_KEY}[ \t]*=[ \t]*)(?![ \t]|\\*["'\x60])[^\r\n\\]+`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // key="quoted value" (quotes possibly escaped), key='quoted value', key=`template`, key=[...], key=value and
  // key: value pairs: one pattern (one pass over the text), the value's first character picks the replacement.
  {
    name: 'key-value',
    hint: '',
    pattern: new RegExp(
      String.raw`(${SECRET_KEY_TAIL}(?:\\*["'])?\s*${ASSIGN})(?:${QUOTED_VALUE}|${UNCLOSED_QUOTED}|${FLAT_BRACKETED}|(?![\["'\\{\x60>])(?!${TYPE_WORD})${BARE_VALUE})`,
      'gi',
    ),
    replace: replaceValue,
  },
  // A name whose last word says secret only at a case or separator boundary (`const twilioAuth = '...'`,
  // `db-pass: s3cret`, `{ auth: 'ops_...' }`): case-sensitive; a quoted value, or a bare one with a digit. After an
  // `auth` name a quoted plain word is a setting (`useAuth: "oauth"`, `auth: 'basic'`) and stays.
  {
    name: 'weak-secret-name',
    hint: '',
    pattern: new RegExp(
      String.raw`(${WEAK_SECRET_NAME}(?:\\*["'])?[ \t]*${ASSIGN})(?:${QUOTED_VALUE}|${BARE_VALUE_WITH_DIGIT})`,
      'g',
    ),
    replace: (match: string, head = '', backslashes?: string) =>
      AUTH_NAME_END.test(head) && PLAIN_WORD_VALUE.test(match.slice(head.length))
        ? match
        : replaceValue(match, head, backslashes),
  },
  // CLI flags such as --password hunter2 / --token abc / --client-secret=x / --requirepass x.
  {
    name: 'cli-flag',
    hint: '--',
    pattern: new RegExp(String.raw`((?<!-)--(${FLAG_NAME})[\s=]+)(?!-)${ARG_VALUE}`, 'g'),
    replace: (match: string, flag = '', name = '') => (namesSecret(name) ? `${flag}${REDACTED}` : match),
  },
  // Config directives whose value follows a space: redis.conf `requirepass x` / `masterauth x`.
  {
    name: 'redis-conf',
    hint: '',
    pattern: new RegExp(
      String.raw`(${WORD_START}(?:requirepass|masterauth)\s+)(?!\[REDACTED)(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // mysql/mariadb -p<password> or -p <password>; docker/podman/helm login -p; sshpass -p.
  {
    name: 'mysql-p',
    hint: 'mysql',
    command: new RegExp(String.raw`${WORD_START}(?:mysql|mysqldump|mysqladmin)\b`, 'gi'),
    pattern: new RegExp(String.raw`(\s-p)(?!\s*-)\s*${ARG_VALUE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'mariadb-p',
    hint: 'maria',
    command: new RegExp(String.raw`${WORD_START}(?:mariadb|mariadb-dump)\b`, 'gi'),
    pattern: new RegExp(String.raw`(\s-p)(?!\s*-)\s*${ARG_VALUE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'sshpass',
    hint: 'sshpass',
    pattern: new RegExp(String.raw`(${WORD_START}sshpass\b(?:\s+-[a-oq-zA-Z]\S{0,200}){0,8}\s+-p)\s*${ARG_VALUE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'login-p',
    hint: 'login',
    command: new RegExp(String.raw`${WORD_START}login\b`, 'g'),
    pattern: new RegExp(String.raw`(\s-p)(?!\s*-)\s*${ARG_VALUE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // curl-style user:password credentials (-u, --user, -uuser:pw) and httpie's -a/--auth.
  {
    name: 'user-colon-password',
    hint: '-',
    pattern:
      /((?:^|\s|\\n)(?:-u|--user|-a|--auth)(?:[\s=]+(?=[^\s=-])|(?=[^\s=-]))(?:'|\\?")?[^\s:"'\\=]*:)(?:'[^']*'|[^\s"'\\]+)/g,
    replace: `$1${REDACTED}`,
  },
  // `aws configure set <name> <value>`: the value of any setting (keys and secrets are set this way).
  {
    name: 'aws-configure-set',
    hint: 'configure',
    pattern: new RegExp(String.raw`(${WORD_START}aws\s+configure\s+set\s+\S+\s+)${ARG_VALUE}`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // .netrc: `machine h login u password p` (one line or several).
  {
    name: 'netrc',
    hint: 'machine',
    pattern: new RegExp(
      String.raw`(${WORD_START}(?:password|passwd|account)\s+)(?!\[REDACTED)(?:'[^']*'|\\?"[^"\\]*\\?"|[^\s"'\\]+)`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // Azure connection strings and SAS signatures; signed URLs (AWS SigV4, Google).
  {
    name: 'azure-key',
    hint: 'key=',
    pattern: new RegExp(
      String.raw`(${WORD_START}(?:AccountKey|SharedAccessKey|SharedAccessSignature)=)[^;"'\s\\]+`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  { name: 'sas-sig', hint: 'sig=', pattern: /([?&;]sig=)[^&;"'\s\\]+/gi, replace: `$1${REDACTED}` },
  {
    name: 'signed-url',
    hint: 'x-',
    pattern: new RegExp(
      String.raw`(${WORD_START}X-(?:Amz|Goog)-(?:Signature|Credential|Security-Token)=)[^&\s"'\\#]+`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  // A secret-named subscript or call argument: os.environ['X_TOKEN'] = '...', os.Setenv("API_TOKEN", "..."),
  // setdefault('SECRET', ...): the quoted name, then `] =` or `,`, then the value.
  {
    name: 'subscript-or-argument',
    hint: '',
    pattern: new RegExp(String.raw`((?<!\\)(\\*)["']${SECRET_KEY}\2["']\s*(?:\]\s*=|,)\s*)${QUOTED_OR_BARE}`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // Python requests' auth=("user", "pw") and HTTPBasicAuth("user", "pw"): the second string.
  {
    name: 'python-auth-tuple',
    hint: 'auth',
    pattern: new RegExp(
      String.raw`(${WORD_START}(?:auth\s*=\s*\(|(?:HTTPBasicAuth|HTTPDigestAuth|BasicAuth|basic_auth)\s*\(|auth\s*=\s*\[)\s*(?:'[^'\r\n]{0,200}'|\\*"[^"\\\r\n]{0,200}\\*")\s*,\s*)(?:'[^'\r\n]*'|\\*"[^"\\\r\n]*\\*"|[^\s,)\]]+)`,
      'g',
    ),
    replace: `$1'${REDACTED}'`,
  },
  // XML elements named like a secret: <password>...</password>, <apiToken>...</apiToken>.
  {
    name: 'xml-element',
    hint: '<',
    pattern: new RegExp(String.raw`(<(${SECRET_KEY})>)[^<]{1,4000}(?=</\2>)`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // ... and the same for names that end in a weak secret word (`<twilioAuth>`, `<db-pass>`), case-sensitive.
  {
    name: 'xml-weak-element',
    hint: '<',
    pattern: new RegExp(String.raw`(<([A-Za-z0-9_.-]{0,40}${WEAK_SECRET_NAME})>)[^<]{1,4000}(?=</\2>)`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // Shell commands that take a secret-named variable and its value as two words: fish `set -x GITHUB_TOKEN v`,
  // csh `setenv`, `secret set NAME --body v` (gh), `user-secrets set "Db:Password" v`, rclone/aws `name value`
  // settings. Only names that say secret, only after these verbs.
  {
    name: 'set-name-value',
    hint: 'set',
    pattern: new RegExp(
      String.raw`(${WORD_START}(?:set(?:\s+-[a-zA-Z]{1,8}){0,4}|setx|setenv|secrets?\s+set|user-secrets\s+set)\s+(?:\\*["'])?(?!-)([A-Za-z0-9_.:-]{1,80})(?:\\*["'])?\s+(?:(?:--body|-b)[\s=]+)?)(?!-)${QUOTED_OR_BARE}`,
      'gi',
    ),
    replace: (match: string, head = '', name = '') => (namesSecret(name) ? `${head}${REDACTED}` : match),
  },
  {
    name: 'secret-set-body',
    hint: 'secret',
    command: new RegExp(String.raw`${WORD_START}secrets?\s+set\b`, 'gi'),
    pattern: new RegExp(String.raw`(\s(?:--body|-b)[\s=]+)(?!\[REDACTED)${QUOTED_OR_BARE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // `rclone config create|update name type key value ...`: the value of each secret-named setting.
  {
    name: 'rclone-config',
    hint: 'config',
    command: new RegExp(String.raw`${WORD_START}config\s+(?:create|update)\b`, 'gi'),
    pattern: new RegExp(String.raw`(\s${SECRET_KEY}\s+)(?!-)${QUOTED_OR_BARE}`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // curl cookies given on the command line (-b 'name=value; ...'; without `=` it is a cookie-jar file name).
  {
    name: 'curl-cookie',
    hint: 'curl',
    command: new RegExp(String.raw`${WORD_START}curl\b`, 'g'),
    pattern: /(\s(?:-b|--cookie)[\s=]+)(?:'[^'=]*=[^']*'|\\*"[^"=\\]*=[^"\\]*\\*"|[^\s"'\\=]*=[^\s"'\\]+)/g,
    replace: `$1${REDACTED}`,
  },
  // Single-dash password options: openssl -pass/-passin/-passout pass:<pw>, keytool -storepass/-keypass <pw>.
  {
    name: 'dash-pass-option',
    hint: 'pass',
    pattern: new RegExp(
      String.raw`(\s-[a-z]{0,16}pass[a-z]{0,16}[\s=]+(?:pass:)?)(?!-|env:|file:|fd:|stdin\b)${ARG_VALUE}`,
      'gi',
    ),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'pass-colon',
    hint: 'pass:',
    pattern: new RegExp(String.raw`(${WORD_START}pass:)${ARG_VALUE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // Tools whose short option is a password: redis-cli -a, sqlcmd/bcp/osql -P, twine -p.
  {
    name: 'redis-cli-a',
    hint: 'redis-cli',
    command: new RegExp(String.raw`${WORD_START}redis-cli\b`, 'g'),
    pattern: new RegExp(String.raw`(\s-a\s*)(?!-)${QUOTED_OR_BARE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'sqlcmd-P',
    hint: '',
    command: new RegExp(String.raw`${WORD_START}(?:sqlcmd|bcp|osql)\b`, 'g'),
    pattern: new RegExp(String.raw`(\s-P\s*)(?!-)${QUOTED_OR_BARE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'twine-p',
    hint: 'twine',
    command: new RegExp(String.raw`${WORD_START}twine\b`, 'g'),
    pattern: new RegExp(String.raw`(\s-p\s*)(?!-)${QUOTED_OR_BARE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // Archivers and key tools that take the password as an option: zip/unzip -P, 7z -p<pw>, ssh-keygen -N/-P.
  {
    name: 'archive-password',
    hint: '',
    command: new RegExp(String.raw`${WORD_START}(?:zip|unzip|7z|7za|ssh-keygen)\b`, 'g'),
    pattern: new RegExp(String.raw`(\s-(?:P\s+|p(?=[^\s-])|[NP]\s+))(?!-)${QUOTED_OR_BARE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // htpasswd -b (password on the command line): its last argument.
  {
    name: 'htpasswd-b',
    hint: 'htpasswd',
    command: new RegExp(String.raw`${WORD_START}htpasswd\b`, 'g'),
    pattern: /^(htpasswd\s+-[a-zA-Z]*b[a-zA-Z]*\s[^\r\n|;&"'\\]*\s)(?:'[^']*'|\\*"[^"\\]*\\*"|[^\s"'\\|;&]+)/,
    replace: `$1${REDACTED}`,
  },
  // `vault login <token>`.
  {
    name: 'vault-login',
    hint: 'vault',
    pattern: new RegExp(String.raw`(${WORD_START}vault\s+login\s+)(?!-)${QUOTED_OR_BARE}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // A value echoed into a command that reads a password or secret from stdin (docker login --password-stdin,
  // chpasswd, passwd --stdin, sudo -S, wrangler/gh secret put|set).
  {
    name: 'echo-to-stdin',
    hint: '|',
    pattern: new RegExp(
      String.raw`(${WORD_START}(?:echo(?:\s+-[neE]+)*|printf(?:\s+(?:'[^'\r\n]{0,100}'|\\*"[^"\r\n]{0,100}"))?)\s+)(?:'[^']*'|\\*"[^"\\]*\\*"|[^\s"'\\|]+)(?=\s*\|[^\r\n|;&]*?(?:-stdin\b|\bchpasswd\b|\bpasswd\b|\bsudo\b[^\r\n|;&]*?\s(?:-S|--stdin)\b|\bsecrets?\s+(?:put|set|create)\b|\blogin\b))`,
      'g',
    ),
    replace: `$1${REDACTED}`,
  },
  // .pgpass lines: host:port:database:user:password (the host starts where a run of host characters starts).
  {
    name: 'pgpass',
    hint: ':',
    pattern:
      /((?<!(?<!\\)[\w.:/*-])(?=[A-Za-z0-9.*_-]*[A-Za-z*])[A-Za-z0-9.*_-]+:(?:\d{1,5}|\*):[^\s:"'\\]+:[^\s:"'\\]+:)[^\s"'\\]+/g,
    replace: `$1${REDACTED}`,
  },
  // PuTTY private key files: the private lines and their MAC.
  {
    name: 'putty-key',
    hint: 'private-lines',
    pattern: /(Private-Lines:\s*\d+)[\s\S]*?(?:Private-MAC:\s*[0-9a-fA-F]*|$)/g,
    replace: '$1 [REDACTED:private-key]',
  },
  // Webhook and bot URLs whose path is the credential.
  {
    name: 'discord-webhook',
    hint: 'webhooks',
    pattern: /(discord(?:app)?\.com\/api\/webhooks\/\d+\/)[^\s"'\\/?#]+/gi,
    replace: `$1${REDACTED}`,
  },
  {
    name: 'telegram-bot-url',
    hint: 'bot',
    pattern: new RegExp(String.raw`(${WORD_START}bot\d{6,12}:)[A-Za-z0-9_-]{20,}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'telegram-bot-token',
    hint: ':',
    pattern: new RegExp(String.raw`${TOKEN_START}(\d{8,12}:)AA[A-Za-z0-9_-]{30,}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // Provider key shapes that keep their prefix, then the ones replaced whole.
  {
    name: 'openai-style',
    hint: 'sk-',
    pattern: new RegExp(String.raw`${TOKEN_START}sk-[A-Za-z0-9_-]{12,}`, 'g'),
    replace: `sk-${REDACTED}`,
  },
  {
    name: 'stripe',
    hint: 'k_',
    pattern: new RegExp(String.raw`${TOKEN_START}([sr]k_(?:live|test)_)[A-Za-z0-9]{10,}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'npm',
    hint: 'npm_',
    pattern: new RegExp(String.raw`${TOKEN_START}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])`, 'g'),
    replace: `npm_${REDACTED}`,
  },
  {
    name: 'huggingface',
    hint: 'hf_',
    pattern: new RegExp(String.raw`${TOKEN_START}hf_[A-Za-z0-9]{30,}`, 'g'),
    replace: `hf_${REDACTED}`,
  },
  {
    name: 'gitlab-pat',
    hint: 'glpat-',
    pattern: new RegExp(String.raw`${TOKEN_START}glpat-[A-Za-z0-9_-]{20,}`, 'g'),
    replace: `glpat-${REDACTED}`,
  },
  {
    name: 'github-fine-grained',
    hint: 'github_pat_',
    pattern: new RegExp(String.raw`${TOKEN_START}github_pat_[A-Za-z0-9_]{20,}`, 'g'),
    replace: `github_pat_${REDACTED}`,
  },
  {
    name: 'provider-prefixed',
    hint: '',
    pattern: new RegExp(String.raw`${TOKEN_START}(?:${PROVIDER_TOKENS.join('|')})(?![A-Za-z0-9])`, 'g'),
    replace: REDACTED,
  },
  {
    name: 'slack-webhook',
    hint: 'hooks.slack.com',
    pattern: /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[^\s"'\\]+/g,
    replace: `$1${REDACTED}`,
  },
  { name: 'google-oauth', hint: 'ya29.', pattern: /ya29\.[A-Za-z0-9_-]{20,}/g, replace: `ya29.${REDACTED}` },
  {
    name: 'sendgrid',
    hint: 'sg.',
    pattern: new RegExp(String.raw`${TOKEN_START}SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`, 'g'),
    replace: `SG.${REDACTED}`,
  },
  {
    name: 'pypi',
    hint: 'pypi-',
    pattern: new RegExp(String.raw`${TOKEN_START}pypi-[A-Za-z0-9_-]{40,}`, 'g'),
    replace: `pypi-${REDACTED}`,
  },
  {
    name: 'vault-token',
    hint: 'hv',
    pattern: new RegExp(String.raw`${TOKEN_START}(hv[sbr]\.)[A-Za-z0-9_-]{20,}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  {
    name: 'base64-key',
    hint: 'base64:',
    pattern: new RegExp(String.raw`(${WORD_START}base64:)[A-Za-z0-9+/]{32,}={0,2}`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // JSON Web Tokens, also glued to words by `-` or `_` (`gpt-eyJ...`, `ghs_1_eyJ...`; `.` and `:` are not token
  // characters, so `cat.eyJ...` starts a run of its own). The match starts where a token-character run starts; the
  // glued words up to the run's FIRST `eyJ` that starts it or follows a `-`/`_` are found inside a look-ahead, which
  // the engine never re-enters (V8 has no atomic groups; a look-ahead captured and then matched by back-reference
  // is one), so a run of `x-eyJx-eyJ...` is scanned once, not once per `eyJ`; a lazy character-class scan there
  // (not a loop of word groups) keeps the backtracking stack flat on long runs. The glued words are kept.
  {
    name: 'jwt',
    hint: 'eyj',
    pattern:
      /(?<!(?<!\\)[A-Za-z0-9_-])(?=((?:[A-Za-z0-9_-]*?[-_])??)eyJ)\1eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g,
    replace: `$1${REDACTED}:jwt`,
  },
  // Credentials in URLs: scheme://user:password@host, also with an empty user, with `@`, `#` or `?` inside the
  // password (the password runs to the last `@` before the host's path).
  {
    name: 'url-password',
    hint: '://',
    pattern: /(:\/\/[^\s:/@"'\\]{0,200}:)[^\s/"'\\]{0,400}@(?=[^\s@/?#"'\\]*(?:[/?#\s"'\\]|$))/g,
    replace: `$1${REDACTED}@`,
  },
  // A URL's userinfo without a password (Sentry DSN keys, tokens used as user names); a short lowercase login
  // name such as `git@` or `deploy@` is kept.
  {
    name: 'url-user-token',
    hint: '://',
    pattern:
      /(:\/\/)(?![a-z_][a-z0-9._-]{0,15}@)(?!\[REDACTED)[^\s:/@"'\\]{1,200}@(?=[^\s@/?#"'\\]*(?:[/?#\s"'\\]|$))/g,
    replace: `$1${REDACTED}@`,
  },
];

/** Where a simple command ends: a newline or a shell operator. */
const COMMAND_END = /[\r\n|;&]/g;

/** `pattern` replaced inside every segment of `text` that starts at a `command` word (see `RedactionRule`). */
function replaceInCommands(text: string, command: RegExp, pattern: RegExp, replace: RedactionRule['replace']): string {
  let out = '';
  let copied = 0;
  command.lastIndex = 0;
  for (let match = command.exec(text); match !== null; match = command.exec(text)) {
    COMMAND_END.lastIndex = match.index + match[0].length;
    const end = COMMAND_END.exec(text)?.index ?? text.length;
    pattern.lastIndex = 0;
    out += text.slice(copied, match.index) + replaceAll(text.slice(match.index, end), pattern, replace);
    copied = end;
    command.lastIndex = Math.max(end, match.index + 1);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** One rule applied to `text` (its hint already checked). */
export function applyRule(rule: RedactionRule, text: string): string {
  if (rule.command !== undefined) return replaceInCommands(text, rule.command, rule.pattern, rule.replace);
  rule.pattern.lastIndex = 0;
  return replaceAll(text, rule.pattern, rule.replace);
}

function replaceAll(text: string, pattern: RegExp, replace: RedactionRule['replace']): string {
  return typeof replace === 'string' ? text.replace(pattern, replace) : text.replace(pattern, replace as never);
}

/**
 * Replaces every secret-looking value in `text` with a redaction marker. Text without secrets is returned as is.
 * A text the patterns cannot finish scanning (the engine's backtracking stack or the string length runs out, on
 * multi-MB crafted input) is not returned in part: the whole of it becomes one marker, so nothing unscanned leaks
 * and the caller never sees the engine's error.
 */
export function redact(text: string): string {
  try {
    const lower = text.toLowerCase();
    let out = text;
    for (const rule of RULES) {
      if (rule.hint !== '' && !lower.includes(rule.hint)) continue;
      out = applyRule(rule, out);
    }
    return out.includes(PEM_END) ? redactOrphanKeyTails(out) : out;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return unscannedMarker(text.length);
  }
}

/** What `redact` returns for a text it could not finish scanning. */
export function unscannedMarker(length: number): string {
  return `[REDACTED: ${length} characters not scanned]`;
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
