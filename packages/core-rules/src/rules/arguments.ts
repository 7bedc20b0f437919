/**
 * Generic argument repairs for any tool, gated by the caller on the tool's schema (each fires only for a
 * call the host would reject, and the repaired call must pass): keys read as the schema names them, one value for
 * a list and JSON text for a structured field, at every depth (each one step of the schema reading,
 * rules/schema-reading.ts); `null` dropped for optional parameters that do not take null; lossless scalar forms
 * (`"10"` for an integer, `"true"` for a boolean) and a JSON string holding the list a field expects turned into
 * the value; NUL bytes around a command or path; and a missing or blank required display `description` derived
 * from the other arguments (after redaction).
 */
import { receipt, type RuleId } from '../catalogue.js';
import { fillableKeys, isRecord, propertySchema, requiredKeys } from '../tools.js';
import { describeCall, preview } from '../text.js';
import type { ToolSchema } from '../types.js';
import { SYSCALL_TEXT_KEYS } from '../host-checks.js';
import type { RuleOutcome } from './outcome.js';
import {
  parseStep,
  type ReadingChange,
  type ReadingContext,
  type ReadingStep,
  readDeep,
  renameStep,
  withEntries,
  wrapStep,
} from './schema-reading.js';

function typeOf(schema: Record<string, unknown> | undefined): string | undefined {
  return typeof schema?.type === 'string' ? schema.type : undefined;
}

/**
 * Runs one step of the schema reading through the whole call (rules/schema-reading.ts): the arguments it reads,
 * its changes, or the ambiguity that refuses it.
 */
function readCall(
  tool: ToolSchema,
  args: Record<string, unknown>,
  step: ReadingStep,
  skip: readonly string[] = [],
): { args: Record<string, unknown>; changes: ReadingChange[] } | { ambiguous: string } | undefined {
  if (!isRecord(tool.parameters)) return undefined;
  const context: ReadingContext = { root: tool.parameters, toolName: tool.name, changes: [], skip };
  const read = readDeep(tool.parameters, args, step, context);
  if (context.ambiguous !== undefined) return { ambiguous: context.ambiguous };
  if (context.changes.length === 0 || !isRecord(read)) return undefined;
  return { args: read, changes: context.changes };
}

/**
 * Renames every undeclared key that stands for a key of the schema, at every depth: a synonym of an absent required
 * key (`cmd` -> `command`, `directory` -> `path`, `from`/`to` -> `source`/`destination`) or the schema's own key in
 * another case style (`branch_name` -> `branchName`, inside each item of a list of objects too). Refused when two
 * keys could be one (rules/schema-reading.ts#planRenames).
 */
export function renameAliasKeys(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  const read = readCall(tool, args, renameStep);
  if (!read) return undefined;
  if ('ambiguous' in read) return { kind: 'ambiguous', reason: read.ambiguous };
  const renames = read.changes.filter((change) => change.renamed);
  const targets = renames.map((change) => `"${change.path}"`).join(', ');
  const sent = renames.map((change) => `"${change.renamed?.from}"`).join(', ');
  return {
    kind: 'repaired',
    args: read.args,
    receipt: receipt(
      'args.rename-alias',
      `${tool.name} requires ${targets}; the call sent ${sent}`,
      preview(Object.fromEntries(renames.map((change) => [change.renamed?.from, change.before]))),
      preview(Object.fromEntries(renames.map((change) => [change.path, change.after]))),
    ),
  };
}

/** The outcome of a structural step of the reading, with one receipt naming the paths it changed. */
function readingOutcome(
  tool: ToolSchema,
  args: Record<string, unknown>,
  step: ReadingStep,
  ruleId: RuleId,
  why: string,
  skip: readonly string[] = [],
): RuleOutcome {
  const read = readCall(tool, args, step, skip);
  if (!read) return undefined;
  if ('ambiguous' in read) return { kind: 'ambiguous', reason: read.ambiguous };
  const paths = read.changes.map((change) => change.path);
  return {
    kind: 'repaired',
    args: read.args,
    receipt: receipt(
      ruleId,
      `${tool.name}: ${paths.map((path) => `"${path}"`).join(', ')} ${why}`,
      preview(Object.fromEntries(read.changes.map((change) => [change.path, change.before]))),
      preview(Object.fromEntries(read.changes.map((change) => [change.path, change.after]))),
    ),
  };
}

/** True for an absent, null or whitespace-only value. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function allowsNull(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (type === undefined) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.some((option) => isRecord(option) && allowsNull(option))) return true;
  }
  return Array.isArray(schema.enum) && schema.enum.includes(null);
}

/** Drops `null` sent for optional declared parameters whose schema does not take null (the host reads absent as the default). */
export function dropNullOptionals(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  const required = new Set(requiredKeys(tool));
  const dropped = Object.keys(args).filter((key) => {
    if (args[key] !== null || required.has(key)) return false;
    const schema = propertySchema(tool, key);
    return schema !== undefined && !allowsNull(schema);
  });
  if (dropped.length === 0) return undefined;
  return {
    kind: 'repaired',
    args: withEntries(args, (key) => (dropped.includes(key) ? [] : undefined)),
    receipt: receipt(
      'args.drop-null-optional',
      `${tool.name}: ${dropped.map((key) => `"${key}"`).join(', ')} ${dropped.length === 1 ? 'is' : 'are'} optional and do${dropped.length === 1 ? 'es' : ''} not take null; left to the default`,
      preview(Object.fromEntries(dropped.map((key) => [key, null]))),
      '(absent)',
    ),
  };
}

/** A lossless reading of `value` as the property's declared type, or undefined. */
export function coerced(schema: Record<string, unknown>, value: unknown): { value: unknown } | undefined {
  const type = typeOf(schema);
  if (typeof value !== 'string' || type === undefined) return undefined;
  // Exactly the canonical text: `" 5"`, `"5\n"` or `"true "` are not what a model writes for 5 or true.
  const text = value;
  if ((type === 'integer' || type === 'number') && /^-?(0|[1-9]\d{0,14})(\.\d{1,15})?$/.test(text)) {
    const number = Number(text);
    if (String(number) !== text || (type === 'integer' && !Number.isInteger(number))) return undefined;
    return { value: number };
  }
  if (type === 'boolean' && (text === 'true' || text === 'false')) return { value: text === 'true' };
  if (type === 'array' && text.startsWith('[') && text.endsWith(']')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return Array.isArray(parsed) ? { value: parsed } : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * `"10"` -> 10 for an integer parameter, `"true"` -> true for a boolean one, `"[...]"` -> the list for an array one.
 * Keys in `skip` are left to their own rules (the editor's `view_range`).
 */
export function coerceScalars(
  tool: ToolSchema,
  args: Record<string, unknown>,
  skip: readonly string[] = [],
): RuleOutcome {
  const changes = new Map<string, unknown>();
  for (const key of Object.keys(args)) {
    if (skip.includes(key)) continue;
    const schema = propertySchema(tool, key);
    const reading = schema ? coerced(schema, args[key]) : undefined;
    if (reading) changes.set(key, reading.value);
  }
  const ids = [...changes.keys()].some((key) => Array.isArray(changes.get(key)))
    ? 'a JSON string holding a list'
    : 'a string';
  return replacedValues('args.coerce-scalar', tool, args, changes, `sent as ${ids}; the schema reads it one way only`);
}

/**
 * A single value where the schema wants a list (`web_search {"queries": "rust async runtime"}`, `"paths": "a.txt"`)
 * becomes the list of that one value, and one object where a list of objects is wanted the list of it, at every depth.
 * A string that reads as a JSON list is left to `coerceScalars` and `parseObjectText` (one reading per value).
 */
export function wrapScalarInList(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  return readingOutcome(
    tool,
    args,
    wrapStep,
    'args.wrap-scalar-in-list',
    'takes a list; one value was sent, so it is the list of that value',
  );
}

/**
 * A structured value sent as JSON text (or one fenced JSON value) where the schema wants an object or a list
 * (`"author": "{\"name\": ...}"`), at every depth, becomes that value when the text is exactly one JSON value of the
 * wanted kind. Prose is not JSON: it stays as sent.
 */
export function parseObjectText(
  tool: ToolSchema,
  args: Record<string, unknown>,
  skip: readonly string[] = [],
): RuleOutcome {
  return readingOutcome(
    tool,
    args,
    parseStep,
    'args.parse-object-text',
    'takes structured data; it was sent as JSON text holding exactly one value of that kind',
    skip,
  );
}

const EDGE_NULS = /^\0+|\0+$/g;

/**
 * NUL bytes leaked at the start or end of a command or a path (reported from vLLM-served DeepSeek) are dropped: the
 * host cannot pass them to a system call at all. A NUL inside the text is left to the host (dropping it would join
 * two words into a new one).
 */
export function stripEdgeNuls(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  const keys = (Object.hasOwn(SYSCALL_TEXT_KEYS, tool.name) ? SYSCALL_TEXT_KEYS[tool.name] : undefined) ?? [];
  const changes = new Map<string, string>();
  for (const key of keys) {
    const value = args[key];
    if (typeof value !== 'string' || !value.includes('\0')) continue;
    const stripped = value.replace(EDGE_NULS, '');
    if (stripped !== value && !stripped.includes('\0') && stripped.trim() !== '') changes.set(key, stripped);
  }
  return replacedValues(
    'args.strip-edge-nul',
    tool,
    args,
    changes,
    `began or ended with NUL bytes, which no command or path can hold`,
  );
}

/** Fills a required display `description` that is absent, null or blank from the call's other arguments. */
export function fillDescription(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  const missing = fillableKeys(tool).filter((key) => isBlank(args[key]));
  if (missing.length === 0) return undefined;
  const description = describeCall(tool.name, args);
  const filled = withEntries(args, (key) => (missing.includes(key) ? [] : undefined));
  for (const key of missing) filled[key] = description;
  const blank = missing.some((key) => typeof args[key] === 'string');
  return {
    kind: 'repaired',
    args: filled,
    receipt: receipt(
      'args.fill-description',
      blank
        ? `${tool.name} rejects a blank "description"; derived one from the call's other arguments`
        : `${tool.name} requires "description"; derived one from the call's other arguments`,
      preview(args.description),
      preview(description),
    ),
  };
}

/**
 * The outcome of a rule that replaced the values of some properties: the arguments with `changes` applied and one
 * receipt naming the keys (`why` follows them), or undefined when nothing changed.
 */
function replacedValues(
  ruleId: RuleId,
  tool: ToolSchema,
  args: Record<string, unknown>,
  changes: ReadonlyMap<string, unknown>,
  why: string,
): RuleOutcome {
  if (changes.size === 0) return undefined;
  const keys = [...changes.keys()];
  return {
    kind: 'repaired',
    args: withEntries(args, (key, value) => [[key, changes.has(key) ? changes.get(key) : value]]),
    receipt: receipt(
      ruleId,
      `${tool.name}: ${keys.map((key) => `"${key}"`).join(', ')} ${why}`,
      preview(Object.fromEntries(keys.map((key) => [key, args[key]]))),
      preview(Object.fromEntries(changes)),
    ),
  };
}
