/**
 * Tool calls a model left in its message text as one whole DSML block, for a host that knows its tools as an
 * Environment (dsh-adapter's `llm/stream` seam). DeepSeek served by vLLM or SGLang answers with the block in
 * `message.content`, `finish_reason: "stop"` and no `tool_calls` when the server's tool parser misses it
 * (sgl-project/sglang #35736; vllm-project/vllm PR #54686), so the agent's turn ends without the call it made.
 * Validate-gated like every rule: the block must be complete (dsml.ts), every call's tool must be one presented
 * tool (by its name, or the one registered tool an alias stands for), and every call, after the usual repairs,
 * must pass the host's checks (and, for run_code, compile the way the host compiles it). Otherwise nothing is
 * taken from the text. `repairCall` is the one pass a single call goes through, shared with the stream seam.
 */
import { MAX_INPUT_CHARS } from './bounds.js';
import { receipt, ruleOn } from './catalogue.js';
import { dsmlToolCalls } from './dsml.js';
import { programCompiles } from './healer.js';
import { hostViolations, normalizeCall } from './normalize.js';
import { preview } from './text.js';
import { resolveToggles } from './toggles.js';
import { resolveToolAlias } from './tool-names.js';
import { findTool, RUN_CODE } from './tools.js';
import type { Environment, NormalizeResult, Receipt, RuleToggles, ToolCall } from './types.js';

/**
 * normalizeCall, and when it changes nothing, the rename to the one registered tool an unregistered name stands
 * for (the renamed call then goes through the rules again: in Code Mode it is bridged into run_code).
 */
export function repairCall(call: ToolCall, env: Environment, toggles?: Partial<RuleToggles>): NormalizeResult {
  const result = normalizeCall(call, env, toggles);
  if (result.changed) return result;
  const alias = resolveToolAlias(result.call, env, toggles);
  if (!alias) return result;
  const renamed = normalizeCall(alias.call, env, toggles);
  return renamed.changed
    ? { ...renamed, receipts: [alias.receipt, ...renamed.receipts] }
    : { call: alias.call, changed: true, receipts: [alias.receipt] };
}

/** One call read from the text: the name the model wrote, the call that runs, and the receipts. */
export interface TextCall {
  modelName: string;
  /** The call's DSML markup as the model wrote it. */
  markup: string;
  call: ToolCall & { arguments: Record<string, unknown> };
  receipts: Receipt[];
}

export type TextCallsResult = { ok: true; text: string; calls: TextCall[] } | { ok: false; reason: string };

/** The calls of the one complete DSML block in `text`, each accepted by the host, and the text without the block. */
export function dsmlTextCalls(text: string, env: Environment, toggleInput?: Partial<RuleToggles>): TextCallsResult {
  try {
    const toggles = resolveToggles(toggleInput);
    if (!ruleOn(toggles, 'call.dsml-text-to-call')) return { ok: false, reason: 'argument repairs are switched off' };
    if (typeof text !== 'string' || text.length > MAX_INPUT_CHARS)
      return { ok: false, reason: 'not text, or too large to read' };
    const block = dsmlToolCalls(text);
    if (!block) return { ok: false, reason: 'the text holds no complete DSML tool-call block' };
    const calls: TextCall[] = [];
    for (const found of block.calls) {
      const sent: ToolCall = { name: found.name, arguments: found.args };
      const result = repairCall(sent, env, toggles);
      const final = result.call;
      const tool = findTool(env, final.name);
      const args = final.arguments;
      const label = `DSML call "${preview(found.name, 80)}"`;
      if (!tool) return { ok: false, reason: `${label}: no single presented tool has that name` };
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return { ok: false, reason: `${label}: the arguments are not an object` };
      const record = args as Record<string, unknown>;
      const violations = hostViolations(tool, record);
      if (violations.length > 0)
        return { ok: false, reason: `${label}: ${preview(violations.slice(0, 3).join('; '), 240)}` };
      if (tool.name === RUN_CODE && !programCompiles(record.code))
        return { ok: false, reason: `${label}: the program does not compile` };
      const read = receipt(
        'call.dsml-text-to-call',
        `the model's text held a complete DSML call to "${preview(found.name, 80)}" and no tool call; it is that call`,
        preview(found.markup, 200),
        preview(JSON.stringify({ name: final.name, arguments: record }), 200),
      );
      calls.push({
        modelName: found.name,
        markup: found.markup,
        call: { name: final.name, arguments: record },
        receipts: [read, ...(result.changed ? result.receipts : [])],
      });
    }
    return { ok: true, text: block.text, calls };
  } catch {
    return { ok: false, reason: 'left unchanged after an internal error' };
  }
}
