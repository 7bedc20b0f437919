/**
 * Generic argument repairs for any tool, gated by the caller on the tool's schema (each fires only for a
 * call the host would reject, and the repaired call must pass): alias keys renamed to the required key they
 * stand for when the schema makes the mapping one-to-one (`cmd` -> `command`, `old_str` -> `old_string` on
 * `edit`); `null` dropped for optional parameters that do not take null; lossless scalar forms (`"10"` for an
 * integer, `"true"` for a boolean) and a JSON string holding the list a field expects turned into the value;
 * and a missing or blank required display `description` derived from the other arguments (after redaction).
 */
import { receipt, type RuleId } from '../catalogue.js';
import { fillableKeys, isRecord, propertySchema, requiredKeys } from '../tools.js';
import { describeCall, preview } from '../text.js';
import type { ToolSchema } from '../types.js';
import { SYSCALL_TEXT_KEYS } from '../host-checks.js';
import { compiledSchemaFor, passesSchema } from '../validate.js';
import type { RuleOutcome } from './outcome.js';

/** Required key -> the keys models send instead of it, for any tool. */
const KEY_ALIASES: Record<string, readonly string[]> = {
  command: ['cmd'],
  file_path: ['path', 'filePath', 'file', 'filename', 'fileName'],
  path: ['file_path', 'filePath'],
  content: ['contents', 'file_text', 'fileContent', 'text'],
  old_string: ['old_str', 'oldString', 'old_text', 'oldText'],
  new_string: ['new_str', 'newString', 'new_text', 'newText'],
};

/** Per-tool aliases where the generic table would be wrong (on grep, `glob` is the include filter, not the pattern). */
const TOOL_KEY_ALIASES: Record<string, Record<string, readonly string[]>> = {
  bash: { command: ['cmd', 'script'] },
  grep: { pattern: ['query', 'regex', 'search'] },
  glob: { pattern: ['glob', 'file_pattern'] },
  web_search: { queries: ['query'] },
};

/** The keys models send instead of `target` on `tool`. */
export function aliasesFor(tool: ToolSchema, target: string): readonly string[] {
  return TOOL_KEY_ALIASES[tool.name]?.[target] ?? KEY_ALIASES[target] ?? [];
}

function typeOf(schema: Record<string, unknown> | undefined): string | undefined {
  return typeof schema?.type === 'string' ? schema.type : undefined;
}

/** `value` as the declared type of `target`, when the move is one-to-one (a single query becomes the list of one). */
function aliasValue(tool: ToolSchema, target: string, value: unknown): unknown {
  const schema = propertySchema(tool, target);
  if (
    typeOf(schema) === 'array' &&
    typeof value === 'string' &&
    typeOf(isRecord(schema?.items) ? schema.items : undefined) === 'string'
  )
    return [value];
  return value;
}

/** Copies `args` with entries replaced; built from entries, so no key (not even `__proto__`) is assigned. */
function withEntries(
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

/** True when `value` (or its placed form) could be the value of a key with `schema`: an unknown or unreadable schema takes anything. */
function couldBe(
  schema: Record<string, unknown> | undefined,
  value: unknown,
  placed: (value: unknown) => unknown,
): boolean {
  if (schema === undefined || 'unsupported' in compiledSchemaFor(schema)) return true;
  return passesSchema(schema, value) || passesSchema(schema, placed(value));
}

/**
 * Two candidates for one key is no reading: the reason a rename is refused when another undeclared key of the
 * call, not itself renamed, holds a value the target's schema would take too (`write {"path", "text": "a",
 * "body": "b"}`: `body` could be `content` as well as `text`, so neither is chosen). Key order does not matter.
 */
function otherCandidate(
  tool: ToolSchema,
  args: Record<string, unknown>,
  renames: ReadonlyMap<string, string>,
): string | undefined {
  for (const key of Object.keys(args)) {
    if (renames.has(key) || propertySchema(tool, key)) continue;
    for (const [alias, target] of renames) {
      if (couldBe(propertySchema(tool, target), args[key], (value) => aliasValue(tool, target, value)))
        return `"${key}" could be "${target}" as well as "${alias}"`;
    }
  }
  return undefined;
}

/**
 * Renames every alias key whose required target is absent, when exactly one alias value is present, the alias
 * is not itself a declared property, and no alias could stand for two targets.
 */
export function renameAliasKeys(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  const renames = new Map<string, string>();
  for (const target of requiredKeys(tool)) {
    if (Object.hasOwn(args, target)) continue;
    const aliases = aliasesFor(tool, target).filter(
      (alias) => Object.hasOwn(args, alias) && !propertySchema(tool, alias),
    );
    if (aliases.length === 0) continue;
    const distinct = new Set(aliases.map((alias) => JSON.stringify(args[alias])));
    if (distinct.size > 1) return { kind: 'ambiguous', reason: `both ${aliases.join(' and ')} could be "${target}"` };
    for (const alias of aliases) {
      if (renames.has(alias))
        return { kind: 'ambiguous', reason: `"${alias}" could be "${renames.get(alias)}" or "${target}"` };
      renames.set(alias, target);
    }
  }
  if (renames.size === 0) return undefined;
  const blocker = otherCandidate(tool, args, renames);
  if (blocker) return { kind: 'ambiguous', reason: blocker };
  const placed = new Set<string>();
  const renamed = withEntries(args, (key, value) => {
    const target = renames.get(key);
    if (target === undefined) return undefined;
    if (placed.has(target)) return [];
    placed.add(target);
    return [[target, aliasValue(tool, target, value)]];
  });
  const targets = [...renames.values()].map((key) => `"${key}"`).join(', ');
  const aliases = [...renames.keys()].map((key) => `"${key}"`).join(', ');
  return {
    kind: 'repaired',
    args: renamed,
    receipt: receipt(
      'args.rename-alias',
      `${tool.name} requires ${targets}; the call sent ${aliases}`,
      preview(Object.fromEntries([...renames.keys()].map((key) => [key, args[key]]))),
      preview(Object.fromEntries([...placed].map((key) => [key, renamed[key]]))),
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

/** The declared properties of `args` whose value `read` turns into one that passes the property's own schema. */
function readings(
  tool: ToolSchema,
  args: Record<string, unknown>,
  read: (schema: Record<string, unknown>, value: unknown) => { value: unknown } | undefined,
): Map<string, unknown> {
  const changes = new Map<string, unknown>();
  for (const key of Object.keys(args)) {
    const schema = propertySchema(tool, key);
    if (!schema || passesSchema(schema, args[key])) continue;
    const reading = read(schema, args[key]);
    if (reading && passesSchema(schema, reading.value)) changes.set(key, reading.value);
  }
  return changes;
}

function looksLikeJsonList(value: unknown): boolean {
  return typeof value === 'string' && value.trimStart().startsWith('[') && value.trimEnd().endsWith(']');
}

/**
 * A single value where the schema wants a list (`web_search {"queries": "rust async runtime"}`) becomes the list of
 * that one value, when the list passes the property's schema. A string that reads as a JSON list is left to
 * `coerceScalars` (one reading per value, never two).
 */
export function wrapScalarInList(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  const changes = readings(tool, args, (schema, value) =>
    typeOf(schema) === 'array' &&
    (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
    !looksLikeJsonList(value)
      ? { value: [value] }
      : undefined,
  );
  return replacedValues(
    'args.wrap-scalar-in-list',
    tool,
    args,
    changes,
    `takes a list; one value was sent, so it is the list of that value`,
  );
}

/**
 * An object sent as JSON text where the schema wants an object (`workflow {"meta": "{\"name\": ...}"}`) becomes that
 * object, when the text is exactly one JSON object and the object passes the property's schema.
 */
export function parseObjectText(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  const changes = readings(tool, args, (schema, value) => {
    if (typeOf(schema) !== 'object' || typeof value !== 'string') return undefined;
    const text = value.trim();
    if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
    try {
      const parsed = JSON.parse(text) as unknown;
      return isRecord(parsed) ? { value: parsed } : undefined;
    } catch {
      return undefined;
    }
  });
  return replacedValues(
    'args.parse-object-text',
    tool,
    args,
    changes,
    `takes an object; it was sent as JSON text holding exactly one`,
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
