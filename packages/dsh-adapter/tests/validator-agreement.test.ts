/**
 * The engine's validator (`validateArguments`, core-rules) must agree with the host's own
 * (`validateJsonSchemaValue`, dsh-tools) on the tool schemas DSH really sends (captured from rc.8, native and
 * Code Mode), or a "validate-gated" repair could fire on a call the host accepts, or miss one it rejects.
 * For every schema: a valid object built from the schema, and invalid variants (each required field missing,
 * each property with the wrong type, an undeclared key where the schema forbids it, a non-object).
 */
import { describe, expect, it } from 'vitest';
import { validateJsonSchemaValue, type JsonSchemaNode } from '@deepseek-ai/dsh-tools';
import { validateArguments } from '@dsh-tool-normalizer/core-rules';
import nativeSchemas from './fixtures/native-tool-schemas.json' with { type: 'json' };
import codeSchemas from './fixtures/code-tool-schemas.json' with { type: 'json' };

interface WireTool {
  function: {
    name: string;
    parameters: JsonSchemaNode & {
      properties?: Record<string, Schema>;
      required?: string[];
      additionalProperties?: boolean;
    };
  };
}
type Schema = {
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  minimum?: number;
};

function sample(schema: Schema): unknown {
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 'text';
    case 'integer':
      return Math.max(1, schema.minimum ?? 1);
    case 'number':
      return Math.max(1.5, schema.minimum ?? 1.5);
    case 'boolean':
      return true;
    case 'array':
      return schema.items ? [sample(schema.items), sample(schema.items)] : [];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, sample(schema.properties?.[key] ?? {})]));
    default:
      return 'text';
  }
}

function wrongValueFor(schema: Schema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum) return '__not_in_enum__';
  return type === 'string' ? 42 : type === 'integer' ? 1.5 : type === 'array' ? 'not-an-array' : 'wrong';
}

function cases(tool: WireTool): { label: string; value: unknown }[] {
  const schema = tool.function.parameters;
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const full: Record<string, unknown> = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [key, sample(property)]),
  );
  const minimal: Record<string, unknown> = Object.fromEntries(
    required.map((key) => [key, sample(properties[key] ?? {})]),
  );
  const out: { label: string; value: unknown }[] = [
    { label: 'minimal valid', value: minimal },
    { label: 'every property', value: full },
    { label: 'array instead of object', value: [minimal] },
    { label: 'null', value: null },
    { label: 'a JSON string', value: JSON.stringify(minimal) },
    { label: 'undeclared key', value: { ...minimal, __extra__: 1 } },
  ];
  for (const key of required) {
    const { [key]: _dropped, ...rest } = minimal;
    out.push({ label: `missing ${key}`, value: rest });
  }
  for (const [key, property] of Object.entries(properties))
    out.push({ label: `${key} of the wrong type`, value: { ...minimal, [key]: wrongValueFor(property) } });
  return out;
}

// Captured wire data: TypeScript's type of the JSON (a union of literal shapes) is not a schema type, so read it as one.
const tools = [...nativeSchemas, ...codeSchemas] as unknown as WireTool[];

describe('validateArguments agrees with the host validateJsonSchemaValue', () => {
  it('covers every captured tool', () => {
    expect(tools.map((tool) => tool.function.name)).toContain('run_code');
    expect(tools.length).toBe(26);
  });

  for (const tool of tools) {
    it(`${tool.function.name}`, () => {
      const schema = tool.function.parameters;
      let invalid = 0;
      for (const { label, value } of cases(tool)) {
        // The host validates tool arguments with an empty root path (dsh-tools `validateArgs`).
        const host = validateJsonSchemaValue(schema, value, '');
        const engine = validateArguments(schema, value);
        if (host.length > 0) invalid += 1;
        expect({ label, valid: engine.length === 0 }).toEqual({ label, valid: host.length === 0 });
        expect({ label, engine }).toEqual({ label, engine: host });
      }
      expect(invalid).toBeGreaterThan(2);
    });
  }
});
