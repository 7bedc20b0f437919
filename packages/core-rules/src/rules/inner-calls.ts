/**
 * Inner Code-Mode calls: a `tools.<name>({...})` object literal in a run_code program that lacks a property
 * the tool's schema requires and the engine can fill (bash's `description`), or sends it blank (`""`, which
 * the host rejects before running), gets one spliced in at the exact position, so every other byte of the
 * program stays as written. The program is parsed and edited through syntax-healer's program analysis.
 *
 * The valid path must not pay for a parse, so `mayNeedInnerFill` first scans the text: for every call site
 * of a tool with fillable keys, it reads the object literal's top-level keys (skipping strings, templates and
 * comments). Only a call whose literal lacks a fillable key, carries it as an empty string, or cannot be read
 * sends the program to the parser. A mention of `description` elsewhere in the program does not hide a call
 * that lacks it.
 */
import type { AstNode, TextEdit } from '@dsh-tool-normalizer/syntax-healer';
import { RUN_CODE } from '@dsh-tool-normalizer/syntax-healer/tool-name';
import { lineOf, propertyKey, staticString, toolCallSites } from '../healer.js';
import { checksBeyondSchema } from '../host-checks.js';
import { fillableKeys, findTool, isRecord, propertySchema, requiredKeys } from '../tools.js';
import { describeCall, describeCommand } from '../text.js';
import type { Environment, ToolSchema } from '../types.js';
import { aliasesFor, planRenames, UNREAD } from './schema-reading.js';

/** One planned edit of an inner call: a fill (a missing or blank description) or a rename (an alias key). */
export interface InnerFill {
  kind: 'fill' | 'rename';
  tool: string;
  keys: string[];
  line: number;
  edit: TextEdit;
}

/** The properties of an object literal whose values are static strings (the rest cannot be read before it runs). */
function stringLiterals(object: AstNode, renames: ReadonlyMap<string, string>): Record<string, unknown> {
  const literals: Record<string, unknown> = {};
  for (const property of object.properties as AstNode[]) {
    const raw = propertyKey(property);
    const key = raw === undefined ? undefined : (renames.get(raw) ?? raw);
    const value = staticString(property.value);
    if (key !== undefined && key !== '__proto__' && value !== undefined) literals[key] = value;
  }
  return literals;
}

function descriptionFor(tool: ToolSchema, literals: Record<string, unknown>): string {
  if (tool.name === 'bash') return describeCommand(typeof literals.command === 'string' ? literals.command : '');
  return describeCall(tool.name, literals);
}

function isBlankLiteral(node: unknown): boolean {
  const value = staticString(node);
  return value !== undefined && value.trim() === '';
}

/**
 * Keys of a literal that stand for a key of the schema (`path` for read's `file_path`), planned like every rename
 * (rules/schema-reading.ts#planRenames: a value that cannot be read statically could be anything, so it blocks a
 * rename as another candidate would), one-to-one only: each target from one key, and the value needs no reshaping (a
 * target that takes a list is left to the host). Undefined when a rename would be ambiguous.
 */
function aliasRenames(tool: ToolSchema, present: ReadonlyMap<string, AstNode>): Map<string, string> | undefined {
  if (!isRecord(tool.parameters)) return new Map();
  const literals = Object.fromEntries(
    [...present].map(([key, property]) => [key, staticString(property.value) ?? UNREAD] as const),
  );
  const plan = planRenames(tool.parameters, tool.parameters, literals, tool.name);
  if ('ambiguous' in plan) return undefined;
  const renames = new Map<string, string>();
  const targets = new Set<string>();
  for (const [alias, target] of plan.renames) {
    if (targets.has(target)) return undefined;
    targets.add(target);
    if (propertySchema(tool, target)?.type === 'array') continue;
    renames.set(alias, target);
  }
  return renames;
}

/** The edit that renames one property's key (a shorthand `{ path }` keeps its value: `file_path: path`). */
function renameEdit(property: AstNode, alias: string, target: string): TextEdit | undefined {
  const key = property.key as AstNode | undefined;
  if (!key || typeof key.start !== 'number' || typeof key.end !== 'number' || property.computed) return undefined;
  if (property.type !== 'ObjectProperty') return undefined;
  const text = property.shorthand ? `${target}: ${alias}` : target;
  return { start: key.start, end: key.end, text };
}

/**
 * Plans the edits for every inner call whose object literal can be completed: alias keys renamed to the required
 * key they stand for, then missing or blank fillable keys filled. A call is edited only when, after the edits,
 * every required key is present and the host's checks beyond the schema pass on what can be read statically.
 */
export function planInnerFills(program: AstNode, env: Environment): InnerFill[] {
  const fills: InnerFill[] = [];
  for (const site of toolCallSites(program)) {
    if (site.name === RUN_CODE) continue;
    const tool = findTool(env, site.name);
    const argument = site.argument;
    if (!tool || !argument || argument.type !== 'ObjectExpression') continue;
    const fillable = fillableKeys(tool);
    const properties = argument.properties as AstNode[];
    const present = new Map<string, AstNode>();
    let opaque = false;
    for (const property of properties) {
      const key = propertyKey(property);
      if (key === undefined) opaque = true;
      else present.set(key, property);
    }
    if (opaque) continue;
    const renames = aliasRenames(tool, present);
    if (!renames) continue;
    const renamed = new Set(renames.values());
    const missing = requiredKeys(tool).filter((key) => !present.has(key) && !renamed.has(key));
    const blank = fillable.filter((key) => {
      const property = present.get(key);
      return property?.type === 'ObjectProperty' && !property.shorthand && isBlankLiteral(property.value);
    });
    if (missing.length + blank.length + renames.size === 0 || !missing.every((key) => fillable.includes(key))) continue;
    const literals = stringLiterals(argument, renames);
    const text = descriptionFor(tool, literals);
    // The edited call must pass the host's own checks too (a bash call with an empty command still fails).
    const filled = { ...literals, ...Object.fromEntries([...missing, ...blank].map((key) => [key, text])) };
    if (checksBeyondSchema(tool.name, filled).length > 0) continue;
    const line = lineOf(argument);
    const siteEdits: InnerFill[] = [];
    for (const [alias, target] of renames) {
      const edit = renameEdit(present.get(alias) as AstNode, alias, target);
      if (!edit) break;
      siteEdits.push({ kind: 'rename', tool: site.name, keys: [target], line, edit });
    }
    if (siteEdits.length !== renames.size) continue;
    const description = JSON.stringify(text);
    for (const key of blank) {
      const value = (present.get(key) as AstNode).value as AstNode;
      if (typeof value.start === 'number' && typeof value.end === 'number') {
        siteEdits.push({
          kind: 'fill',
          tool: site.name,
          keys: [key],
          line,
          edit: { start: value.start, end: value.end, text: description },
        });
      }
    }
    if (missing.length > 0) {
      const assignment = missing.map((key) => `${key}: ${description}`).join(', ');
      const last = properties[properties.length - 1];
      if (last && typeof last.end === 'number')
        siteEdits.push({
          kind: 'fill',
          tool: site.name,
          keys: missing,
          line,
          edit: { start: last.end, end: last.end, text: `, ${assignment}` },
        });
      else if (typeof argument.start === 'number')
        siteEdits.push({
          kind: 'fill',
          tool: site.name,
          keys: missing,
          line,
          edit: { start: argument.start + 1, end: argument.start + 1, text: ` ${assignment} ` },
        });
    }
    fills.push(...siteEdits);
  }
  return fills;
}

/**
 * The call-site pattern for the tools in `env` whose literal the engine may complete, and per tool the keys a literal
 * must show (fillable ones, and required ones models send under an alias), cached per tools array.
 */
const fillableByTools = new WeakMap<
  readonly ToolSchema[],
  { pattern: RegExp | undefined; keys: Map<string, readonly string[]> }
>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function keysToShow(tool: ToolSchema): string[] {
  const aliased = requiredKeys(tool).filter((key) => aliasesFor(tool.name, key).length > 0);
  return [...new Set([...fillableKeys(tool), ...aliased])];
}

function fillableIndex(env: Environment): { pattern: RegExp | undefined; keys: Map<string, readonly string[]> } {
  let index = fillableByTools.get(env.tools);
  if (!index) {
    const keys = new Map<string, readonly string[]>();
    for (const tool of env.tools) {
      const shown = tool && typeof tool.name === 'string' && tool.name !== RUN_CODE ? keysToShow(tool) : [];
      if (shown.length > 0 && !keys.has(tool.name)) keys.set(tool.name, shown);
    }
    const names = [...keys.keys()]
      .sort((left, right) => right.length - left.length)
      .map(escapeRegExp)
      .join('|');
    const pattern =
      keys.size === 0
        ? undefined
        : new RegExp(`\\btools\\s*(?:\\?\\.\\s*|\\.\\s*|\\[\\s*["'\`])(${names})(?![\\w$])[^(]{0,8}?\\(`, 'g');
    index = { pattern, keys };
    fillableByTools.set(env.tools, index);
  }
  return index;
}

/** Index after a string/template/comment starting at `at`, or -1 when it does not close. */
function skipToken(code: string, at: number): number {
  const char = code[at];
  if (char === '/' && code[at + 1] === '/') {
    const end = code.indexOf('\n', at);
    return end < 0 ? code.length : end;
  }
  if (char === '/' && code[at + 1] === '*') {
    const end = code.indexOf('*/', at + 2);
    return end < 0 ? -1 : end + 2;
  }
  if (char === '`') {
    // A template: skip to the closing backtick, treating `${ ... }` as code with nested braces.
    let index = at + 1;
    while (index < code.length) {
      const current = code[index];
      if (current === '\\') index += 2;
      else if (current === '`') return index + 1;
      else if (current === '$' && code[index + 1] === '{') {
        const end = skipBalanced(code, index + 1);
        if (end < 0) return -1;
        index = end;
      } else index++;
    }
    return -1;
  }
  const stop = char === '"' ? DOUBLE_QUOTED_STOP : SINGLE_QUOTED_STOP;
  for (let index = at + 1; index < code.length; ) {
    stop.lastIndex = index;
    const found = stop.exec(code);
    if (!found) return -1;
    if (found[0] === '\\') index = found.index + 2;
    else if (found[0] === char) return found.index + 1;
    else return -1;
  }
  return -1;
}

/** Where a quoted string may end or escape: its quote, a backslash, or a newline (an unterminated string). */
const DOUBLE_QUOTED_STOP = /["\\\n]/g;
const SINGLE_QUOTED_STOP = /['\\\n]/g;
/** An identifier key at a position (sticky). */
const IDENTIFIER = /[A-Za-z_$][\w$]*/y;
/** Whitespace at a position (sticky; matches empty so `lastIndex` lands after it). */
const SPACE = /\s*/y;
/** Characters that matter while skipping an object value: separators, brackets, quotes, slashes. */
const VALUE_STOP = /[,}"'`/([{]/g;

/** Index after the bracket that closes the one at `open`, skipping strings and comments; -1 when unsure. */
function skipBalanced(code: string, open: number): number {
  let depth = 0;
  for (let index = open; index < code.length; ) {
    const char = code[index] as string;
    if (
      char === '"' ||
      char === "'" ||
      char === '`' ||
      (char === '/' && (code[index + 1] === '/' || code[index + 1] === '*'))
    ) {
      const end = skipToken(code, index);
      if (end < 0) return -1;
      index = end;
      continue;
    }
    if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') {
      depth--;
      if (depth === 0) return index + 1;
    }
    index++;
  }
  return -1;
}

/**
 * Reads the top-level keys of the object literal at `open` (a `{`). Answers the keys with whether each one's
 * value is an empty string literal, or undefined when the literal cannot be read simply (spreads, computed
 * keys, methods, regular expressions): then the parser decides.
 */
function literalKeys(code: string, open: number): Map<string, boolean> | undefined {
  const keys = new Map<string, boolean>();
  let index = open + 1;
  const skipSpace = () => {
    for (;;) {
      SPACE.lastIndex = index;
      SPACE.test(code);
      index = SPACE.lastIndex;
      if (code[index] === '/' && (code[index + 1] === '/' || code[index + 1] === '*')) {
        const end = skipToken(code, index);
        if (end < 0) return false;
        index = end;
      } else return true;
    }
  };
  for (;;) {
    if (!skipSpace()) return undefined;
    if (code[index] === '}') return keys;
    let key: string | undefined;
    const char = code[index];
    if (char === '"' || char === "'") {
      const end = skipToken(code, index);
      if (end < 0) return undefined;
      const raw = code.slice(index + 1, end - 1);
      if (raw.includes('\\')) return undefined;
      key = raw;
      index = end;
    } else {
      IDENTIFIER.lastIndex = index;
      const match = IDENTIFIER.exec(code);
      if (!match) return undefined;
      key = match[0];
      index += key.length;
    }
    if (!skipSpace()) return undefined;
    if (code[index] === ',' || code[index] === '}') {
      keys.set(key, false); // shorthand `{ description }`
      if (code[index] === ',') index++;
      continue;
    }
    if (code[index] !== ':') return undefined;
    index++;
    if (!skipSpace()) return undefined;
    const valueStart = index;
    // The value runs to the next top-level `,` or the closing `}`.
    for (;;) {
      VALUE_STOP.lastIndex = index;
      const found = VALUE_STOP.exec(code);
      if (!found) return undefined;
      index = found.index;
      const current = found[0];
      if (current === ',' || current === '}') break;
      if (current === '/' && code[index + 1] !== '/' && code[index + 1] !== '*') return undefined; // division or a regular expression
      if (current === '"' || current === "'" || current === '`' || current === '/') {
        const end = skipToken(code, index);
        if (end < 0) return undefined;
        index = end;
      } else if (current === '(' || current === '[' || current === '{') {
        const end = skipBalanced(code, index);
        if (end < 0) return undefined;
        index = end;
      }
    }
    const value = index - valueStart <= 16 ? code.slice(valueStart, index).trim() : '';
    keys.set(key, /^(["'`])\s*\1$/.test(value));
    if (code[index] === ',') index++;
  }
}

/**
 * Fast path for the common literal `{ command: "...", description: "..." }`: the next mention of `key` after
 * the `{` is a top-level key with a non-blank double-quoted value, and the text before it has no brackets,
 * no escapes, no comment openers and only balanced double quotes (so the mention is not inside a string or a nested object).
 * False means "not shown this way", and the full scan decides.
 */
function plainlyHasKey(code: string, open: number, key: string): boolean {
  const at = code.indexOf(key, open + 1);
  if (at < 0 || at - open > 4000) return false;
  const between = code.slice(open + 1, at);
  if (/[{}()[\]'`\\]|\/[/*]/.test(between)) return false;
  let quotes = 0;
  for (let index = between.indexOf('"'); index >= 0; index = between.indexOf('"', index + 1)) quotes++;
  if (quotes % 2 !== 0 || !/(^|,)\s*$/.test(between)) return false;
  return /^\s*:\s*"[^"\s\\]/.test(code.slice(at + key.length, at + key.length + 40));
}

/**
 * Could some inner call lack a fillable key (or carry it blank), or send a required key under an alias? Cheap and
 * conservative: a call whose first argument is not an object literal is skipped (it cannot be edited before the
 * run), and any literal this scan cannot read goes to the parser.
 */
export function mayNeedInnerFill(code: string, env: Environment): boolean {
  const { pattern, keys } = fillableIndex(env);
  if (!pattern) return false;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(code); match; match = pattern.exec(code)) {
    SPACE.lastIndex = match.index + match[0].length;
    SPACE.test(code);
    const index = SPACE.lastIndex;
    if (code[index] !== '{') continue;
    const shown = keys.get(match[1] as string) ?? [];
    if (shown.every((key) => plainlyHasKey(code, index, key))) continue;
    const literal = literalKeys(code, index);
    if (!literal) return true;
    for (const key of shown) {
      if (!literal.has(key) || literal.get(key) === true) return true;
    }
  }
  return false;
}
