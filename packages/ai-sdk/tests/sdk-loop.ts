/**
 * Test helpers: real AI SDK `generateText` / `streamText` runs with the SDK's own mock language model (no
 * network) that sends exactly the tool calls a test scripts, plus tools whose `execute` records what it
 * received, declared in the three usual styles (`jsonSchema()`, `jsonSchema()` with an Ajv `validate`, zod).
 */
import { Ajv } from 'ajv';
import { type FlexibleSchema, generateText, type JSONSchema7, jsonSchema, type ToolSet, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

export interface ScriptedCall {
  toolName: string;
  input: string;
}

/** A mock model that answers its first request with `calls` and nothing else. */
export function modelSending(calls: ScriptedCall[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: {
      content: calls.map((call, index) => ({
        type: 'tool-call' as const,
        toolCallId: `call-${index + 1}`,
        toolName: call.toolName,
        input: call.input,
      })),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
      warnings: [],
    },
  });
}

/** What each tool's execute received, in order. */
export type Executions = { tool: string; input: unknown }[];

/** A coding-agent tool set with zod schemas (the way most AI SDK users declare tools). */
export function codingTools(executions: Executions) {
  const record = (name: string) => async (input: unknown) => {
    executions.push({ tool: name, input });
    return `${name} ran`;
  };
  return {
    bash: tool({
      description: 'Run a shell command',
      inputSchema: z.object({ command: z.string(), description: z.string() }),
      execute: record('bash'),
    }),
    read: tool({
      description: 'Read a file',
      inputSchema: z.object({ file_path: z.string(), offset: z.number().int().optional() }),
      execute: record('read'),
    }),
    write: tool({
      description: 'Write a file',
      inputSchema: z.object({ file_path: z.string(), content: z.string() }),
      execute: record('write'),
    }),
    run_js: tool({
      description: 'Run a JavaScript program (the body of an async function)',
      inputSchema: z.object({ code: z.string(), timeout_ms: z.number().int().positive() }),
      execute: record('run_js'),
    }),
  } satisfies ToolSet;
}

/** One real `generateText` step (the SDK's default stop condition) with the given repair option. */
export async function runOneStep(calls: ScriptedCall[], tools: ToolSet, options: Record<string, unknown>) {
  const model = modelSending(calls);
  const result = await generateText({ model, tools, prompt: 'do the task', ...options });
  return { result, model };
}

/** A mock model that streams `calls` as tool-call parts, then finishes. */
export function streamingModelSending(calls: ScriptedCall[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: {
      stream: convertArrayToReadableStream([
        { type: 'stream-start' as const, warnings: [] },
        ...calls.map((call, index) => ({
          type: 'tool-call' as const,
          toolCallId: `call-${index + 1}`,
          toolName: call.toolName,
          input: call.input,
        })),
        {
          type: 'finish' as const,
          finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 5, text: 5, reasoning: 0 },
          },
        },
      ]),
    },
  });
}

/** The three ways AI SDK users declare a tool from a JSON Schema. */
export type ToolStyle = 'jsonSchema' | 'ajv' | 'zod';

const ajv = new Ajv({ allErrors: false, strict: false });

/** `parameters` as an AI SDK input schema of the given style. */
export function inputSchemaOf(style: ToolStyle, parameters: Record<string, unknown>): FlexibleSchema<unknown> {
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
