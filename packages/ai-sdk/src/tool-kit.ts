/**
 * An AI SDK tool set as a core-rules repair kit: each tool's JSON Schema (from the SDK's own conversion, so a
 * zod, Standard Schema or `jsonSchema()` tool reads the same way the SDK sends it to the model) and its own
 * validator (`schema.validate`, absent for `jsonSchema()` without `validate`). One kit per `tools` object.
 */
import { asSchema, type ToolSet } from 'ai';
import { createRepairKit, dshHostChecks, type KitTool, type RepairKit } from '@dsh-tool-normalizer/core-rules';
import type { HealingOptions } from './types.js';

type Schema = ReturnType<typeof asSchema>;

/** The SDK's view of one tool's input: its schema object (with `validate` when the tool has one). */
export function schemaOf(tools: ToolSet, name: string): Schema | undefined {
  const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (!tool) return undefined;
  try {
    return asSchema(tool.inputSchema);
  } catch {
    return undefined;
  }
}

async function kitTool(tools: ToolSet, name: string): Promise<KitTool | undefined> {
  const schema = schemaOf(tools, name);
  if (!schema) return undefined;
  let parameters: unknown;
  try {
    parameters = await schema.jsonSchema;
  } catch {
    return undefined; // A schema the SDK cannot convert: calls to that tool are never repaired.
  }
  if (typeof parameters !== 'object' || parameters === null) return undefined;
  const description = (tools[name] as { description?: unknown }).description;
  const validate = schema.validate;
  return {
    name,
    parameters,
    ...(typeof description === 'string' ? { description } : {}),
    ...(validate ? { validate: async (args: Record<string, unknown>) => (await validate(args)).success } : {}),
  };
}

let warned = false;

/**
 * The program tools, when given in the current shape. The shape before 0.2 (`{ run_js: 'code' }`, no healer)
 * turns programs off with one warning instead of failing every call: the healer must be passed in now.
 */
function programsOf(options: HealingOptions): HealingOptions['programs'] {
  const programs = options.programs;
  if (!programs) return undefined;
  if (typeof programs.healProgram === 'function' && typeof programs.fields === 'object' && programs.fields !== null)
    return programs;
  if (!warned) {
    warned = true;
    console.warn(
      "[@dsh-tool-normalizer/ai-sdk] programs are off: pass { fields: { tool: 'argument' }, healProgram } with healProgram from '@dsh-tool-normalizer/ai-sdk/programs'",
    );
  }
  return undefined;
}

/**
 * Refuses, loudly and at set-up, a tool set written for `ai` 4 or older (a tool with `parameters` and no
 * `inputSchema`): its schemas cannot be read, so nothing would ever be healed, silently.
 */
export function assertSupportedTools(tools: ToolSet): void {
  for (const [name, tool] of Object.entries(tools as Record<string, unknown>)) {
    if (typeof tool === 'object' && tool !== null && 'parameters' in tool && !('inputSchema' in tool))
      throw new Error(
        `@dsh-tool-normalizer/ai-sdk supports ai 6 and 7: tool "${name}" has \`parameters\` and no \`inputSchema\`, the shape of ai 4 and older. Install ai@^7 (Node >= 22) or ai@^6 (Node >= 18) and declare tools with \`inputSchema\`.`,
      );
  }
}

/** A cache of kits per tools object (the SDK hands the same object to every step of a call). */
export function kitCache(options: HealingOptions): (tools: ToolSet) => Promise<RepairKit> {
  const kits = new WeakMap<object, Promise<RepairKit>>();
  return (tools) => {
    let kit = kits.get(tools);
    if (!kit) {
      kit = (async () => {
        const described = await Promise.all(Object.keys(tools).map((name) => kitTool(tools, name)));
        return createRepairKit(
          described.filter((tool): tool is KitTool => tool !== undefined),
          {
            ...(options.toggles ? { toggles: options.toggles } : {}),
            ...(options.cwd ? { cwd: options.cwd } : {}),
            hostChecks: options.hostChecks ?? dshHostChecks,
            ...(programsOf(options) ? { programs: programsOf(options) } : {}),
          },
        );
      })();
      kits.set(tools, kit);
    }
    return kit;
  };
}

/** One macrotask's pause: other work (the model's response arriving, other requests) runs in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Calls that take the repair path's first steps (near-JSON, an alias, an unknown name) for the warm-up. */
const WARM_CALLS = ["{'x': 1,}", '{"cmd": "x"}'];

/**
 * Prepares the kit of `tools` off the call path, one piece per macrotask: the tool set read (each tool's JSON
 * Schema from the SDK); for each tool without its own validator, its schema compiled (core-rules keeps compiled
 * schemas per schema object and per schema text); and the repair path run once on made-up calls to such a tool, so
 * what it builds on first use is built. Started when the seams are set up, before `generateText` asks the model, it
 * is done long before the model's first tool call arrives, so no call pays for it (bench/plain-tools.bench.mjs:
 * without it, the first call of each tool costs up to 1 ms of compiling and the first repair about 5 ms of CPU).
 * A tool with its own validator is left out: warming it would call the user's validator with a made-up input. A
 * call that comes sooner waits on the same kit. Never throws, and reports nothing.
 */
export function warmKit(kitFor: (tools: ToolSet) => Promise<RepairKit>, tools: ToolSet): void {
  void (async () => {
    try {
      await nextTask();
      const kit = await kitFor(tools);
      const plain = Object.keys(tools).filter((name) => !schemaOf(tools, name)?.validate);
      for (const name of plain) {
        await nextTask();
        await kit.violations(name, {});
      }
      for (const text of plain.length > 0 ? WARM_CALLS : []) {
        await nextTask();
        await kit.repair({ name: plain[0] as string, arguments: text });
        await kit.repair({ name: `functions.${plain[0]}_x`, arguments: text });
      }
    } catch {
      // A tool set that cannot be read is refused call by call, as before.
    }
  })();
}
