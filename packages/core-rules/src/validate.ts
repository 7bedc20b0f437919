/**
 * Argument validation against the JSON Schema the host publishes for a tool (a repair is gated on this
 * verdict: docs/architecture.md#rules-every-change-keeps). Kept in one function, `validateArguments`, so the adapter can test that it agrees
 * with the host's own validator (`validateJsonSchemaValue` in @deepseek-ai/dsh-tools).
 *
 * typebox's JSON Schema compiler does the checking. Compiled validators are cached per schema object (a
 * WeakMap) and, for hosts that hand out fresh schema objects on every call, per schema text in a small
 * bounded map. Violations are worded like the host words them (`missing required property "x"`), so a hint
 * can quote them.
 *
 * A schema `pattern` is matched by RE2 (re2js, linear time in the input) instead of a backtracking RegExp, so a
 * pattern such as `^(a+)+$` cannot hang the engine (typebox calls `.test` on a non-string pattern). A pattern RE2
 * cannot read (lookaround, backreferences) and `patternProperties` (typebox compiles its keys with RegExp) make the
 * schema unsupported: nothing is repaired against it, and the call is left to the host.
 */
import { HOST_TEXTS } from '@dsh-tool-normalizer/dsh-profile';
import { RE2JS } from 're2js';
import { Compile, type Validator } from 'typebox/schema';

interface TypeboxError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** A compiled validator, or the reason the schema cannot be compiled. */
type CompiledSchema = { validator: Validator } | { unsupported: string };

const bySchemaObject = new WeakMap<object, CompiledSchema>();
const bySchemaText = new Map<string, CompiledSchema>();
const SCHEMA_TEXT_CACHE_LIMIT = 128;

/** Keywords whose values are data, not schemas: a `pattern` key inside them is left alone. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose values map names to schemas: the names are not keywords. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);

function schemaMap(map: unknown): unknown {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return withLinearPatterns(map);
  return Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, withLinearPatterns(schema)]));
}

/** Longest string matched against a schema `pattern`; a longer one makes the call uncheckable (left to the host). */
export const MAX_PATTERN_INPUT_CHARS = 256 * 1024;

/**
 * A `pattern` for typebox: a RegExp (typebox accepts only a string or a RegExp there, and calls only `test`) whose
 * `test` is RE2's linear-time search. The backtracking engine of the RegExp itself is never run.
 */
class LinearPattern extends RegExp {
  readonly #linear: RE2JS;
  constructor(source: string) {
    super(source, 'u');
    this.#linear = RE2JS.compile(RE2JS.translateRegExp(source));
  }
  override test(value: string): boolean {
    const text = String(value);
    // RE2 is linear but not free (about 85 ns per character here): a longer text is not judged at all.
    if (text.length > MAX_PATTERN_INPUT_CHARS)
      throw new Error(`a text over ${MAX_PATTERN_INPUT_CHARS / 1024} KiB is not matched against a pattern`);
    return this.#linear.test(text);
  }
}

/**
 * A copy of a (plain JSON) schema whose `pattern` strings are linear-time matchers. Throws for what RE2 cannot
 * match and for `patternProperties`.
 */
function withLinearPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withLinearPatterns);
  if (typeof node !== 'object' || node === null) return node;
  // Built from entries, so a `__proto__` key stays data (never the copy's prototype).
  const entries = Object.entries(node).map(([key, value]): [string, unknown] => {
    if (key === 'patternProperties')
      throw new Error('patternProperties is not supported (its keys would be matched by a backtracking RegExp)');
    if (SCHEMA_MAPS.has(key)) return [key, schemaMap(value)];
    if (key !== 'pattern' || typeof value !== 'string')
      return [key, DATA_KEYWORDS.has(key) ? value : withLinearPatterns(value)];
    try {
      return [key, new LinearPattern(value)];
    } catch {
      throw new Error(`the pattern ${JSON.stringify(value.slice(0, 80))} cannot be matched in linear time`);
    }
  });
  return Object.fromEntries(entries);
}

function compileSchema(schema: object): CompiledSchema {
  try {
    return { validator: Compile(withLinearPatterns(schema) as never) as unknown as Validator };
  } catch (error) {
    return { unsupported: error instanceof Error ? error.message : String(error) };
  }
}

/** The cached compiled form of a schema (never throws). */
export function compiledSchemaFor(schema: unknown): CompiledSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { unsupported: 'the tool publishes no JSON Schema object' };
  }
  const cached = bySchemaObject.get(schema);
  if (cached) return cached;
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    const unsupported = { unsupported: 'the schema is not serialisable JSON (cyclic?)' };
    bySchemaObject.set(schema, unsupported);
    return unsupported;
  }
  let compiled = bySchemaText.get(text);
  if (!compiled) {
    compiled = compileSchema(JSON.parse(text) as object);
    if (bySchemaText.size >= SCHEMA_TEXT_CACHE_LIMIT) {
      const oldest = bySchemaText.keys().next().value;
      if (oldest !== undefined) bySchemaText.delete(oldest);
    }
    bySchemaText.set(text, compiled);
  }
  bySchemaObject.set(schema, compiled);
  return compiled;
}

/** Converts a JSON pointer (`/view_range/0`) into the host's path notation (`view_range[0]`). */
function hostPath(pointer: string, key?: string): string {
  const parts =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (key !== undefined) parts.push(key);
  let path = '';
  for (const part of parts) {
    if (/^\d+$/.test(part) && path !== '') path += `[${part}]`;
    else path = path === '' ? part : `${path}.${part}`;
  }
  return path;
}

const TYPE_WORDS: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  null: 'null',
};

function describeError(error: TypeboxError): string[] {
  const at = `"${hostPath(error.instancePath) || 'arguments'}"`;
  switch (error.keyword) {
    case 'required': {
      const missing = Array.isArray(error.params.requiredProperties)
        ? (error.params.requiredProperties as string[])
        : [];
      return missing.map((key) => HOST_TEXTS.missingProperty(hostPath(error.instancePath, key)));
    }
    case 'type': {
      const type = String(error.params.type);
      return [`${at} must be ${TYPE_WORDS[type] ?? type}`];
    }
    case 'enum':
      return [`${at} must be one of ${JSON.stringify(error.params.allowedValues)}`];
    case 'const':
      return [`${at} must be ${JSON.stringify(error.params.allowedValue)}`];
    case 'additionalProperties': {
      const extra = Array.isArray(error.params.additionalProperties)
        ? (error.params.additionalProperties as string[])
        : [];
      return extra.map(
        (key) => `"${hostPath(error.instancePath, key)}" is not a declared property (additionalProperties: false)`,
      );
    }
    default:
      return [`${at} ${error.message}`];
  }
}

/**
 * Checks `value` against a tool's JSON Schema. Returns the violations in the host's wording; an empty list
 * means valid. Never throws: an unsupported schema yields one violation that says so.
 */
export function validateArguments(schema: unknown, value: unknown): string[] {
  const compiled = compiledSchemaFor(schema);
  if ('unsupported' in compiled) return [`schema not supported: ${compiled.unsupported}`];
  try {
    if (compiled.validator.Check(value)) return [];
    const [, errors] = compiled.validator.Errors(value) as [boolean, TypeboxError[]];
    const violations = errors.flatMap(describeError);
    return violations.length > 0 ? violations : ['arguments do not match the schema'];
  } catch (error) {
    return [`arguments could not be checked: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** Fast verdict for the valid path: true when `value` passes the schema. */
export function passesSchema(schema: unknown, value: unknown): boolean {
  const compiled = compiledSchemaFor(schema);
  if ('unsupported' in compiled) return false;
  try {
    return compiled.validator.Check(value);
  } catch {
    return false;
  }
}
