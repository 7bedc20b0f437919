/**
 * Test helpers: a real `Agent` driven by the real runner (`run()`, with and without streaming) and the SDK's own
 * `ScriptedModel` (`@openai/agents/testing`, in-process, no network) sending exactly the function calls a test
 * scripts, then a final text. Tools record what their `execute` received; the tool outputs the runner fed back to
 * the model, and an error the run threw, are what the SDK itself made of each call.
 */
import { Agent, type Tool, type Model, run, setTracingDisabled, tool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { z } from 'zod';

setTracingDisabled(true);

export interface ScriptedCall {
  name: string;
  input: string;
}

/** What each tool's execute received, in order. */
export type Executions = { tool: string; input: unknown }[];

/** The SDK's scripted model: the calls first, then a final answer once the tools ran. */
export function scriptedModel(calls: ScriptedCall[]): ScriptedModel {
  return new ScriptedModel([
    calls.map((call, index) => functionCall(call.name, call.input, { callId: `call-${index + 1}` })),
    [assistantMessage('done')],
  ]);
}

/** Function tools from JSON Schemas (the SDK's non-strict JSON Schema tools), whose execute records its input. */
export function jsonSchemaTools(
  schemas: readonly { name: string; description: string; parameters: Record<string, unknown> }[],
  executions: Executions,
): Tool[] {
  return schemas.map((schema) =>
    tool({
      name: schema.name,
      description: schema.description,
      strict: false,
      parameters: schema.parameters as never,
      execute: async (input: unknown) => {
        executions.push({ tool: schema.name, input });
        return `${schema.name} ran`;
      },
    }),
  );
}

/**
 * The same tools declared with zod (`z.fromJSONSchema`), the way most Agents SDK users declare tools: the SDK sends
 * the model its strict conversion (every property required, optional ones nullable) and parses calls with zod.
 */
export function zodTools(
  schemas: readonly { name: string; description: string; parameters: Record<string, unknown> }[],
  executions: Executions,
): Tool[] {
  return schemas.map((schema) =>
    tool({
      name: schema.name,
      description: schema.description,
      parameters: z.fromJSONSchema(schema.parameters as never) as z.ZodObject,
      execute: async (input: unknown) => {
        executions.push({ tool: schema.name, input });
        return `${schema.name} ran`;
      },
    }),
  );
}

export interface Outcome {
  /** The tool outputs the runner sent back to the model, in order. */
  outputs: unknown[];
  /** The error the run threw (name and message), if any. */
  thrown?: { name: string; message: string };
}

/** One real run of an agent on `model` with `tools`: `run()`, streamed or not. */
export async function runAgent(model: Model, tools: Tool[], stream = false): Promise<Outcome> {
  const agent = new Agent({ name: 'coder', instructions: 'Do the task.', model, tools });
  try {
    const result = stream ? await run(agent, 'do the task', { stream: true }) : await run(agent, 'do the task');
    if (stream && 'completed' in result) {
      for await (const _event of result) {
        // drain the stream
      }
      await result.completed;
    }
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item').map((item) => item.output);
    return { outputs };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'none', message: String(error) };
    return { outputs: [], thrown: { name, message } };
  }
}
