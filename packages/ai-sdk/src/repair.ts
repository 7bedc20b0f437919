/**
 * The AI SDK repair function (`repairToolCall`, formerly `experimental_repairToolCall`). The SDK calls it only
 * for a tool call it could not parse: an unknown tool name (`NoSuchToolError`) or input that is not JSON or fails
 * the tool's schema (`InvalidToolInputError`). It answers with a repaired call only when the repair is unique and
 * the repaired input passes both the tool's JSON Schema and the tool's own validator; otherwise `null`, so the
 * SDK's own error runs unchanged. It never throws (a throw would turn the SDK's error into a repair error).
 */
import { asSchema, NoSuchToolError, type ToolCallRepairFunction, type ToolSet } from 'ai';
import {
  hostViolations,
  normalizeCall,
  resolveToolAlias,
  type Environment,
  type Receipt,
  type ToolSchema,
} from '@dsh-tool-normalizer/core-rules';
import { readNearJson } from './near-json.js';
import { healProgramArgument } from './program.js';
import { environmentOf } from './tool-env.js';
import type { RepairReceipt, RepairReport, ToolCallRepairOptions } from './types.js';

type AnyReceipt = Receipt | RepairReceipt;
type Outcome =
  | { ok: true; name: string; args: Record<string, unknown>; receipts: AnyReceipt[] }
  | { ok: false; reason: string };

const PREVIEW_CHARS = 200;

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function findTool(env: Environment, name: string): ToolSchema | undefined {
  return env.tools.find((tool) => tool.name === name);
}

/** The arguments as an object: the SDK reads empty text as `{}`; plain JSON is the wire form, not a repair. */
function plainObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function nearJsonReceipt(text: string, value: Record<string, unknown>): RepairReceipt {
  return {
    ruleId: 'args.repair-near-json',
    category: 'invalid-args',
    why: 'the arguments were near-JSON (quotes, commas, comments or constants); read the one obvious way',
    before: preview(text),
    after: preview(value),
  };
}

/** Text core-rules decodes itself: JSON (an object, or a string holding one) and Markdown-fenced JSON. */
function isJsonOrFenced(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.startsWith('```') || trimmed.startsWith('~~~')) return true;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/**
 * Repairs the arguments of a known tool. JSON, double-encoded and fenced text go to core-rules as they are; any
 * other text must first pass this package's near-JSON gate, and the object it reads goes to core-rules.
 */
function repairKnownTool(tool: ToolSchema, text: string, env: Environment, options: ToolCallRepairOptions): Outcome {
  const receipts: AnyReceipt[] = [];
  let args: unknown = text.trim() === '' ? {} : text;
  if (!isJsonOrFenced(text)) {
    const near = readNearJson(text);
    if (!near.ok) return { ok: false, reason: near.reason };
    receipts.push(nearJsonReceipt(text, near.value));
    args = near.value;
  }
  const result = normalizeCall({ name: tool.name, arguments: args }, env, options.toggles);
  if (result.changed && isRecord(result.call.arguments)) {
    return { ok: true, name: tool.name, args: result.call.arguments, receipts: [...receipts, ...result.receipts] };
  }
  if (receipts.length > 0 && isRecord(args) && hostViolations(tool, args).length === 0)
    return { ok: true, name: tool.name, args, receipts };
  const plain = isRecord(args) ? args : plainObject(text);
  if (plain && hostViolations(tool, plain).length === 0) {
    return {
      ok: false,
      reason: "the arguments pass the tool's JSON Schema as sent (its own validator is stricter); nothing to repair",
    };
  }
  return { ok: false, reason: result.reason ?? 'no rule repairs' };
}

/** An unknown name with exactly one registered target whose schema the (repaired) arguments fit. */
function repairUnknownTool(name: string, text: string, env: Environment, options: ToolCallRepairOptions): Outcome {
  const plain = plainObject(text);
  const near = plain ? undefined : readNearJson(text);
  const args = plain ?? (near?.ok ? near.value : undefined);
  if (!args)
    return {
      ok: false,
      reason: `unknown tool "${preview(name)}" and ${near && !near.ok ? near.reason : 'arguments not readable'}`,
    };
  const alias = resolveToolAlias({ name, arguments: args }, env, options.toggles);
  const tool = alias ? findTool(env, alias.call.name) : undefined;
  if (!alias || !tool) return { ok: false, reason: `unknown tool "${preview(name)}": no single registered tool fits` };
  const fits = hostViolations(tool, args).length === 0;
  const repaired: Outcome = fits
    ? { ok: true, name: tool.name, args, receipts: [] }
    : repairKnownTool(tool, JSON.stringify(args), env, options);
  if (!repaired.ok) return repaired;
  const receipts: AnyReceipt[] = near?.ok ? [nearJsonReceipt(text, args)] : [];
  receipts.push({
    ruleId: alias.receipt.ruleId,
    category: alias.receipt.category,
    why: `no tool is named "${preview(name)}"; "${tool.name}" is the one registered tool it stands for and the arguments fit it`,
    before: preview(name),
    after: tool.name,
  });
  return { ...repaired, receipts: [...receipts, ...repaired.receipts] };
}

/** The tool's own validator (zod, Standard Schema, `jsonSchema({ validate })`); a schema without one passes. */
async function passesToolValidator(tools: ToolSet, name: string, args: Record<string, unknown>): Promise<boolean> {
  const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (!tool) return false;
  const schema = asSchema(tool.inputSchema);
  if (!schema.validate) return true;
  const result = await schema.validate(args);
  return result.success;
}

async function repairCall(
  name: string,
  text: string,
  tools: ToolSet,
  env: Environment,
  options: ToolCallRepairOptions,
): Promise<Outcome> {
  const known = findTool(env, name);
  const outcome = known ? repairKnownTool(known, text, env, options) : repairUnknownTool(name, text, env, options);
  if (!outcome.ok) return outcome;
  const field =
    options.programs && Object.hasOwn(options.programs, outcome.name) ? options.programs[outcome.name] : undefined;
  const healed = field ? healProgramArgument(outcome.args, field) : undefined;
  const args = healed ? healed.args : outcome.args;
  const receipts = healed ? [...outcome.receipts, healed.receipt] : outcome.receipts;
  if (receipts.length === 0)
    return { ok: false, reason: 'the arguments pass the JSON Schema as sent; nothing to repair' };
  const tool = findTool(env, outcome.name) as ToolSchema;
  const violations = hostViolations(tool, args);
  if (violations.length > 0)
    return { ok: false, reason: `the repaired call would still fail: ${violations.slice(0, 3).join('; ')}` };
  if (!(await passesToolValidator(tools, outcome.name, args)))
    return { ok: false, reason: "the repaired call fails the tool's own validator" };
  return { ok: true, name: outcome.name, args, receipts };
}

/**
 * A repair function for the AI SDK's `repairToolCall` (or `experimental_repairToolCall`) option of
 * `generateText`, `streamText` and agents.
 */
export function createToolCallRepair<TOOLS extends ToolSet = ToolSet>(
  options: ToolCallRepairOptions = {},
): ToolCallRepairFunction<TOOLS> {
  const report = (value: RepairReport): void => {
    try {
      options.onReport?.(value);
    } catch {
      // A failing report callback must not change what the SDK does.
    }
  };
  return async ({ toolCall, tools, inputSchema, error }) => {
    const unknownName = NoSuchToolError.isInstance(error);
    const base = {
      callId: toolCall.toolCallId,
      requestedTool: toolCall.toolName,
      before: toolCall.input,
      error: typeof error?.name === 'string' ? error.name : 'unknown error',
    };
    let outcome: Outcome;
    try {
      const env = await environmentOf(tools, inputSchema, options.cwd);
      outcome = await repairCall(toolCall.toolName, toolCall.input, tools, env, options);
    } catch (failure) {
      outcome = {
        ok: false,
        reason: `left to the SDK after an internal error: ${failure instanceof Error ? failure.message : String(failure)}`,
      };
    }
    if (!outcome.ok) {
      report({
        ...base,
        tool: toolCall.toolName,
        category: unknownName ? 'unknown-tool' : 'invalid-args',
        repaired: false,
        ruleIds: [],
        receipts: [],
        changes: [],
        reason: outcome.reason,
      });
      return null;
    }
    const category =
      outcome.name !== toolCall.toolName ? 'unknown-tool' : (outcome.receipts[0]?.category ?? 'invalid-args');
    report({
      ...base,
      tool: outcome.name,
      category,
      repaired: true,
      ruleIds: outcome.receipts.map((receipt) => receipt.ruleId),
      receipts: outcome.receipts,
      changes: outcome.receipts.map((receipt) => receipt.why),
      after: outcome.args,
    });
    return { ...toolCall, toolName: outcome.name, input: JSON.stringify(outcome.args) };
  };
}
