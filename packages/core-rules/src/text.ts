/**
 * Small text helpers shared by the rules: bounded previews for receipts (worded like telemetry-store's
 * previews: `head...[N chars omitted]...tail`), first lines redacted with the shared secret rules, and the short
 * display descriptions the engine writes when a required `description` is missing (derived from the call's
 * own arguments, never invented content; a shell command is described by its program, subcommands and bare
 * flags only, never by an argument that could be a password or token).
 */
import { redact } from './secrets.js';

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

/** First line of `text`, whitespace-collapsed, redacted, and cut to `max` characters. */
export function firstLine(text: string, max = 60): string {
  const line = redact((text.slice(0, 2000).trim().split('\n', 1)[0] ?? '').replace(/\s+/g, ' ').trim());
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
