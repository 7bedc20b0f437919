/**
 * Test helpers for the real `ai` 6 (the npm alias `ai6`, what `npm i ai` installs on Node 20): `generateText` /
 * `streamText` runs with `ai` 6's own `MockLanguageModelV3` sending exactly the scripted tool calls, and tools
 * declared the three usual ways, whose `execute` records what it received. The `ai-sdk-ai6` vitest project
 * (vitest.ai6.config.ts) resolves the package's own `import … from 'ai'` to `ai` 6 as well, so the whole run is
 * `ai` 6's.
 */
import { Ajv } from 'ajv';
import { type FlexibleSchema, type JSONSchema7, jsonSchema, type ToolSet, tool } from 'ai6';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai6/test';
import { z } from 'zod';

export interface ScriptedCall {
  toolName: string;
  input: string;
}

/** What each tool's execute received, in order. */
export type Executions = { tool: string; input: unknown }[];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

const toolCalls = (calls: ScriptedCall[]) =>
  calls.map((call, index) => ({
    type: 'tool-call' as const,
    toolCallId: `call-${index + 1}`,
    toolName: call.toolName,
    input: call.input,
  }));

/** A mock model that answers its first request with `calls` and nothing else. */
export function modelSending(calls: ScriptedCall[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: {
      content: toolCalls(calls),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
  });
}

/** A mock model that streams `calls` as tool-call parts, then finishes. */
export function streamingModelSending(calls: ScriptedCall[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: {
      stream: convertArrayToReadableStream([
        { type: 'stream-start' as const, warnings: [] },
        ...toolCalls(calls),
        { type: 'finish' as const, finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' }, usage },
      ]),
    },
  });
}

/** The three ways AI SDK users declare a tool from a JSON Schema. */
export type ToolStyle = 'jsonSchema' | 'ajv' | 'zod';

const ajv = new Ajv({ allErrors: false, strict: false });

function inputSchemaOf(style: ToolStyle, parameters: Record<string, unknown>): FlexibleSchema<unknown> {
  if (style === 'jsonSchema') return jsonSchema(parameters as JSONSchema7);
  if (style === 'zod') return (z.fromJSONSchema(parameters as never) as z.ZodObject).strip();
  const check = ajv.compile(parameters);
  return jsonSchema(parameters as JSONSchema7, {
    validate: (value) =>
      check(value) ? { success: true, value } : { success: false, error: new Error(ajv.errorsText(check.errors)) },
  });
}

/** Tools built from JSON Schemas in one style, whose `execute` records what it received. */
export function toolsOf(
  style: ToolStyle,
  schemas: readonly { name: string; description: string; parameters: Record<string, unknown> }[],
  executions: Executions,
): ToolSet {
  return Object.fromEntries(
    schemas.map((schema) => [
      schema.name,
      tool({
        description: schema.description,
        inputSchema: inputSchemaOf(style, schema.parameters),
        execute: async (input: unknown) => {
          executions.push({ tool: schema.name, input });
          return `${schema.name} ran`;
        },
      }),
    ]),
  );
}
