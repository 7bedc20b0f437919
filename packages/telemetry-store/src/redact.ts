/**
 * Redaction and bounded previews. Secrets in tool arguments or error text (API keys, tokens, passwords,
 * Authorization headers, private keys) must never reach the log, the summary or the stats payload, so every
 * text the store keeps passes through here first. Pure module: safe in browsers.
 */

/** Marker that replaces a secret value. */
export const REDACTED = '[REDACTED]';

/** A key name that says it holds a secret (bounded repetitions keep matching linear on long identifier runs). */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]{0,40}(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)[A-Za-z0-9_.-]{0,40}`;

/** Words whose presence (lowercased) makes a key-name rule worth running. */
const KEY_HINTS = ['password', 'passwd', 'passphrase', 'secret', 'token', 'api_key', 'api-key', 'apikey', 'access_key', 'access-key', 'private_key', 'private-key', 'credential'];

/**
 * Ordered replacements: structural forms first (they keep their label), then bare token shapes. A rule runs only
 * when one of its lowercase `hints` occurs in the text, which keeps redaction of ordinary arguments cheap.
 */
const RULES: readonly { hints: readonly string[]; pattern: RegExp; replace: string }[] = [
  // PEM private keys, including one cut off before its END line, and the tail of one whose BEGIN was cut off.
  { hints: ['private key'], pattern: /-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z ]*PRIVATE KEY-----|$)/g, replace: '[REDACTED:private-key]' },
  // Authorization / Proxy-Authorization header values (whole value up to the end of the line or quote).
  { hints: ['authorization'], pattern: /((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\r\n"'\\]+/gi, replace: `$1${REDACTED}` },
  // Bearer credentials anywhere; Basic ones when the value looks encoded (so "basic example" stays prose).
  { hints: ['bearer'], pattern: /\b(bearer)(\s+)[A-Za-z0-9._~+/=-]{6,}/gi, replace: `$1$2${REDACTED}` },
  { hints: ['basic'], pattern: /\b([Bb]asic|BASIC)(\s+)(?=[A-Za-z0-9+/]*(?:[0-9+/=]|[a-z][A-Z]))[A-Za-z0-9+/]{6,}=*/g, replace: `$1$2${REDACTED}` },
  // JSON keys: "password": "value", also inside JSON strings at any depth (\"token\": \"value\"): the value
  // ends at a quote preceded by exactly as many backslashes as the key's quotes; deeper-escaped quotes are content.
  { hints: KEY_HINTS, pattern: new RegExp(String.raw`((\\{0,8})"${SECRET_KEY}\2"\s*:\s*)\2"(?:[^\\"]|\\+(?=[^"\\])|\2\\+")*?\2"`, 'gi'), replace: `$1$2"${REDACTED}$2"` },
  // Python dict keys: 'token': 'value'.
  { hints: KEY_HINTS, pattern: new RegExp(String.raw`('${SECRET_KEY}'\s*:\s*)'(?:[^'\\]|\\[\s\S])*'`, 'gi'), replace: `$1'${REDACTED}'` },
  // key="quoted value" (quotes possibly escaped), key='quoted value', key=value / key: value pairs.
  { hints: KEY_HINTS, pattern: new RegExp(String.raw`(\b${SECRET_KEY}\s*[=:]\s*)(\\{0,8})"(?:[^\\"\r\n]|\\+(?=[^"\\])|\2\\+")*?\2"`, 'gi'), replace: `$1$2"${REDACTED}$2"` },
  { hints: KEY_HINTS, pattern: new RegExp(String.raw`(\b${SECRET_KEY}\s*[=:]\s*)'[^'\r\n]*'`, 'gi'), replace: `$1'${REDACTED}'` },
  { hints: KEY_HINTS, pattern: new RegExp(String.raw`(\b${SECRET_KEY}\s*[=:]\s*)(?![\["'\\])[^\s"'&,;}\]\\]+`, 'gi'), replace: `$1${REDACTED}` },
  // CLI flags such as --password hunter2 / --token abc.
  { hints: KEY_HINTS, pattern: new RegExp(String.raw`(--${SECRET_KEY}\s+)(?!-)[^\s"'\\]+`, 'gi'), replace: `$1${REDACTED}` },
  // curl-style user:password credentials.
  { hints: ['-u', '--user'], pattern: /((?:^|\s)(?:-u|--user)[\s=]+["']?[^\s:"']+:)[^\s"']+/g, replace: `$1${REDACTED}` },
  // Cookie / Set-Cookie header values (session ids).
  { hints: ['cookie'], pattern: /((?:set-)?cookie["']?\s*:\s*["']?)[^\r\n"'\\]+/gi, replace: `$1${REDACTED}` },
  // Provider key shapes.
  { hints: ['sk-'], pattern: /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{12,}/g, replace: `sk-${REDACTED}` },
  { hints: ['sk_', 'rk_'], pattern: /(?<![A-Za-z0-9])([sr]k_(?:live|test)_)[A-Za-z0-9]{10,}/g, replace: `$1${REDACTED}` },
  { hints: ['npm_'], pattern: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, replace: `npm_${REDACTED}` },
  { hints: ['hf_'], pattern: /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}/g, replace: `hf_${REDACTED}` },
  { hints: ['glpat-'], pattern: /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g, replace: `glpat-${REDACTED}` },
  { hints: ['github_pat_'], pattern: /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g, replace: `github_pat_${REDACTED}` },
  { hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], pattern: /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g, replace: REDACTED },
  { hints: ['xox'], pattern: /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{8,}/g, replace: REDACTED },
  { hints: ['akia', 'asia'], pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: REDACTED },
  { hints: ['aiza'], pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, replace: REDACTED },
  // JSON Web Tokens.
  { hints: ['eyj'], pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g, replace: `${REDACTED}:jwt` },
  // Credentials in URLs: scheme://user:password@host
  { hints: ['://'], pattern: /(:\/\/[^\s:/@]{1,200}:)[^\s@/]{1,200}@/g, replace: `$1${REDACTED}@` },
];

/** Finds every hint of every rule in one pass over the text. */
const HINT_SCAN = new RegExp(
  [...new Set(RULES.flatMap((rule) => rule.hints))].map((hint) => hint.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'),
  'gi',
);

/** Replaces every secret-looking value in `text` with a redaction marker. Text without secrets is returned as is. */
export function redact(text: string): string {
  const present = new Set<string>();
  HINT_SCAN.lastIndex = 0;
  for (const match of text.matchAll(HINT_SCAN)) present.add(match[0].toLowerCase());
  if (present.size === 0) return text;
  let out = text;
  for (const rule of RULES) {
    if (!rule.hints.some((hint) => present.has(hint))) continue;
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace);
  }
  return out.includes(PEM_END) ? redactOrphanKeyTails(out) : out;
}

const PEM_END = '-----END';
const PEM_END_LINE = /-----END[A-Z ]*PRIVATE KEY-----/g;
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

/** Longest text redacted in one piece; longer texts are cut to a head and a tail window first. */
const WHOLE_TEXT_LIMIT = 64 * 1024;

/**
 * A redacted preview of at most about `maxChars` characters that keeps the head and the tail of a long text,
 * with the number of characters left out in the middle. Redaction runs before cutting (on windows with slack
 * around the cut), so a secret straddling the cut is never half kept.
 */
export function previewText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return clip(redact(text), maxChars);
  const half = Math.max(1, Math.floor(maxChars / 2));
  let redacted: string;
  if (text.length <= WHOLE_TEXT_LIMIT) {
    redacted = redact(text);
  } else {
    const window = Math.max(4 * maxChars, 4096);
    const head = redact(text.slice(0, window)).slice(0, half);
    const tail = redact(tailWindow(text, window)).slice(-half);
    return joinHeadTail(head, tail, text.length - head.length - tail.length);
  }
  return clip(redacted, maxChars);
}

/** Characters that can continue a token, key or encoded blob. */
const TOKEN_CHAR = /[A-Za-z0-9_+/=.-]/;

/**
 * The last `window` characters, minus a token cut by the window's start: its prefix (the `sk-`, the key name)
 * lies before the window, so no rule could recognise what remains of it.
 */
function tailWindow(text: string, window: number): string {
  const start = text.length - window;
  const tail = text.slice(start);
  if (!TOKEN_CHAR.test(text[start - 1] ?? '')) return tail;
  let skip = 0;
  while (skip < tail.length && TOKEN_CHAR.test(tail[skip] as string)) skip += 1;
  return tail.slice(skip);
}

function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.max(1, Math.floor(maxChars / 2));
  return joinHeadTail(text.slice(0, half), text.slice(-half), text.length - 2 * half);
}

function joinHeadTail(head: string, tail: string, omitted: number): string {
  return `${head}...[${omitted} chars omitted]...${tail}`;
}

/** JSON text of any value (strings stay as they are); values JSON cannot express become a short description. */
export function stringifyForPreview(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json;
  } catch {
    return `[unserializable ${typeof value}]`;
  }
}

/** Redacted, bounded preview of an argument object or any other value. */
export function previewValue(value: unknown, maxChars: number): string {
  return previewText(stringifyForPreview(value), maxChars);
}
