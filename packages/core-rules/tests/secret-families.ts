/**
 * Generators for the secret families of issue 30, each call with a fresh random secret (never a literal token a
 * scanner would flag in the repository): credentials under names that end in a secret word (camelCase, PascalCase,
 * kebab-case, snake_case, dotted, whole `auth`) in program and config syntaxes; every token prefix secretlint's
 * recommended preset knows (13.1), shaped as its rules describe them; a token glued to a word by `-`, `_`, `.` or
 * `:`; a value on the line after its label, raw or inside JSON-encoded file content. Shared by
 * tests/secrets-families.test.ts; crafted worst cases for the patterns these needed are in tests/secrets-linear.test.ts.
 */

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const BASE64 = `${ALNUM}+/`;
const URL_SAFE = `${ALNUM}_-`;

export function random(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}
/** A random value with at least one digit and one letter (what a password or key looks like). */
export function secretValue(length = 20): string {
  return `${random(length - 2)}${random(1, DIGITS)}${random(1, 'abcdefghijklmnopqrstuvwxyz')}`;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** A base64url JSON segment, as the header and payload of a JWT are (`eyJ` is `{"` and a letter). */
function jsonSegment(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
/** A fresh JWT: JSON header, JSON payload, random signature. */
export function jwt(): string {
  const header = jsonSegment({ alg: 'HS256', typ: 'JWT', kid: random(12) });
  const payload = jsonSegment({ sub: random(16), name: random(10), iat: Number(random(9, DIGITS)) });
  return `${header}.${payload}.${random(43, URL_SAFE)}`;
}
/** A 1Password service-account token: `ops_` and the base64 of a JSON document (ends in `fQ`, `}`), ~ 600 chars. */
function onePasswordToken(urlSafe: boolean): string {
  const json = JSON.stringify({
    signInAddress: `${random(8)}.1password.com`,
    email: `${random(10)}@sa.example`,
    srpX: random(64, HEX),
    muk: { k: random(43, URL_SAFE), kid: random(26) },
    secretKey: random(34),
    deviceUuid: random(26),
  });
  // real tokens end in `fQ` (a lone `}` in the last base64 group), which secretlint's rule requires
  const padded = `${json.slice(0, -1)}${' '.repeat((4 - (json.length % 3)) % 3)}}`;
  const encoded = Buffer.from(padded).toString(urlSafe ? 'base64url' : 'base64');
  return `ops_${encoded}`;
}

/**
 * Every token prefix of secretlint's recommended preset (13.1: its rule ids in the comments), each generated in
 * the shape that rule matches. The whole string is the secret.
 */
export const PROVIDER_TOKENS: Record<string, () => string> = {
  // @secretlint/secretlint-rule-aws: access key and principal ids
  ...Object.fromEntries(
    ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'A3TX'].map((prefix) => [
      `aws-${prefix}`,
      () => `${prefix}${random(16, UPPER_DIGITS)}`,
    ]),
  ),
  // @secretlint/secretlint-rule-1password: service-account tokens (standard and URL-safe base64)
  'onepassword-ops': () => onePasswordToken(false),
  'onepassword-ops-urlsafe': () => onePasswordToken(true),
  // @secretlint/secretlint-rule-anthropic
  'anthropic-sk-ant': () => `sk-ant-api03-${random(93, URL_SAFE)}AA`,
  // @secretlint/secretlint-rule-openai (project, service-account, admin and legacy keys)
  ...Object.fromEntries(
    ['proj', 'svcacct', 'admin'].map((kind) => [
      `openai-${kind}`,
      () => `sk-${kind}-${random(74, URL_SAFE)}T3Blbk${'FJ'}${random(74, URL_SAFE)}`,
    ]),
  ),
  'openai-legacy': () => `sk-${random(20)}T3Blbk${'FJ'}${random(20)}`,
  // @secretlint/secretlint-rule-cloudflare
  ...Object.fromEntries(
    ['cfk', 'cfut', 'cfat'].map((prefix) => [`cloudflare-${prefix}`, () => `${prefix}_${random(40)}${random(8, HEX)}`]),
  ),
  // @secretlint/secretlint-rule-databricks
  databricks: () => `dapi${random(32, HEX)}`,
  // @secretlint/secretlint-rule-docker
  'docker-pat': () => `dckr_pat_${random(27, URL_SAFE)}`,
  // @secretlint/secretlint-rule-figma
  figma: () => `figd_${random(43, URL_SAFE)}`,
  // @secretlint/secretlint-rule-github: classic, fine-grained, app installation tokens
  ...Object.fromEntries(
    ['ghp', 'gho', 'ghu', 'ghs', 'ghr'].map((prefix) => [`github-${prefix}`, () => `${prefix}_${random(36)}`]),
  ),
  'github-fine-grained': () => `github_pat_${random(22)}_${random(59)}`,
  'github-installation': () => `ghs_${random(7, DIGITS)}_${jwt()}`,
  // @secretlint/secretlint-rule-gitlab
  'gitlab-glpat': () => `glpat-${random(20, URL_SAFE)}`,
  // @secretlint/secretlint-rule-grafana
  'grafana-glc': () => `glc_${random(64, BASE64)}==`,
  'grafana-glsa': () => `glsa_${random(32)}_${random(8, HEX)}`,
  // @secretlint/secretlint-rule-groq
  groq: () => `gsk_${random(52)}`,
  // @secretlint/secretlint-rule-hashicorp-vault
  'vault-hvs': () => `hvs.${random(95, URL_SAFE)}`,
  'vault-hvb': () => `hvb.${random(140, URL_SAFE)}`,
  'vault-hvr': () => `hvr.${random(95, URL_SAFE)}`,
  // @secretlint/secretlint-rule-huggingface
  huggingface: () => `hf_${random(34, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')}`,
  // @secretlint/secretlint-rule-linear
  linear: () => `lin_api_${random(40)}`,
  // @secretlint/secretlint-rule-notion
  notion: () => `ntn_${random(11, DIGITS)}${random(35)}`,
  // @secretlint/secretlint-rule-npm
  npm: () => `npm_${random(36)}`,
  // @secretlint/secretlint-rule-sendgrid
  sendgrid: () => `SG.${random(22, URL_SAFE)}.${random(43, URL_SAFE)}`,
  // @secretlint/secretlint-rule-shopify
  ...Object.fromEntries(
    ['shpat', 'shpca', 'shppa', 'shpss'].map((prefix) => [`shopify-${prefix}`, () => `${prefix}_${random(32, HEX)}`]),
  ),
  // @secretlint/secretlint-rule-slack (bot, user, app-level, legacy, refresh)
  ...Object.fromEntries(
    ['xoxb', 'xoxp', 'xoxa', 'xoxo', 'xoxr'].map((prefix) => [
      `slack-${prefix}`,
      () => `${prefix}-${random(12, DIGITS)}-${random(12, DIGITS)}-${random(24)}`,
    ]),
  ),
  'slack-xapp': () => `xapp-1-A0${random(9, UPPER_DIGITS)}-${random(13, DIGITS)}-${random(64, HEX)}`,
  // @secretlint/secretlint-rule-stripe
  ...Object.fromEntries(
    ['sk_live', 'sk_test', 'rk_live', 'rk_test'].map((prefix) => [`stripe-${prefix}`, () => `${prefix}_${random(99)}`]),
  ),
  // @secretlint/secretlint-rule-tailscale
  tailscale: () => `tskey-auth-${random(12)}-${random(30)}`,
  // @secretlint/secretlint-rule-vercel
  ...Object.fromEntries(
    ['vcp', 'vci', 'vca', 'vcr', 'vck'].map((prefix) => [`vercel-${prefix}`, () => `${prefix}_${random(40)}`]),
  ),
  // JSON Web Tokens (not a secretlint rule; the project's own)
  jwt,
};

/** The secret word a name ends in (camelCase spelling), and whether only that boundary makes it a secret's name. */
export const SECRET_WORDS = [
  'Auth',
  'Pass',
  'Creds',
  'Cred',
  'Salt',
  'Secret',
  'Token',
  'Key',
  'ApiKey',
  'Password',
  'Passwd',
  'Pwd',
  'Passphrase',
  'Credentials',
  'AccessKey',
  'PrivateKey',
  'ClientSecret',
  'AuthToken',
  'SessionId',
  'SigningKey',
] as const;
const PREFIXES = ['twilio', 'stripe', 'github', 'db', 'admin', 'slack', 'service', 'my', 'oauth2', 'aws'] as const;

export type CaseStyle = 'camel' | 'pascal' | 'snake' | 'screaming' | 'kebab' | 'dotted';
export const CASE_STYLES: readonly CaseStyle[] = ['camel', 'pascal', 'snake', 'screaming', 'kebab', 'dotted'];
/** Styles that are identifiers in program code (kebab and dotted names only appear as keys in config files). */
const IDENTIFIER_STYLES = new Set<CaseStyle>(['camel', 'pascal', 'snake', 'screaming']);

/** `prefix` + `word` in one case style: `twilioAuth`, `TwilioAuth`, `twilio_auth`, `TWILIO_AUTH`, `twilio-auth`. */
export function nameIn(style: CaseStyle, prefix: string, word: string): string {
  const parts = [prefix, ...word.split(/(?=[A-Z])/)].map((part) => part.toLowerCase());
  const cap = (part: string) => part.charAt(0).toUpperCase() + part.slice(1);
  if (style === 'camel') return (parts[0] as string) + parts.slice(1).map(cap).join('');
  if (style === 'pascal') return parts.map(cap).join('');
  if (style === 'snake') return parts.join('_');
  if (style === 'screaming') return parts.join('_').toUpperCase();
  if (style === 'kebab') return parts.join('-');
  return parts.join('.');
}

/** Ways a program or config file assigns a value to a name (`$N` the name, `$V` the value). */
const CODE_FORMS = [
  "const $N = '$V';",
  'let $N = "$V";',
  'var $N = `$V`;',
  "$N = '$V'",
  '$N := "$V"',
  "$$N = '$V';",
  'export const $N: string = "$V";',
  "{ $N: '$V', region: 'eu' }",
  'self.$N = "$V"',
];
const CONFIG_FORMS = [
  '{"$N": "$V"}',
  "{ '$N': '$V' }",
  '$N: $V',
  '$N: "$V"',
  '$N=$V',
  '$N = "$V"',
  '"$N" => "$V"',
  '$N ?= $V',
  '<$N>$V</$N>',
];

/** Where a snippet is found: as is, in a secretlint-disable block, inside JSON-encoded file content, twice encoded. */
export const PLACEMENTS: Record<string, (snippet: string) => string> = {
  plain: (snippet) => snippet,
  directiveBlock: (snippet) => `// secretlint-disable\n${snippet}\n// secretlint-enable`,
  fileContent: (snippet) => JSON.stringify({ path: '/app/config.ts', content: `// config\n${snippet}\n` }),
  encodedTwice: (snippet) => JSON.stringify({ arguments: JSON.stringify({ code: `${snippet}\nrun();` }) }),
};

export interface Case {
  label: string;
  text: string;
  secret: string;
}

/** Every secret word in every case style and assignment form, each in every placement, with a fresh value. */
export function namedCases(): Case[] {
  const cases: Case[] = [];
  for (const word of SECRET_WORDS) {
    for (const style of CASE_STYLES) {
      const forms = IDENTIFIER_STYLES.has(style) ? [...CODE_FORMS, ...CONFIG_FORMS] : CONFIG_FORMS;
      for (const form of forms) {
        for (const [place, put] of Object.entries(PLACEMENTS)) {
          const name = nameIn(style, pick(PREFIXES), word);
          const secret = secretValue(pick([12, 20, 32]));
          const snippet = form.replaceAll('$N', name).replaceAll('$V', secret);
          cases.push({ label: `${word}/${style}: ${form} (${place})`, text: put(snippet), secret });
        }
      }
    }
  }
  return cases;
}

/** Ways a provider token appears: bare, under an `auth:` key, glued to a word, on the line after its label. */
const TOKEN_FORMS: Record<string, (token: string) => string> = {
  bare: (token) => `using ${token} now`,
  authKeyObjectLiteral: (token) => `const client = new Client({ auth: '${token}', retries: 3 });`,
  authKeyJson: (token) => `{"auth": "${token}"}`,
  gluedHyphenModel: (token) => `model gpt-${token}`,
  gluedUnderscore: (token) => `category file_${token}`,
  gluedDot: (token) => `cat.${token}`,
  gluedColon: (token) => `label:${token}`,
  gluedVersionedModel: (token) => `deepseek-v4-flash-${token}`,
  labelLineBefore: (token) => `SLACK_APP_TOKEN:\n${token}\n`,
  proseLabelLineBefore: (token) => `# the app-level token\n  ${token}\n`,
  labelLineBeforeCrlf: (token) => `Token for the bot\r\n${token}\r\n`,
};

/** Prefixes the redaction keeps in front of its marker (`sk_live_[REDACTED]`): not part of the secret. */
const KEPT_PREFIX = /^(?:[sr]k_(?:live|test)_|github_pat_|sk-|npm_|hf_|glpat-|SG\.|hv[sbr]\.)/;

/** The part of a token that must not survive: all of it but a prefix the redaction keeps. */
export function secretPart(token: string): string {
  return token.replace(KEPT_PREFIX, '');
}

/** Every provider token in every form and placement, each with a fresh token. */
export function providerCases(): Case[] {
  const cases: Case[] = [];
  for (const [provider, make] of Object.entries(PROVIDER_TOKENS)) {
    for (const [form, write] of Object.entries(TOKEN_FORMS)) {
      for (const [place, put] of Object.entries(PLACEMENTS)) {
        const token = make();
        cases.push({ label: `${provider}: ${form} (${place})`, text: put(write(token)), secret: secretPart(token) });
      }
    }
  }
  return cases;
}

/** A value labelled on the line before it (the label ends in a secret word and a colon or equals sign). */
export function nextLineCases(): Case[] {
  const cases: Case[] = [];
  const labels = [
    'password:',
    'SLACK_APP_TOKEN:',
    'api_key =',
    'twilioAuth:',
    'db-pass:',
    'client_secret:',
    'API key:',
    'Secret key:',
  ];
  const breaks = ['\n', '\r\n', '\n    ', '\n\n'];
  for (const label of labels) {
    for (const lineBreak of breaks) {
      for (const [place, put] of Object.entries(PLACEMENTS)) {
        const secret = secretValue(24);
        cases.push({
          label: `${JSON.stringify(label + lineBreak)} (${place})`,
          text: put(`${label}${lineBreak}${secret}`),
          secret,
        });
      }
    }
  }
  return cases;
}

/** Length of the pieces searched for: a leak is any 8-character piece of a secret left in the redacted text. */
export const PIECE = 8;

/** The first 8-character piece of `secret` found in `text`, or undefined. */
export function leakedPiece(secret: string, text: string): string | undefined {
  for (let i = 0; i + PIECE <= secret.length; i += 1) {
    const piece = secret.slice(i, i + PIECE);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

/** Valid text that looks a little like a secret and must come back unchanged. */
export const LOOK_ALIKES = [
  "const authorName = 'Ada';",
  'authorName = "Ada Lovelace"',
  "const author = 'Grace';",
  'requireAuth = false',
  'auth: true',
  'auth: enabled',
  'useAuth: "oauth"',
  "const bypass = 'fast path';",
  "compass = 'north'",
  'passCount = 3',
  'authUrl = "https://login.example.com/authorize"',
  'auth.enabled = true',
  'a well-known, state-of-the-art, end-to-end test',
  'model: gpt-4o-mini, deepseek-v4-flash, claude-3-5-sonnet-latest',
  'category: FILE_READ; tool: read-file; run_code',
  'tokens.map(token => token.length)',
  'const keyJar-eyJ = 1',
  'see docs/auth-flow.md and src/pass-through.ts',
  'name-value-pair, key-value-store, x-request-id',
  'ghost_protocol and npm_config_cache and hf_hub',
  'passport: { strategy: "local" }',
];
