/**
 * Crafted worst-case inputs for the redaction rules: runs of the characters a pattern scans unboundedly, right
 * after (or repeating) the words that start its match, so a pattern that backtracks over a run or restarts a scan
 * from each character of it shows its quadratic cost. Shared by tests/redact-linear.test.ts (a generous bound per
 * text) and bench/redact.bench.mjs (per-rule figures). Plain TypeScript (type stripping) so the bench loads it.
 */

export interface AdversarialShape {
  name: string;
  /** A text of about `size` characters of this shape. */
  make: (size: number) => string;
}

const run = (prefix: string, atom: string) => (size: number) =>
  prefix + atom.repeat(Math.ceil(Math.max(0, size - prefix.length) / atom.length));
const repeated = (unit: string) => (size: number) => unit.repeat(Math.ceil(size / unit.length));

const RUNS: [string, string, string][] = [
  ['json-key-backslashes', '"token": "', '\\'],
  ['escaped-json-key-backslashes', '\\"token\\": \\"', '\\'],
  ['json-key-escaped-quotes', '"password": "', '\\"'],
  ['login-backslashes', 'login ', '\\'],
  ['backslashes', '', '\\'],
  ['export-backslashes', 'export TOKEN=', '\\'],
  ['set-x-backslashes', 'set -x ', '\\'],
  ['account-key-ampersands', 'AccountKey=', '&'],
  ['user-flag-equals', ' -u ', '='],
  ['auth-flag-equals', ' -a ', '='],
  ['secret-set-spaces', 'secret set x ', ' '],
  ['set-x-dashes', 'set -x ', '-'],
  ['config-create-dashes', 'config create ', '-'],
  ['url-password-dashes', '://a:', '-'],
  ['mysql-p-pass', 'mysql -p', 'pass'],
  ['aws-configure-dash-p', 'aws configure set x ', '-p'],
  ['curl-cookie-dash-p', 'curl -b ', '-p'],
  ['xml-password-words', '<password>', 'a '],
  ['key-value-spaces', 'password', ' '],
  ['key-equals-quote', 'token=', '"'],
  ['template-literal', 'passphrase = `', 'a b '],
  ['private-key-no-end', '-----BEGIN PRIVATE KEY-----\n', 'QUJD'],
  ['putty-no-mac', 'Private-Lines: 4\n', 'QUJD\n'],
  ['url-no-at', 'https://user:', 'a#'],
  ['provider-prefix-run', 'tskey-auth-', 'a'],
  ['alnum', '', 'a'],
  ['spaces', '', ' '],
  ['escaped-newlines', '', '\\n'],
];

const REPEATS: [string, string][] = [
  ['json-key-brackets', '"token":['],
  ['json-key-braces', '"secret":{'],
  ['auth-brackets', '_auth=['],
  ['pgpass-fields', 'a:1:'],
  ['pgpass-host-port', 'h:5432:x'],
  ['colons', 'x:'],
  ['set-dash', 'set -'],
  ['config-create', 'config create x '],
  ['curl-b-lt', 'curl -b <'],
  ['curl', 'curl '],
  ['mysql', 'mysql '],
  ['mysql-u', 'mysql -u '],
  ['login-dash-p', 'login -p'],
  ['jwt-dash', 'eyJ-'],
  ['dashes', '-'],
  ['double-dashes', '--token'],
  ['quotes', '"'],
  ['single-quotes', "'"],
  ['url-scheme-colon', '://a:'],
  ['url-at', 'https://a@'],
  ['token-equals', 'token='],
  ['password-words', 'password '],
  ['echo-pipe', 'echo x |'],
  ['echo-pipe-sudo', 'echo x | sudo '],
  ['private-key-begin', '-----BEGIN PRIVATE KEY-----'],
  ['discord-shape', 'Maaaaaaaaaaaaaaaaaaaaaaaaa.'],
  ['google-prefix', 'AIza'],
  ['bot-url', 'bot123456:'],
  ['telegram-token', '12345678:AA'],
  ['dot-key', 'x.key: '],
  ['auth-tuple', 'auth=("u", '],
  ['amz-signature', 'X-Amz-Signature='],
  ['redis-conf', 'requirepass '],
  ['htpasswd', 'htpasswd -b '],
  ['sshpass-options', 'sshpass -o x '],
  ['redis-cli', 'redis-cli '],
  ['sqlcmd', 'sqlcmd '],
  ['subscript', '["TOKEN"'],
  ['set-verb-secret', 'set MY_TOKEN '],
  ['base64-label', 'base64:'],
];

export const ADVERSARIAL_SHAPES: readonly AdversarialShape[] = [
  ...RUNS.map(([name, prefix, atom]) => ({ name, make: run(prefix, atom) })),
  ...REPEATS.map(([name, unit]) => ({ name, make: repeated(unit) })),
];
