/**
 * The harness-neutral repair kit: the engine's argument repairs for any harness that describes its tools by
 * name + JSON Schema (an AI SDK tool set, an MCP server's tools/list, a custom agent loop). A call is answered
 * unchanged (the same arguments object) when it passes every check the harness makes: the JSON Schema, the
 * tool's own validator, the host profile's extra checks, and, for program tools, the syntax healer's compile
 * check. Otherwise it is repaired only when the one repair the rules make passes all of those checks too;
 * else a refusal with the reason, and the harness's own error runs. It composes core-rules' pieces (argument
 * decoding with its one near-JSON reader, the argument rules, the name-prefix strip, resolveToolAlias) and
 * never throws. `repairText` does the same for a whole DSML tool-call block a model left in its text (DeepSeek
 * served by vLLM or SGLang): the calls it names, each checked like a call, and the text without the block.
 */
import { HOST_TEXTS } from '@dsh-tool-normalizer/dsh-profile';
import { MAX_INPUT_CHARS } from './bounds.js';
import { receipt, ruleOn } from './catalogue.js';
import { decodeArguments } from './decode-arguments.js';
import { dsmlToolCalls } from './dsml.js';
import { resolveToolName } from './kit-names.js';
import { checkProgram, type KitPrograms } from './kit-programs.js';
import { repairArguments, UNWRAP_RULES, unwrapReceipt } from './normalize.js';
import { errorText, preview } from './text.js';
import { resolveToggles } from './toggles.js';
import { findTool, isRecord, propertySchema, toPlainJson } from './tools.js';
import type { Environment, Receipt, RuleToggles, ToolSchema } from './types.js';
import { passesSchema, validateArguments } from './validate.js';

/** A tool as the harness describes it. */
export interface KitTool {
  name: string;
  description?: string;
  /** The JSON Schema the arguments must pass. */
  parameters: unknown;
  /**
   * The tool's own validator (zod, Ajv, Standard Schema…), run as the last check: true when it accepts. When a
   * tool has one, it also decides about keys the schema does not declare (zod strips them, Ajv with
   * `additionalProperties: false` rejects them), so `additionalProperties: false` alone refuses nothing.
   */
  validate?: (args: Record<string, unknown>) => boolean | Promise<boolean>;
}

/** A call as the model sent it: `arguments` may be an object or text (JSON, double-encoded, fenced, near-JSON). */
export interface KitCall {
  name: string;
  arguments: unknown;
}

export interface KitOptions {
  /** Rule families on or off (core-rules' switches; default all on). */
  toggles?: Partial<RuleToggles>;
  /** Working directory for relative `str_replace_editor` paths (resolved only when given). */
  cwd?: string;
  /**
   * The host's checks beyond the JSON Schema (its profile): the violations of `args` for `tool`, empty when
   * the host accepts them. A throw counts as a violation.
   */
  hostChecks?: (tool: string, args: Record<string, unknown>) => readonly string[];
  /** Tools that take a JavaScript program, with the healer (passing it is what brings the healer into a bundle). */
  programs?: KitPrograms;
}

export type KitAnswer =
  | { ok: true; changed: false; name: string; args: Record<string, unknown>; receipts: [] }
  | { ok: true; changed: true; name: string; args: Record<string, unknown>; receipts: Receipt[] }
  | { ok: false; reason: string };

/** One call read from a model's text, checked like any call. */
export interface KitTextCall {
  name: string;
  args: Record<string, unknown>;
  receipts: Receipt[];
}

export type KitTextAnswer = { ok: true; text: string; calls: KitTextCall[] } | { ok: false; reason: string };

export interface RepairKit {
  /** Checks a call and repairs it when exactly one repair passes every check. Never throws. */
  repair(call: KitCall): Promise<KitAnswer>;
  /**
   * The tool calls of one complete DSML block in a model's text (`<｜DSML｜tool_calls>…`, left there when the
   * server's tool parser missed it), when every call passes every check (after the same repairs as `repair`),
   * with the text minus exactly the block. A refusal otherwise: the harness then keeps the text as it is.
   */
  repairText(text: string): Promise<KitTextAnswer>;
  /** Every check's violations for arguments of a registered tool (empty: the harness accepts them). */
  violations(name: string, args: Record<string, unknown>): Promise<string[]>;
}

/** Bounded reasons, whatever the input held. */
const MAX_REASON_CHARS = 300;

function refuse(reason: string): KitAnswer {
  return { ok: false, reason: preview(reason, MAX_REASON_CHARS) };
}

/** A copy of a JSON Schema without `additionalProperties: false` anywhere (undeclared keys left to the validator). */
function withoutClosedObjects(schema: unknown, depth = 0): unknown {
  if (depth > 64 || typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map((item) => withoutClosedObjects(item, depth + 1));
  const entries = Object.entries(schema)
    .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
    .map(([key, value]) => [key, withoutClosedObjects(value, depth + 1)] as const);
  return Object.fromEntries(entries);
}

/** Keys the SDKs' safe JSON parsers reject (secure-json-parse): a repair holding one would replace the harness's own error. */
function prototypeKey(value: unknown, depth = 0): string | undefined {
  if (depth > 256 || typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = prototypeKey(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key === '__proto__') return key;
    if (key === 'constructor' && isRecord(item) && Object.hasOwn(item, 'prototype')) return 'constructor.prototype';
    const found = prototypeKey(item, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Keys a coercion turned from text into a number the host may still refuse: a negative or fractional number
 * in a field whose schema states no range ("-5" for a 1-based offset, "20.5" for a line count). A coercion is
 * kept only for a count-like value (a non-negative integer) or when the schema's own bounds judge it (zod's
 * safe-integer range is not a bound anyone wrote).
 */
function unboundedCoercions(tool: ToolSchema, before: Record<string, unknown>, after: Record<string, unknown>) {
  return Object.keys(after).filter((key) => {
    const value = after[key];
    if (typeof value !== 'number' || typeof before[key] !== 'string') return false;
    if (Number.isInteger(value) && value >= 0) return false;
    const schema = propertySchema(tool, key) ?? {};
    return !RANGE_KEYWORDS.some((keyword) => statesBound(schema[keyword]));
  });
}

const RANGE_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

/** A real bound: zod writes the safe-integer range into every integer's schema, which says nothing about the field. */
function statesBound(bound: unknown): boolean {
  return typeof bound === 'number' && Math.abs(bound) < Number.MAX_SAFE_INTEGER;
}

/** Creates a kit for one tool set. Tools with the same name: the first wins. */
export function createRepairKit(tools: readonly KitTool[], options: KitOptions = {}): RepairKit {
  const toggles = resolveToggles(options.toggles);
  const byName = new Map<string, KitTool>();
  for (const tool of tools)
    if (tool && typeof tool.name === 'string' && !byName.has(tool.name)) byName.set(tool.name, tool);
  // The schema the rules gate on: with a validator, undeclared keys are the validator's call.
  const schemas: ToolSchema[] = [...byName.values()].map((tool) => ({
    name: tool.name,
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    parameters: tool.validate ? withoutClosedObjects(tool.parameters) : tool.parameters,
  }));
  const env: Environment = { tools: schemas, mode: 'native', ...(options.cwd ? { cwd: options.cwd } : {}) };
  const programs = options.programs;
  const programField = (name: string): string | undefined =>
    programs && Object.hasOwn(programs.fields, name) ? programs.fields[name] : undefined;

  /** The violations of every check; `detail: false` skips wording the schema's (a repair follows anyway). */
  async function violations(name: string, args: Record<string, unknown>, detail = true): Promise<string[]> {
    const tool = byName.get(name);
    const schema = findTool(env, name);
    if (!tool || !schema) return [HOST_TEXTS.unknownTool(preview(name, 80))];
    if (!passesSchema(schema.parameters, args))
      return detail ? validateArguments(schema.parameters, args) : ['the arguments fail the JSON Schema'];
    if (options.hostChecks) {
      try {
        const host = options.hostChecks(name, args);
        if (host.length > 0) return [...host];
      } catch (error) {
        return [`the host profile's check failed: ${errorText(error)}`];
      }
    }
    const field = programField(name);
    if (field !== undefined && programs) {
      const verdict = checkProgram(programs.healProgram, args, field);
      if (!verdict.ok) return [verdict.violation];
    }
    if (tool.validate) {
      try {
        if (!(await tool.validate(args))) return ["the tool's own validator rejects the arguments"];
      } catch (error) {
        return [`the tool's own validator failed: ${errorText(error)}`];
      }
    }
    return [];
  }

  async function repairUnsafe(call: KitCall): Promise<KitAnswer> {
    if (!isRecord(call) || typeof call.name !== 'string') return refuse('not a tool call');
    const decoded = decodeArguments(call.arguments);
    if (!decoded.ok) return refuse(decoded.reason);
    if (decoded.unwrapped && !ruleOn(toggles, UNWRAP_RULES[decoded.unwrapped]))
      return refuse('encoded arguments; argument repairs are switched off');
    const resolved = resolveToolName(call.name, decoded.value, env, toggles);
    if ('reason' in resolved) return refuse(resolved.reason);
    const { tool } = resolved;
    const receipts: Receipt[] = [...resolved.receipts];
    if (decoded.unwrapped) receipts.unshift(unwrapReceipt(decoded.unwrapped, call.arguments, decoded.layers));
    const sent = decoded.value;
    const first = await violations(tool.name, sent, false);
    if (first.length === 0 && receipts.length === 0)
      return { ok: true, changed: false, name: tool.name, args: sent, receipts: [] };

    const repaired = repairArguments(tool, sent, env, toggles);
    if (!repaired.ok) return refuse(repaired.reason);
    let args = repaired.args;
    receipts.push(...repaired.receipts);
    const coercedKeys = unboundedCoercions(tool, sent, args);
    if (coercedKeys.length > 0)
      return refuse(
        `not coerced: ${coercedKeys.map((key) => `"${key}"`).join(', ')} would become a negative or fractional number the schema puts no bounds on`,
      );

    const field = programField(tool.name);
    if (field !== undefined && programs) {
      const verdict = checkProgram(programs.healProgram, args, field);
      if (!verdict.ok && !verdict.repaired) return refuse(verdict.violation);
      if (!verdict.ok && verdict.repaired) {
        args = { ...args, [field]: verdict.repaired.code };
        receipts.push(verdict.repaired.receipt);
      }
    }
    if (receipts.length === 0)
      return refuse(`no rule repairs: ${(await violations(tool.name, sent)).slice(0, 3).join('; ')}`);

    const plain = toPlainJson(args);
    if (!plain.ok) return refuse(`the repaired arguments are not plain JSON (${plain.reason})`);
    const copy = plain.value as Record<string, unknown>;
    const unsafe = prototypeKey(copy);
    if (unsafe) return refuse(`the repaired arguments hold a "${unsafe}" key, which safe JSON parsers reject`);
    const last = await violations(tool.name, copy);
    if (last.length > 0) return refuse(`the repaired call would still fail: ${last.slice(0, 3).join('; ')}`);
    return { ok: true, changed: true, name: tool.name, args: copy, receipts };
  }

  async function repairTextUnsafe(text: string): Promise<KitTextAnswer> {
    if (typeof text !== 'string') return { ok: false, reason: 'not text' };
    if (!ruleOn(toggles, 'call.dsml-text-to-call')) return { ok: false, reason: 'argument repairs are switched off' };
    if (text.length > MAX_INPUT_CHARS) return { ok: false, reason: 'the text is too large to read' };
    const block = dsmlToolCalls(text);
    if (!block) return { ok: false, reason: 'the text holds no complete DSML tool-call block' };
    const calls: KitTextCall[] = [];
    for (const [index, found] of block.calls.entries()) {
      const answer = await repairUnsafe({ name: found.name, arguments: found.args });
      if (!answer.ok) {
        const why = `DSML call ${index + 1} ("${preview(found.name, 80)}") is not runnable: ${answer.reason}`;
        return { ok: false, reason: preview(why, MAX_REASON_CHARS) };
      }
      const read = receipt(
        'call.dsml-text-to-call',
        `the model's text held a complete DSML call to "${preview(found.name, 80)}" and no tool call; it is that call`,
        preview(found.markup, 200),
        preview(JSON.stringify({ name: answer.name, arguments: answer.args }), 200),
      );
      calls.push({ name: answer.name, args: answer.args, receipts: [read, ...answer.receipts] });
    }
    return { ok: true, text: block.text, calls };
  }

  return {
    repairText: async (text) => {
      try {
        return await repairTextUnsafe(text);
      } catch (error) {
        return {
          ok: false,
          reason: preview(`left unchanged after an internal error: ${errorText(error)}`, MAX_REASON_CHARS),
        };
      }
    },
    violations: async (name, args) => {
      try {
        return await violations(name, args);
      } catch (error) {
        return [`checking failed: ${errorText(error)}`];
      }
    },
    repair: async (call) => {
      try {
        return await repairUnsafe(call);
      } catch (error) {
        return refuse(`left unchanged after an internal error: ${errorText(error)}`);
      }
    },
  };
}
