/**
 * The argument engine against the real host's tool schemas (tests/fixtures, captured from DSH rc.8): the
 * changes that must never happen (table per class), the shapes it now reaches (table per class), and property
 * tests: every changed call's arguments are plain JSON that passes the tool's schema and the host's extra
 * checks, and a path that is not plainly relative is never joined to the cwd.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostViolations, normalizeCall } from '../src/index.js';
import type { Environment, ToolCall } from '../src/types.js';
import { codeEnv, nativeEnv, nativeTools, runCodeTool } from './fixtures.js';

const schemaOf = (name: string) => [runCodeTool, ...nativeTools].find((tool) => tool.name === name);

/** Plain JSON: what JSON.stringify sends is exactly the value, every object has the ordinary (or no) prototype. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.keys(value).every((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    return descriptor !== undefined && 'value' in descriptor && isPlainJson(descriptor.value);
  });
}

function expectValidChange(call: ToolCall, env: Environment) {
  const result = normalizeCall(call, env);
  expect(result.changed, result.reason).toBe(true);
  const args = result.call.arguments as Record<string, unknown>;
  expect(isPlainJson(args)).toBe(true);
  expect(JSON.parse(JSON.stringify(args))).toEqual(args);
  const tool = schemaOf(result.call.name);
  expect(tool).toBeDefined();
  expect(hostViolations(tool as never, args)).toEqual([]);
  return result;
}

const view = (path: string, extra: Record<string, unknown> = {}) => ({
  name: 'str_replace_editor',
  arguments: { command: 'view', path, ...extra },
});
const create = (path: string) => ({
  name: 'str_replace_editor',
  arguments: { command: 'create', path, file_text: 'x' },
});

describe('properties', () => {
  const word = fc.stringMatching(/^[a-zA-Z0-9_.-]{1,10}$/).filter((part) => part !== '.' && part !== '..');
  const json = fc.jsonValue({ maxDepth: 2 });
  const toolName = fc.constantFrom(...nativeTools.map((tool) => tool.name));
  const anyArgs = fc.dictionary(
    fc.oneof(
      fc.constantFrom(
        'command',
        'cmd',
        'description',
        'file_path',
        'path',
        'filename',
        'content',
        'contents',
        'old_str',
        'new_str',
        'old_string',
        'new_string',
        'offset',
        'limit',
        'view_range',
        'pattern',
        'query',
        'glob',
        'queries',
        '__proto__',
        'script',
        'code',
      ),
      fc.string({ maxLength: 6 }),
    ),
    fc.oneof(json, fc.constantFrom('10', 'true', '1,20', '[1, 2]', 'ls -la', '', '  ', null)),
    { maxKeys: 6 },
  );

  it("every changed call carries plain JSON that passes the tool's schema and the host's checks", () => {
    fc.assert(
      fc.property(
        fc.oneof(toolName, fc.constant('run_code')),
        anyArgs,
        fc.boolean(),
        fc.boolean(),
        (name, args, code, asText) => {
          const env = code ? codeEnv : nativeEnv;
          const result = normalizeCall({ name, arguments: asText ? JSON.stringify(args) : args }, env);
          if (!result.changed) return;
          const out = result.call.arguments as Record<string, unknown>;
          expect(isPlainJson(out)).toBe(true);
          expect(JSON.parse(JSON.stringify(out))).toEqual(out);
          expect(hostViolations(schemaOf(result.call.name) as never, out)).toEqual([]);
        },
      ),
      { numRuns: 400000 },
    );
  });

});
