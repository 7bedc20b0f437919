/**
 * The AI SDK's two seams, both answered by core-rules' repair kit:
 * - `repairToolCall` (formerly `experimental_repairToolCall`): the SDK calls it for a tool call it could not
 *   parse: an unknown tool name (`NoSuchToolError`), or input that is not JSON or fails the tool's validator
 *   (`InvalidToolInputError`). It answers with the repaired call, or `null` so the SDK's own error runs
 *   unchanged. It never throws (a throw would turn the SDK's error into a `ToolCallRepairError`).
 * - `experimental_refineToolInput`: the SDK calls it with every parsed input before the tool runs, outputs and
 *   callbacks are recorded; a `jsonSchema()` tool without `validate` reaches it with any JSON. It answers the
 *   repaired input, or the very input it was given. The SDK does not validate a refined input again, so a
 *   repair is handed on as the tool's own validator outputs it (zod strips and transforms as usual).
 */
import type { InferToolInput, ToolCallRepairFunction, ToolSet } from 'ai';
import type { RepairKit } from '@dsh-tool-normalizer/core-rules';
import { sendReport } from './report.js';
import { assertSupportedTools, kitCache, schemaOf, warmKit } from './tool-kit.js';
import type { HealingOptions } from './types.js';

type KitFor = (tools: ToolSet) => Promise<RepairKit>;

/**
 * `ai` 7's `ToolInputRefinement`, written out here because `ai` 6 has no such type (so the declarations stay valid
 * for `ai` 6 users): per tool, the parsed input to the input that runs.
 */
export type ToolInputRefinement<TOOLS extends ToolSet> = {
  [NAME in keyof TOOLS]?: (input: InferToolInput<TOOLS[NAME]>) => Promise<InferToolInput<TOOLS[NAME]>>;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorName(error: unknown): string {
  return isRecord(error) && typeof error.name === 'string' ? error.name : 'Error';
}

function repairWith<TOOLS extends ToolSet>(options: HealingOptions, kitFor: KitFor): ToolCallRepairFunction<TOOLS> {
  return async ({ toolCall, tools, error }) => {
    try {
      const kit = await kitFor(tools);
      const answer = await kit.repair({ name: toolCall.toolName, arguments: toolCall.input });
      sendReport(
        options,
        {
          seam: 'repair',
          callId: toolCall.toolCallId,
          requestedTool: toolCall.toolName,
          before: toolCall.input,
          error: errorName(error),
        },
        answer,
      );
      if (!answer.ok || !answer.changed) return null;
      return { ...toolCall, toolName: answer.name, input: JSON.stringify(answer.args) };
    } catch {
      return null;
    }
  };
}

function refinementWith<TOOLS extends ToolSet>(
  tools: TOOLS,
  options: HealingOptions,
  kitFor: KitFor,
): ToolInputRefinement<TOOLS> {
  const refine = (name: string) => async (input: unknown) => {
    try {
      const kit = await kitFor(tools);
      // A parsed input that is not an object (a `jsonSchema()` tool takes any JSON) is judged as the text the
      // model sent, so a double-encoded call reads as one.
      const answer = await kit.repair({ name, arguments: isRecord(input) ? input : JSON.stringify(input) });
      if (answer.ok && !answer.changed) return input;
      const base = { seam: 'refine' as const, callId: '', requestedTool: name, before: input };
      if (!answer.ok || answer.name !== name) {
        sendReport(options, base, answer.ok ? { ok: false, reason: 'a parsed call keeps its tool' } : answer);
        return input;
      }
      let refined: unknown = answer.args;
      const schema = schemaOf(tools, name);
      if (schema?.validate) {
        const checked = await schema.validate(answer.args);
        if (!checked.success) {
          sendReport(options, base, { ok: false, reason: "the repaired input fails the tool's own validator" });
          return input;
        }
        refined = checked.value;
      }
      sendReport(options, base, answer);
      return refined;
    } catch {
      return input;
    }
  };
  return Object.fromEntries(Object.keys(tools).map((name) => [name, refine(name)])) as ToolInputRefinement<TOOLS>;
}

/**
 * A repair function for the AI SDK's `repairToolCall` (or `experimental_repairToolCall`) option of
 * `generateText`, `streamText` and agents.
 */
export function createToolCallRepair<TOOLS extends ToolSet = ToolSet>(
  options: HealingOptions = {},
): ToolCallRepairFunction<TOOLS> {
  return repairWith(options, kitCache(options));
}

/** The AI SDK's `experimental_refineToolInput` map for `tools`: every parsed call is checked and, when it fails, repaired. */
export function createToolInputRefinement<TOOLS extends ToolSet>(
  tools: TOOLS,
  options: HealingOptions = {},
): ToolInputRefinement<TOOLS> {
  assertSupportedTools(tools);
  const kitFor = kitCache(options);
  warmKit(kitFor, tools);
  return refinementWith(tools, options, kitFor);
}

/** What `healToolCalls` spreads into `generateText` / `streamText` / `ToolLoopAgent` options. */
export interface HealingSeams<TOOLS extends ToolSet> {
  /** The repair seam under `ai` 7's name. */
  repairToolCall: ToolCallRepairFunction<TOOLS>;
  /** The same function under the name `ai` 6 reads (`ai` 7 reads it too, when `repairToolCall` is not given). */
  experimental_repairToolCall: ToolCallRepairFunction<TOOLS>;
  /** The refine seam (`ai` 7 only: `ai` 6 has none and ignores the option). */
  experimental_refineToolInput: ToolInputRefinement<TOOLS>;
}

/**
 * Both seams at once, sharing one kit: `generateText({ model, tools, ...healToolCalls(tools), prompt })`. The
 * repair seam goes under both of its names, so `ai` 6 (which reads only `experimental_repairToolCall`) and `ai` 7
 * (which reads `repairToolCall` first) both call it.
 */
export function healToolCalls<TOOLS extends ToolSet>(tools: TOOLS, options: HealingOptions = {}): HealingSeams<TOOLS> {
  assertSupportedTools(tools);
  const kitFor = kitCache(options);
  warmKit(kitFor, tools);
  const repairToolCall = repairWith<TOOLS>(options, kitFor);
  return {
    repairToolCall,
    experimental_repairToolCall: repairToolCall,
    experimental_refineToolInput: refinementWith(tools, options, kitFor),
  };
}
