/**
 * The engine's reading of an arbitrary JSON Schema (any tool: DSH's, an MCP server's, an AI SDK tool's): which key of
 * the schema an undeclared key of a call stands for (a synonym of a required key, or the schema's own key in another
 * case style), at every depth the schema describes: nested objects, each item of an array of objects, the one
 * `anyOf`/`oneOf` branch a value can be read under, local `$ref`s into `$defs`/`definitions` (also behind a
 * one-member `allOf` that only adds a description). One walk (`readDeep`) carries each argument rule (rename, one
 * value for a list, JSON text for a structured field) through that tree; a subtree that already passes its schema is
 * never entered, so valid input is never touched.
 *
 * Every key rename of the engine is planned here (`planRenames`), for calls and for Code Mode's inner calls alike,
 * with one rule first: two candidates for one key is no reading. A rename is refused when another undeclared key,
 * not itself renamed, holds a value the target's schema would take too, whatever the key order.
 */
import { isRecord } from '../tools.js';
import { compiledSchemaFor, passesSchema } from '../validate.js';

export type Schema = Record<string, unknown>;

/**
 * Required key -> the keys models send instead of it, for any tool (compared case- and separator-blind, so
 * `file_path`, `filePath` and `FilePath` are one entry). Where models were seen sending each:
 * - `cmd` for `command`: DSH sessions (bash), the rule since the first release (README "Model Experience").
 * - `path`/`file`/`filename`/`filePath` for `file_path`, and `file_path`/`filePath` for `path`: DSH sessions
 *   (read/write), serena #114 (`relative_path` for `path`), CommandCodeAI/command-code #399 (`filePath`,
 *   `absolutePath` for a write), lc2panda/wps-skills #11 (`filePath` vs `path`), issue 29's real-host DSH scenario
 *   (`read_text_file {file_path}` through dsh-mcp-client).
 * - `directory`/`dir`/`folder` for `path`: issue 29's server-filesystem corpus (`list_directory {directory}`),
 *   tumf/mcp-shell-server #10 (a `directory` argument).
 * - `from`/`to` (and `src`/`dest`) for `source`/`destination`: issue 29's server-filesystem corpus (`move_file`).
 * - `contents`/`text`/`file_text`/`fileContent` for `content`: DSH sessions (write), str_replace_editor's own
 *   `file_text`, langchain-ai/deepagents #416 (write_file calls without `content`). `body` is not one: it stands for
 *   an HTTP or message body as often, and issue 29 asks that `{path, body}` be left alone.
 * - `old_str`/`oldString`/`old_text` and `new_str`/... for `old_string`/`new_string`: DSH sessions (edit), the
 *   Anthropic editor's own names.
 */
const KEY_SYNONYMS: Record<string, readonly string[]> = {
  command: ['cmd'],
  file_path: ['path', 'filePath', 'file', 'filename', 'fileName'],
  path: ['file_path', 'filePath', 'file', 'filename', 'directory', 'dir', 'folder'],
  source: ['from', 'src'],
  destination: ['to', 'dest'],
  content: ['contents', 'file_text', 'fileContent', 'text'],
  old_string: ['old_str', 'oldString', 'old_text', 'oldText'],
  new_string: ['new_str', 'newString', 'new_text', 'newText'],
};

/** Per-tool synonyms where the generic table would be wrong (on grep, `glob` is the include filter, not the pattern). */
const TOOL_KEY_SYNONYMS: Record<string, Record<string, readonly string[]>> = {
  bash: { command: ['cmd', 'script'] },
  grep: { pattern: ['query', 'regex', 'search'] },
  glob: { pattern: ['glob', 'file_pattern'] },
  web_search: { queries: ['query'] },
};

/** The keys models send instead of `target` on the tool named `toolName` (its top-level object). */
export function aliasesFor(toolName: string | undefined, target: string): readonly string[] {
  const own = toolName !== undefined && Object.hasOwn(TOOL_KEY_SYNONYMS, toolName) ? TOOL_KEY_SYNONYMS[toolName] : {};
  if (own && Object.hasOwn(own, target)) return own[target] as readonly string[];
  return Object.hasOwn(KEY_SYNONYMS, target) ? (KEY_SYNONYMS[target] as readonly string[]) : [];
}

/** A key with case and separators removed: `branch_name`, `branchName`, `branch-name`, `BranchName` are one. */
export function squashKey(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

/** A value whose content cannot be read before it runs (a Code Mode literal's computed value): it could be anything. */
export const UNREAD: unique symbol = Symbol('unread');

/** The declared properties of an object schema node, if it declares any. */
export function propertiesOf(node: Schema): Record<string, unknown> | undefined {
  return isRecord(node.properties) ? (node.properties as Record<string, unknown>) : undefined;
}

function requiredOf(node: Schema): string[] {
  return Array.isArray(node.required) ? node.required.filter((key): key is string => typeof key === 'string') : [];
}

const LOCAL_REF = /^#\/(\$defs|definitions)\/([^/]+)$/;
/** How many `$ref`s and `allOf` wrappers one resolution follows before it gives up (a cycle ends here). */
const MAX_RESOLVE_HOPS = 16;

/** Keys that only describe a node: a wrapper holding nothing else means what its one member means. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

/**
 * The one member of an `allOf` wrapper that adds only annotations (`{"allOf": [{"$ref": ...}], "description": ...}`,
 * how pydantic v1, pydantic v2 before 2.9 (pydantic/pydantic#10031, #10029) and other generators attach a description
 * to a referenced model, since a `$ref` could not carry siblings before draft 2019-09); undefined for any other node.
 */
function soleAllOfMember(node: Schema): unknown {
  if (!Array.isArray(node.allOf) || node.allOf.length !== 1) return undefined;
  return Object.keys(node).every((key) => key === 'allOf' || ANNOTATIONS.has(key)) ? node.allOf[0] : undefined;
}

/**
 * `node` with a local `$ref` (`#/$defs/x`, `#/definitions/x`) and a one-member `allOf` wrapper followed; undefined
 * for a ref it cannot follow.
 */
export function resolved(root: Schema, node: unknown, hops = 0): Schema | undefined {
  if (!isRecord(node)) return undefined;
  const member = soleAllOfMember(node);
  if (member !== undefined) return hops > MAX_RESOLVE_HOPS ? undefined : resolved(root, member, hops + 1);
  if (typeof node.$ref !== 'string') return node;
  const match = LOCAL_REF.exec(node.$ref);
  if (!match || hops > MAX_RESOLVE_HOPS) return undefined;
  const defs = root[match[1] as string];
  const name = (match[2] as string).replace(/~1/g, '/').replace(/~0/g, '~');
  return isRecord(defs) && Object.hasOwn(defs, name) ? resolved(root, defs[name], hops + 1) : undefined;
}

/** Sub-schemas checked on their own, with the root's `$defs`/`definitions` beside them so their refs resolve. */
const withDefinitions = new WeakMap<Schema, Schema>();

function checkable(root: Schema, node: Schema): Schema {
  if (node === root || (root.$defs === undefined && root.definitions === undefined)) return node;
  let schema = withDefinitions.get(node);
  if (!schema) {
    schema = { ...node };
    if (root.$defs !== undefined) schema.$defs = root.$defs;
    if (root.definitions !== undefined) schema.definitions = root.definitions;
    withDefinitions.set(node, schema);
  }
  return schema;
}

/** True when `value` passes `node` (false when the node cannot be checked). */
function passes(root: Schema, node: Schema, value: unknown): boolean {
  return passesSchema(checkable(root, node), value);
}

/** True when `value` could be the value of a key with schema `node`: an absent, unreadable or unknown one takes anything. */
function couldBe(root: Schema, node: unknown, value: unknown): boolean {
  if (value === UNREAD) return true;
  const schema = resolved(root, node);
  if (!schema) return true;
  const check = checkable(root, schema);
  if ('unsupported' in compiledSchemaFor(check)) return true;
  return passesSchema(check, value) || passesSchema(check, placedValue(schema, value));
}

function typesOf(node: Schema): string[] | undefined {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((type): type is string => typeof type === 'string');
  return undefined;
}

/** True when the node describes values of `kind` only as one of its types (a typeless node with `properties` is an object). */
export function wants(node: Schema, kind: 'object' | 'array'): boolean {
  const types = typesOf(node);
  if (types) return types.includes(kind);
  return kind === 'object' ? propertiesOf(node) !== undefined : isRecord(node.items);
}

/** The JSON kind of a value, as a schema names it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** True when the node's declared types take a value of this kind (a typeless node takes any). */
function takesKind(node: Schema, value: unknown): boolean {
  const types = typesOf(node);
  if (!types) return !(isRecord(value) && isRecord(node.items)) && !(Array.isArray(value) && propertiesOf(node));
  const kind = kindOf(value);
  return types.includes(kind) || (kind === 'integer' && types.includes('number'));
}

/** A string for a list of strings is placed as the list of that one string (`"query"` -> `queries: [query]`). */
function placedValue(node: Schema, value: unknown): unknown {
  const items = isRecord(node.items) ? node.items : undefined;
  if (typesOf(node)?.includes('array') && typeof value === 'string' && items && typesOf(items)?.includes('string'))
    return [value];
  return value;
}

export type RenamePlan = { renames: Map<string, string> } | { ambiguous: string };

/**
 * The renames that read an object's undeclared keys as keys of its schema `node`: a key the schema declares in
 * another case style (`branch_name` -> `branchName`), or a synonym of a required key (`toolName` adds that tool's own
 * synonyms: top level only). Only an absent target is filled. Refused (`ambiguous`) when one key could be two
 * targets, two keys with different values could be one target, or another undeclared key not itself renamed holds
 * a value the target would take too: two candidates for one key is no reading.
 */
export function planRenames(root: Schema, node: Schema, args: Record<string, unknown>, toolName?: string): RenamePlan {
  const renames = new Map<string, string>();
  const properties = propertiesOf(node) ?? {};
  const undeclared = Object.keys(args).filter((key) => !Object.hasOwn(properties, key));
  if (undeclared.length === 0) return { renames };
  const byCase = new Map<string, string[]>();
  for (const key of Object.keys(properties)) byCase.set(squashKey(key), [...(byCase.get(squashKey(key)) ?? []), key]);
  const required = requiredOf(node);
  const byTarget = new Map<string, string[]>();
  for (const key of undeclared) {
    const squashed = squashKey(key);
    const targets = new Set<string>();
    const sameWords = byCase.get(squashed) ?? [];
    if (sameWords.length === 1) targets.add(sameWords[0] as string);
    for (const target of required)
      if (aliasesFor(toolName, target).some((alias) => squashKey(alias) === squashed)) targets.add(target);
    const absent = [...targets].filter((target) => !Object.hasOwn(args, target));
    if (absent.length > 1) return { ambiguous: `"${key}" could be ${absent.map((t) => `"${t}"`).join(' or ')}` };
    const target = absent[0];
    if (target !== undefined) byTarget.set(target, [...(byTarget.get(target) ?? []), key]);
  }
  for (const [target, keys] of byTarget) {
    const values = new Set(keys.map((key) => (args[key] === UNREAD ? key : JSON.stringify(args[key]))));
    if (values.size > 1) return { ambiguous: `both ${keys.map((k) => `"${k}"`).join(' and ')} could be "${target}"` };
    for (const key of keys) renames.set(key, target);
  }
  for (const key of undeclared) {
    if (renames.has(key)) continue;
    for (const [alias, target] of renames)
      if (couldBe(root, properties[target], args[key]))
        return { ambiguous: `"${key}" could be "${target}" as well as "${alias}"` };
  }
  return { renames };
}

/** Copies `args` with entries replaced; built from entries, so no key (not even `__proto__`) is assigned. */
export function withEntries(
  args: Record<string, unknown>,
  change: (key: string, value: unknown) => [string, unknown][] | undefined,
): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(args)) {
    const replaced = change(key, args[key]);
    if (replaced) entries.push(...replaced);
    else entries.push([key, args[key]]);
  }
  return Object.fromEntries(entries);
}

/** One change a step made, at a path in the host's notation (`entities[0].entityType`). */
export interface ReadingChange {
  path: string;
  before: unknown;
  after: unknown;
  /** For a rename: the key sent and the key of the schema. */
  renamed?: { from: string; to: string };
}

/** What a walk carries: the root schema (for refs), the tool's name (its own synonyms apply at the top), the changes. */
export interface ReadingContext {
  root: Schema;
  toolName: string;
  changes: ReadingChange[];
  ambiguous?: string;
  /** Top-level keys left to their own rules (the editor's `view_range`). */
  skip?: readonly string[];
  /** Nodes visited so far, shared with the walks of `anyOf`/`oneOf` branches (see MAX_READING_VISITS). */
  visits?: { count: number };
}

/** One rule at one node: the node's new value (the whole value, not a change), or nothing. */
export type ReadingStep = (
  node: Schema,
  value: unknown,
  at: { path: string; depth: number; context: ReadingContext },
) => { value: unknown } | undefined;

const MAX_READING_DEPTH = 32;
/**
 * Nodes one reading may visit: branches inside branches multiply (a schema of nested two-way `anyOf`s is 2^depth
 * walks), and a value may hold many items. Past it the reading gives up: nothing is changed.
 */
const MAX_READING_VISITS = 5_000;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * Carries `step` through `value` as `node` describes it: the node itself, then each declared property of an
 * object, each item of an array (an object where a list of objects is wanted is read as its one item), and for a
 * node made of `anyOf`/`oneOf` branches only the one branch whose reading passes it (or the one branch any reading
 * changes). A subtree that passes its node is returned as it is.
 */
export function readDeep(
  node: unknown,
  value: unknown,
  step: ReadingStep,
  context: ReadingContext,
  path = '',
  depth = 0,
): unknown {
  if (depth > MAX_READING_DEPTH || context.ambiguous !== undefined) return value;
  context.visits ??= { count: 0 };
  if (++context.visits.count > MAX_READING_VISITS) {
    context.ambiguous = 'the schema and the value are too large to read';
    return value;
  }
  const schema = resolved(context.root, node);
  if (!schema || (depth > 0 && passes(context.root, schema, value))) return value;
  const branches = propertiesOf(schema) || schema.items ? undefined : (schema.anyOf ?? schema.oneOf);
  if (Array.isArray(branches)) return readBranches(branches, value, step, context, path, depth);
  const local = step(schema, value, { path, depth, context });
  const current = local ? local.value : value;
  const properties = propertiesOf(schema);
  if (isRecord(current) && properties) {
    let changed = false;
    const read = withEntries(current, (key, item) => {
      if (!Object.hasOwn(properties, key) || (depth === 0 && context.skip?.includes(key))) return undefined;
      const next = readDeep(properties[key], item, step, context, childPath(path, key), depth + 1);
      if (next === item) return undefined;
      changed = true;
      return [[key, next]];
    });
    return changed ? read : current;
  }
  if (schema.items !== undefined && isRecord(schema.items) && wants(schema, 'array')) {
    if (Array.isArray(current)) {
      let changed = false;
      const read = current.map((item, index) => {
        const next = readDeep(schema.items, item, step, context, childPath(path, index), depth + 1);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? read : current;
    }
    // One object where a list of objects is wanted: read it as the item it will be once it is the list of it.
    if (isRecord(current)) return readDeep(schema.items, current, step, context, path, depth + 1);
  }
  return current;
}

function readBranches(
  branches: unknown[],
  value: unknown,
  step: ReadingStep,
  context: ReadingContext,
  path: string,
  depth: number,
): unknown {
  const readings: { value: unknown; passes: boolean; changes: ReadingChange[] }[] = [];
  for (const branch of branches) {
    const schema = resolved(context.root, branch);
    if (!schema) continue;
    const own: ReadingContext = { root: context.root, toolName: context.toolName, changes: [] };
    if (context.visits) own.visits = context.visits;
    const read = readDeep(schema, value, step, own, path, depth + 1);
    if (own.ambiguous !== undefined) {
      context.ambiguous = own.ambiguous;
      return value;
    }
    if (read !== value)
      readings.push({ value: read, passes: passes(context.root, schema, read), changes: own.changes });
  }
  const passing = readings.filter((reading) => reading.passes);
  const distinct = new Set((passing.length > 0 ? passing : readings).map((reading) => JSON.stringify(reading.value)));
  if (distinct.size !== 1) return value;
  const chosen = (passing.length > 0 ? passing : readings)[0] as (typeof readings)[number];
  context.changes.push(...chosen.changes);
  return chosen.value;
}

/** The rename step: an object's undeclared keys read as the keys of its node they stand for. */
export const renameStep: ReadingStep = (node, value, { path, depth, context }) => {
  if (!isRecord(value) || !propertiesOf(node)) return undefined;
  const plan = planRenames(context.root, node, value, depth === 0 ? context.toolName : undefined);
  if ('ambiguous' in plan) {
    context.ambiguous = plan.ambiguous;
    return undefined;
  }
  if (plan.renames.size === 0) return undefined;
  const properties = propertiesOf(node) ?? {};
  const placed = new Set<string>();
  const renamed = withEntries(value, (key, item) => {
    const target = plan.renames.get(key);
    if (target === undefined) return undefined;
    if (placed.has(target)) return [];
    placed.add(target);
    const schema = resolved(context.root, properties[target]);
    const after = schema ? placedValue(schema, item) : item;
    context.changes.push({ path: childPath(path, target), before: item, after, renamed: { from: key, to: target } });
    return [[target, after]];
  });
  return { value: renamed };
};

/** A step's new value, recorded as a change at its path. */
function changed(at: { path: string; context: ReadingContext }, before: unknown, after: unknown): { value: unknown } {
  at.context.changes.push({ path: at.path, before, after });
  return { value: after };
}

function looksLikeJsonText(value: string): '[' | '{' | undefined {
  const text = unfenced(value.trim());
  if (text.startsWith('[') && text.endsWith(']')) return '[';
  if (text.startsWith('{') && text.endsWith('}')) return '{';
  return undefined;
}

const FENCE = /^```[A-Za-z]*[ \t]*\r?\n([\s\S]*?)\r?\n```$/;

/** The text inside one Markdown fence that is the whole value (```json … ```), or the text itself. */
function unfenced(text: string): string {
  const match = FENCE.exec(text);
  return match ? (match[1] as string).trim() : text;
}

/**
 * One value where the node wants a list: `"paths": "a.txt"` -> `["a.txt"]`, one object where a list of objects is
 * wanted -> the list of it. Text that reads as a JSON list (or a JSON object for a list of objects) is left to the
 * rules that parse it: one reading per value.
 */
export const wrapStep: ReadingStep = (node, value, at) => {
  if (Array.isArray(value) || value === null || value === undefined || !wants(node, 'array') || takesKind(node, value))
    return undefined;
  const items = isRecord(node.items) ? node.items : undefined;
  if (typeof value === 'string') {
    const json = looksLikeJsonText(value);
    if (json === '[' || (json === '{' && items && wants(items, 'object'))) return undefined;
  }
  if (items && !takesKind(items, value)) return undefined;
  if (typeof node.maxItems === 'number' && node.maxItems < 1) return undefined;
  return changed(at, value, [value]);
};

/**
 * JSON text (or one fenced JSON value) where the node wants an object or a list: the value it holds, when it is
 * exactly one JSON value of the wanted kind (one object for a list of objects is that list of one). Prose is no JSON.
 */
export const parseStep: ReadingStep = (node, value, at) => {
  if (typeof value !== 'string' || takesKind(node, value)) return undefined;
  const object = wants(node, 'object');
  const list = wants(node, 'array');
  if ((!object && !list) || !looksLikeJsonText(value)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfenced(value.trim()));
  } catch {
    return undefined;
  }
  if (isRecord(parsed) && object) return changed(at, value, parsed);
  if (Array.isArray(parsed) && list) return changed(at, value, parsed);
  const items = isRecord(node.items) ? node.items : undefined;
  if (isRecord(parsed) && list && items && wants(items, 'object')) return changed(at, value, [parsed]);
  return undefined;
};
