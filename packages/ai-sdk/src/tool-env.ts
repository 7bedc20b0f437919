/**
 * The engine's view of an AI SDK tool set: every tool's name, description and input JSON Schema, taken from the
 * SDK's own schema conversion (the `inputSchema` helper the SDK hands to a repair function). Built once per
 * tool-set object.
 */
import type { Environment, ToolSchema } from '@dsh-tool-normalizer/core-rules';

export type InputSchemaOf = (options: { toolName: string }) => PromiseLike<unknown>;

const environments = new WeakMap<object, Promise<ToolSchema[]>>();

async function collectSchemas(tools: Record<string, unknown>, inputSchema: InputSchemaOf): Promise<ToolSchema[]> {
  const schemas: ToolSchema[] = [];
  for (const name of Object.keys(tools)) {
    try {
      const parameters = await inputSchema({ toolName: name });
      if (typeof parameters !== 'object' || parameters === null) continue;
      const description = (tools[name] as { description?: unknown } | undefined)?.description;
      schemas.push(typeof description === 'string' ? { name, description, parameters } : { name, parameters });
    } catch {
      // A schema the SDK cannot convert is left out: calls to that tool are never repaired.
    }
  }
  return schemas;
}

/** The tools of `tools` as core-rules' `Environment` (native mode: the AI SDK has no Code Mode). */
export async function environmentOf(
  tools: Record<string, unknown>,
  inputSchema: InputSchemaOf,
  cwd?: string,
): Promise<Environment> {
  let schemas = environments.get(tools);
  if (!schemas) {
    schemas = collectSchemas(tools, inputSchema);
    environments.set(tools, schemas);
  }
  return { tools: await schemas, mode: 'native', ...(cwd ? { cwd } : {}) };
}
