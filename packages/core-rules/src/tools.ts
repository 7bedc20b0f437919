/**
 * Looking tools up in an environment and reading the few facts the rules need from a tool's JSON Schema
 * (required keys, declared properties). The name index is cached per `env.tools` array so the valid path
 * stays a map lookup.
 */
import { RUN_CODE } from '@dsh-tool-normalizer/syntax-healer/tool-name';
import type { Environment, ToolSchema } from './types.js';

/** DSH's Code-Mode transport tool name, defined once in syntax-healer's program analysis. */
export { RUN_CODE };

const indexes = new WeakMap<readonly ToolSchema[], Map<string, ToolSchema>>();

function toolIndex(tools: readonly ToolSchema[]): Map<string, ToolSchema> {
  let index = indexes.get(tools);
  if (!index) {
    index = new Map();
    for (const tool of tools) {
      if (tool && typeof tool.name === 'string' && !index.has(tool.name)) index.set(tool.name, tool);
    }
    indexes.set(tools, index);
  }
  return index;
}

/** The tool named `name` in `env`, or undefined. */
export function findTool(env: Environment, name: string): ToolSchema | undefined {
  if (!env || !Array.isArray(env.tools)) return undefined;
  return toolIndex(env.tools).get(name);
}

/** Every tool name visible in `env`, in the host's order. */
export function toolNames(env: Environment): string[] {
  if (!env || !Array.isArray(env.tools)) return [];
  return [...toolIndex(env.tools).keys()];
}

/** A plain (non-array, non-null) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `required` list at the top of a tool's schema (strings only). */
export function requiredKeys(tool: ToolSchema): string[] {
  const parameters = tool.parameters;
  if (!isRecord(parameters) || !Array.isArray(parameters.required)) return [];
  return parameters.required.filter((key): key is string => typeof key === 'string');
}

/** The schema of one declared top-level property, if any. */
export function propertySchema(tool: ToolSchema, key: string): Record<string, unknown> | undefined {
  const parameters = tool.parameters;
  if (!isRecord(parameters) || !isRecord(parameters.properties)) return undefined;
  const property = (parameters.properties as Record<string, unknown>)[key];
  return isRecord(property) ? property : undefined;
}

/**
 * Required properties the engine can fill by itself: a required string `description` (bash, run_code,
 * subagent: a short display text derived from the other arguments). Nothing else is ever invented.
 */
export function fillableKeys(tool: ToolSchema): string[] {
  return requiredKeys(tool).filter((key) => key === 'description' && propertySchema(tool, key)?.type === 'string');
}

/** Deepest nesting a plain JSON copy follows. */
const MAX_JSON_DEPTH = 256;

/**
 * A deep copy of `value` made of plain JSON only (own enumerable data, finite numbers, arrays, objects with
 * the ordinary prototype whose keys, `__proto__` included, are own data properties), or the reason it is
 * not plain JSON (NaN, BigInt, undefined, a function, a cycle, a class instance). Never throws for ordinary
 * values; a throwing getter propagates to the caller, which treats the call as unchanged.
 */
export function toPlainJson(value: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  const ancestors = new Set<object>();
  const copy = (current: unknown, depth: number): unknown => {
    if (current === null || typeof current === 'string' || typeof current === 'boolean') return current;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) throw new PlainJsonError(`${current} is not a JSON number`);
      return current;
    }
    if (typeof current !== 'object') throw new PlainJsonError(`a ${typeof current} is not JSON`);
    if (depth > MAX_JSON_DEPTH) throw new PlainJsonError('nested too deeply');
    if (ancestors.has(current)) throw new PlainJsonError('a cycle is not JSON');
    ancestors.add(current);
    let result: unknown;
    if (Array.isArray(current)) {
      result = Array.from({ length: current.length }, (_, index) => copy(current[index], depth + 1));
    } else {
      const prototype = Object.getPrototypeOf(current);
      if (prototype !== Object.prototype && prototype !== null)
        throw new PlainJsonError('a class instance is not JSON');
      const entries = Object.keys(current).map(
        (key) => [key, copy((current as Record<string, unknown>)[key], depth + 1)] as const,
      );
      result = Object.fromEntries(entries);
    }
    ancestors.delete(current);
    return result;
  };
  try {
    return { ok: true, value: copy(value, 0) };
  } catch (error) {
    if (error instanceof PlainJsonError) return { ok: false, reason: error.message };
    throw error;
  }
}

class PlainJsonError extends Error {}

/** Prefixes some providers put before a tool name (`functions.read`, `default_api.bash`). */
const NAME_PREFIX = /^(?:functions|function|tools|tool|default_api|api)[.:/]\s*([A-Za-z_][\w.-]{0,120})$/;

/** The name without a provider prefix, or undefined when it has none. */
export function unprefixedName(name: string): string | undefined {
  return NAME_PREFIX.exec(name)?.[1];
}
