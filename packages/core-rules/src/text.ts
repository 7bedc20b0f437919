/**
 * Small text helpers shared by the rules: bounded previews for receipts (worded like telemetry-store's
 * previews: `head...[N chars omitted]...tail`), a small redaction of obvious secret shapes, and the short
 * display descriptions the engine writes when a required `description` is missing (derived from the call's
 * own arguments, never invented content; a shell command is described by its program, subcommands and bare
 * flags only, never by an argument that could be a password or token).
 */

/** Text of any value for a preview; never throws (hostile getters and `toString`s included). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '(absent)';
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    return `[unserializable ${typeof value}]`;
  }
  try {
    return String(value);
  } catch {
    return `[unserializable ${typeof value}]`;
  }
}

/** A bounded preview keeping the head and the tail of long text, saying how much was left out. */
export function preview(value: unknown, max = 160): string {
  const text = textOf(value);
  if (text.length <= max) return text;
  const half = Math.max(1, Math.floor((max - 24) / 2));
  return `${text.slice(0, half)}...[${text.length - 2 * half} chars omitted]...${text.slice(text.length - half)}`;
}

/** The message of a thrown value, for a reason text; never throws. */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return `[unprintable ${typeof error}]`;
  }
}

const REDACTED = '[REDACTED]';
/** Names that mark the value after them as secret (`GITHUB_TOKEN=`, `--password`, `api_key:`). */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]*(?:token|secret|passw(?:or)?d|pass|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth|credential|session)[A-Za-z0-9_.-]*`;

const SECRET_SHAPES: readonly [RegExp, string][] = [
  // Authorization headers.
  [/(\b(?:Bearer|Basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}/g, `$1${REDACTED}`],
  // NAME=value / NAME: value / --name value / --name=value with a secret-looking name.
  [new RegExp(String.raw`(\b${SECRET_NAME}\s*[=:]\s*)(?:"[^"\n]*"|'[^'\n]*'|[^\s"',;&|)]+)`, 'gi'), `$1${REDACTED}`],
  [new RegExp(String.raw`(--${SECRET_NAME}[\s=]+)(?!-)(?:"[^"\n]*"|'[^'\n]*'|[^\s"']+)`, 'gi'), `$1${REDACTED}`],
  // Credentials in URLs: scheme://user:password@host.
  [/(:\/\/[^\s:/@"']{0,200}:)[^\s/@"']{1,400}@/g, `$1${REDACTED}@`],
  // Provider token shapes.
  [
    /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|glpat-[A-Za-z0-9_-]{16,}|sk-[A-Za-z0-9_-]{12,}|[sr]k_(?:live|test)_[A-Za-z0-9]{10,}|xox[abposre]-[A-Za-z0-9-]{8,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,}|AIza[0-9A-Za-z_-]{30,})/g,
    REDACTED,
  ],
  [/(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g, REDACTED],
  // mysql-style -p<password>.
  [/(\b(?:mysql|mysqldump|mysqladmin|mariadb|sshpass)\b[^\n|;&]*?\s-p)(?!\s*-)\s*[^\s"']+/g, `$1${REDACTED}`],
];

/**
 * Replaces obvious secrets (secret-named assignments and flags, bearer tokens, URL credentials, provider token
 * shapes) with `[REDACTED]`. Small and pure: it runs on text the engine derives descriptions from, which the
 * host shows and stores. Telemetry applies its own, fuller redaction to everything it records.
 */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_SHAPES) {
    pattern.lastIndex = 0;
    out = out.replace(pattern, replacement);
  }
  return out;
}

/** First line of `text`, whitespace-collapsed, redacted, and cut to `max` characters. */
export function firstLine(text: string, max = 60): string {
  const line = redactSecrets((text.slice(0, 2000).trim().split('\n', 1)[0] ?? '').replace(/\s+/g, ' ').trim());
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** Separators between the commands of one shell line. */
const SHELL_OPERATOR = /(\s*(?:&&|\|\||[|;&])\s*)/;
/** A program word: a name or a path, nothing quoted or expanded. */
const PROGRAM_WORD = /^[A-Za-z0-9_./+-]{1,60}$/;
/** A subcommand word (`status` in `git status`): lowercase letters only, so no value-looking argument passes. */
const SUBCOMMAND_WORD = /^[a-z]+(?:-[a-z]+)*$/;
/** A flag without a glued value: `-la` (at most three letters), `--short`; never `--name=value` or `-pSecret`. */
const BARE_FLAG = /^(?:-[A-Za-z]{1,3}|--[a-z]+(?:-[a-z]+)*)$/;
/** Programs whose arguments are data (printed or exported), never described by them. */
const DATA_PROGRAMS = new Set(['echo', 'printf', 'export', 'set', 'print']);
/** Most subcommand words kept per command. */
const MAX_SUBCOMMANDS = 2;

/**
 * The safe words of one simple command: leading `NAME=value` assignments dropped, then the program, then up
 * to two lowercase subcommand words, then bare flags. It stops at the first word that could carry a value
 * (anything quoted, with digits, capitals, `=`, `:`, `/`, `@`, or any word after a flag, which may be that
 * flag's value), so an argument such as a password, token or `-u user:pass` is never copied.
 */
function describeSimpleCommand(command: string): string {
  const words = command.split(/\s+/).filter((word) => word !== '');
  let index = 0;
  while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] as string)) index++;
  const program = words[index];
  if (program === undefined || !PROGRAM_WORD.test(program)) return '';
  const kept = [program];
  let subcommands = 0;
  let flagSeen = false;
  for (const word of words.slice(index + 1)) {
    if (BARE_FLAG.test(word)) {
      flagSeen = true;
      kept.push(word);
    } else if (
      !flagSeen &&
      subcommands < MAX_SUBCOMMANDS &&
      SUBCOMMAND_WORD.test(word) &&
      word.length <= 16 &&
      !DATA_PROGRAMS.has(program)
    ) {
      subcommands++;
      kept.push(word);
    } else {
      // The word that stopped us may be the value of the flag before it: that flag goes too.
      if (flagSeen && BARE_FLAG.test(kept[kept.length - 1] as string)) kept.pop();
      break;
    }
  }
  return kept.join(' ');
}

/**
 * Description of a shell command from its first line: each command's program, subcommands and bare flags
 * (`Run: git status --short`, `Run: cd src && make`), never an argument that could be a value. A command
 * line whose words cannot be described safely reads `Run a shell command`.
 */
export function describeCommand(command: string): string {
  const line = (command.slice(0, 2000).trim().split('\n', 1)[0] ?? '').trim();
  const parts = line.split(SHELL_OPERATOR);
  const described: string[] = [];
  for (let index = 0; index < parts.length && described.length < 5; index += 2) {
    const words = describeSimpleCommand(parts[index] ?? '');
    if (words === '') break;
    if (described.length > 0) described.push((parts[index - 1] ?? ' ').trim());
    described.push(words);
  }
  const text = described.join(' ');
  if (text === '') return 'Run a shell command';
  return `Run: ${text.length <= 60 ? text : `${text.slice(0, 59)}…`}`;
}

/** Description of a program from the tools it calls: `Run program calling read, bash`. */
export function describeProgram(toolNamesCalled: readonly string[]): string {
  const unique = [...new Set(toolNamesCalled)];
  if (unique.length === 0) return 'Run a TypeScript program';
  const shown = unique.slice(0, 3).join(', ');
  return `Run program calling ${shown}${unique.length > 3 ? ' and more' : ''}`;
}

/** Longest description taken from a program's opening comment. */
const MAX_COMMENT_DESCRIPTION = 80;

/**
 * The description a program gives itself in its opening comment (`// Read file contents`): the first
 * non-empty line, trimmed and bounded, without comment markers; undefined when the program does not open with
 * a comment or it is empty or a tool directive (`@ts-...`, `eslint-...`).
 */
export function describeFromComment(code: string): string | undefined {
  const start = code.slice(0, 4000).trimStart();
  let body: string | undefined;
  if (start.startsWith('//')) body = start.slice(2).split('\n', 1)[0];
  else if (start.startsWith('/*')) {
    const end = start.indexOf('*/');
    if (end < 0) return undefined;
    body = start
      .slice(2, end)
      .split('\n')
      .map((line) => line.replace(/^\s*\*+/, '').trim())
      .find((line) => line !== '');
  }
  const line = body?.replace(/^[/*!\s]+/, '').trim() ?? '';
  if (line === '' || /^(@ts-|eslint-|prettier-|biome-|#!|global\b|jshint)/.test(line)) return undefined;
  return firstLine(line, MAX_COMMENT_DESCRIPTION);
}

/** A display description for a call of `tool` with `args`, for a required `description` the model left out. */
export function describeCall(tool: string, args: Record<string, unknown>): string {
  if (typeof args.command === 'string' && tool === 'bash') return describeCommand(args.command);
  if (typeof args.prompt === 'string') {
    const words = firstLine(args.prompt, 200).split(' ').slice(0, 5).join(' ');
    if (words) return words;
  }
  const target = [args.file_path, args.path, args.pattern].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return target ? `Call ${tool} on ${firstLine(target)}` : `Call ${tool}`;
}
