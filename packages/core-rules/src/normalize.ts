/**
 * `normalizeCall`: the pre-dispatch pass. Validate-gated: a call that passes the host's checks comes back as
 * the same object with no receipts; a failing call is repaired only when the repair passes them; anything
 * unknown, ambiguous or unrepairable comes back unchanged with a reason. In Code Mode a direct call to a tool
 * that exists only inside run_code becomes a run_code call. A changed call always carries a plain JSON copy
 * of its arguments that passed the host's checks as copied (no NaN, BigInt, cycles, or `__proto__` tricks).
 */
import { HOST_TEXTS } from '@dsh-tool-normalizer/dsh-profile';
import { compilesLikeHost } from './healer.js';
import { tooLarge } from './bounds.js';
import { receipt, ruleOn } from './catalogue.js';
import { decodeArguments, type Unwrapped } from './decode-arguments.js';
import {
  coerceScalars,
  dropNullOptionals,
  fillDescription,
  parseObjectText,
  renameAliasKeys,
  stripEdgeNuls,
  wrapScalarInList,
} from './rules/arguments.js';
import { checksBeyondSchema } from './host-checks.js';
import { absoluteEditorPath, EDITOR, reshapeViewRange } from './rules/editor.js';
import type { RuleOutcome } from './rules/outcome.js';
import { dispatchProgram, MAX_WRAPPED_CHARS, normalizeRunCode } from './rules/run-code.js';
import { describeCall, errorText, preview } from './text.js';
import { resolveToggles } from './toggles.js';
import { findTool, RUN_CODE, toPlainJson, unprefixedName } from './tools.js';
import type { Environment, NormalizeResult, Receipt, RuleId, RuleToggles, ToolCall, ToolSchema } from './types.js';
import { passesSchema, validateArguments } from './validate.js';

/** Reasons are for logs and dashboards: bounded, whatever the input held. */
const MAX_REASON_CHARS = 300;

function unchanged(call: ToolCall, reason: string, extra: Partial<NormalizeResult> = {}): NormalizeResult {
  return { call, changed: false, receipts: [], reason: preview(reason, MAX_REASON_CHARS), ...extra };
}

/** The host's whole verdict on arguments for `tool`: its schema plus the checks it makes outside it. */
export function hostViolations(tool: ToolSchema, args: Record<string, unknown>): string[] {
  const violations = validateArguments(tool.parameters, args);
  if (violations.length > 0) return violations;
  return checksBeyondSchema(tool.name, args);
}

/** Fast form of `hostViolations(...).length === 0` for the valid path. */
function hostAccepts(tool: ToolSchema, args: Record<string, unknown>): boolean {
  return passesSchema(tool.parameters, args) && checksBeyondSchema(tool.name, args).length === 0;
}

type ArgumentRepair = (tool: ToolSchema, args: Record<string, unknown>, env: Environment) => RuleOutcome;

/**
 * The argument rules of a (non-run_code) tool, registered by catalogue id in the order they run. Each runs only when
 * its catalogue row's switch is on; tests/catalogue.test.ts fails when an argument rule of the catalogue is missing
 * here.
 */
export const ARGUMENT_RULES = Object.freeze([
  ['args.rename-alias', (tool, args) => renameAliasKeys(tool, args)],
  ['args.drop-null-optional', (tool, args) => dropNullOptionals(tool, args)],
  // On the editor, view_range has its own reshaping rule; insert_line ("5") is an ordinary integer.
  ['args.coerce-scalar', (tool, args) => coerceScalars(tool, args, tool.name === EDITOR ? ['view_range'] : [])],
  ['args.wrap-scalar-in-list', (tool, args) => wrapScalarInList(tool, args)],
  ['args.parse-object-text', (tool, args) => parseObjectText(tool, args, tool.name === EDITOR ? ['view_range'] : [])],
  ['args.strip-edge-nul', (tool, args) => stripEdgeNuls(tool, args)],
  ['args.fill-description', (tool, args) => fillDescription(tool, args)],
  ['editor.absolute-path', (tool, args, env) => (tool.name === EDITOR ? absoluteEditorPath(args, env.cwd) : undefined)],
  ['editor.view-range-shape', (tool, args) => (tool.name === EDITOR ? reshapeViewRange(args) : undefined)],
] as const satisfies readonly (readonly [RuleId, ArgumentRepair])[]);

/**
 * Passes of the argument rules over one call. A rule reads only what the rules before it left, so a value the
 * second pass can reach exists only after the first: keys inside JSON text (`"author": "{\"Name\": …}"`, parsed
 * after the renames ran), one value inside such text for a list. A second pass runs only when the first changed
 * something and the call would still fail; every rule still fires only where its schema reading does, with the
 * same refusals (two candidates for one key is no reading).
 */
const ARGUMENT_PASSES = 2;

export type ArgumentRepairResult =
  | { ok: true; args: Record<string, unknown>; receipts: Receipt[] }
  | { ok: false; reason: string };

/**
 * Repairs the arguments of a non-run_code tool until the host would accept them. `ok` with no receipts
 * means they were accepted as they are.
 */
export function repairArguments(
  tool: ToolSchema,
  args: Record<string, unknown>,
  env: Environment,
  toggles: RuleToggles,
): ArgumentRepairResult {
  if (hostAccepts(tool, args)) return { ok: true, args, receipts: [] };
  let current = args;
  const receipts: Receipt[] = [];
  for (let pass = 0; pass < ARGUMENT_PASSES; pass++) {
    const before = receipts.length;
    for (const [id, rule] of ARGUMENT_RULES) {
      if (!ruleOn(toggles, id)) continue;
      const outcome = rule(tool, current, env);
      if (!outcome) continue;
      if (outcome.kind === 'ambiguous') return { ok: false, reason: `ambiguous repair: ${outcome.reason}` };
      current = outcome.args;
      receipts.push(outcome.receipt);
    }
    if (receipts.length === before || hostAccepts(tool, current)) break;
  }
  const violations = hostViolations(tool, current);
  if (violations.length > 0) {
    const what = receipts.length > 0 ? 'the repaired call would still fail' : 'no rule repairs';
    return { ok: false, reason: `${what}: ${violations.slice(0, 3).join('; ')}` };
  }
  return { ok: true, args: current, receipts };
}

/** The catalogue rule of each decoding step. */
export const UNWRAP_RULES = Object.freeze({
  'double-encoded': 'args.unwrap-double-encoded',
  'dsml-markup': 'args.strip-dsml-markup',
  'fenced-json': 'args.unwrap-fenced-json',
  'near-json': 'args.repair-near-json',
} as const satisfies Record<Unwrapped, RuleId>);

/** The receipt of a decoding step (the kit words it the same: it imports this). */
export function unwrapReceipt(kind: Unwrapped, raw: unknown, layers = 2): Receipt {
  if (kind === 'double-encoded') {
    const why =
      layers > 2
        ? `the arguments were encoded ${layers} times as JSON strings`
        : 'the arguments were a JSON string inside a JSON string';
    return receipt('args.unwrap-double-encoded', why, preview(raw), '(plain JSON object)');
  }
  if (kind === 'dsml-markup')
    return receipt(
      'args.strip-dsml-markup',
      "the arguments carried DeepSeek's DSML tool-call markup (a vLLM/SGLang parser leak); read as the JSON it stands for",
      preview(raw),
      '(plain JSON object)',
    );
  if (kind === 'fenced-json')
    return receipt(
      'args.unwrap-fenced-json',
      'the arguments were wrapped in a Markdown fence',
      preview(raw),
      '(plain JSON object)',
    );
  return receipt(
    'args.repair-near-json',
    'the arguments were near-JSON (trailing commas, single quotes, unquoted keys or raw newlines); complete, and read one way',
    preview(raw),
    '(plain JSON object)',
  );
}

/** The registered tool a provider-prefixed name stands for, when the bare name is registered and the prefixed one is not. */
function unprefixedTool(env: Environment, name: string): ToolSchema | undefined {
  const bare = unprefixedName(name);
  return bare === undefined ? undefined : findTool(env, bare);
}

/** The outer description of a bridged call: the inner call's own description when it has one. */
function bridgedDescription(tool: ToolSchema, args: Record<string, unknown>): string {
  const own = args.description;
  if (typeof own === 'string' && own.trim() !== '')
    return own.trim().length > 200 ? preview(own.trim(), 200) : own.trim();
  return describeCall(tool.name, args);
}

function bridge(
  call: ToolCall,
  tool: ToolSchema,
  runCode: ToolSchema,
  args: Record<string, unknown>,
  env: Environment,
  toggles: RuleToggles,
  receipts: Receipt[],
): NormalizeResult {
  const repaired = repairArguments(tool, args, env, toggles);
  if (!repaired.ok) return unchanged(call, `Code Mode direct call not bridged: ${repaired.reason}`);
  const code = dispatchProgram(tool.name, repaired.args);
  if (code.length > MAX_WRAPPED_CHARS)
    return unchanged(call, 'Code Mode direct call not bridged: the arguments are too large to wrap into a program');
  const runCodeArgs = { code, description: bridgedDescription(tool, repaired.args) };
  if (!hostAccepts(runCode, runCodeArgs) || !compilesLikeHost(code).ok)
    return unchanged(call, 'Code Mode direct call not bridged: the run_code call would not pass');
  return changedCall(call, runCode, RUN_CODE, runCodeArgs, [
    ...receipts,
    ...repaired.receipts,
    receipt(
      'code.bridge-direct-call',
      `in Code Mode only run_code is callable directly; ${tool.name} now runs inside a run_code program`,
      preview({ name: tool.name, arguments: repaired.args }),
      preview(code),
    ),
  ]);
}

function normalizeUnsafe(
  call: ToolCall,
  env: Environment,
  toggleInput: Partial<RuleToggles> | undefined,
): NormalizeResult {
  if (typeof call !== 'object' || call === null || typeof call.name !== 'string')
    return unchanged(call, 'not a tool call');
  if (typeof env !== 'object' || env === null || !Array.isArray(env.tools))
    return unchanged(call, 'no tool environment');
  const large = tooLarge('arguments', call.arguments);
  if (large) return unchanged(call, large);
  const toggles = resolveToggles(toggleInput);
  const receipts: Receipt[] = [];
  let tool = findTool(env, call.name);
  if (!tool) {
    const bare = ruleOn(toggles, 'call.strip-name-prefix') ? unprefixedTool(env, call.name) : undefined;
    if (!bare)
      return unchanged(call, `${HOST_TEXTS.unknownTool(preview(call.name, 80))}: not registered in this environment`);
    tool = bare;
    receipts.push(
      receipt(
        'call.strip-name-prefix',
        `"${preview(call.name, 80)}" is registered nowhere; "${tool.name}" is, without the provider prefix`,
        preview(call.name, 80),
        tool.name,
      ),
    );
  }
  const name = tool.name;
  const decoded = decodeArguments(call.arguments);
  if (!decoded.ok) return unchanged(call, decoded.reason);
  const args = decoded.value;
  if (decoded.unwrapped && !ruleOn(toggles, UNWRAP_RULES[decoded.unwrapped]))
    return unchanged(call, 'encoded arguments; argument repairs are switched off');
  if (decoded.unwrapped) receipts.push(unwrapReceipt(decoded.unwrapped, call.arguments, decoded.layers));

  const runCode =
    name === RUN_CODE ? undefined : env.mode === 'code' && !env.nested ? findTool(env, RUN_CODE) : undefined;
  if (runCode) {
    if (!ruleOn(toggles, 'code.bridge-direct-call'))
      return unchanged(call, 'Code Mode direct call; bridging is switched off');
    return bridge(call, tool, runCode, args, env, toggles, receipts);
  }

  if (name === RUN_CODE) {
    // normalizeRunCode runs every run_code.* rule; they share one switch (tests/catalogue.test.ts checks it).
    if (!ruleOn(toggles, 'run_code.command-to-code'))
      return receipts.length > 0
        ? changedCall(call, tool, name, args, receipts)
        : unchanged(call, 'run_code rules are switched off');
    const outcome = normalizeRunCode(tool, args, env);
    if (outcome.receipts.length === 0) {
      if (receipts.length > 0 && !outcome.diagnostic && hostAccepts(tool, args))
        return changedCall(call, tool, name, args, receipts);
      return unchanged(
        call,
        outcome.reason ?? 'valid call',
        outcome.diagnostic ? { diagnostic: outcome.diagnostic } : {},
      );
    }
    return changedCall(call, tool, name, outcome.args, [...receipts, ...outcome.receipts]);
  }

  const repaired = repairArguments(tool, args, env, toggles);
  if (!repaired.ok) return unchanged(call, repaired.reason);
  const allReceipts = [...receipts, ...repaired.receipts];
  if (allReceipts.length === 0) return unchanged(call, 'valid call');
  return changedCall(call, tool, name, repaired.args, allReceipts);
}

/**
 * The last gate of every change: the arguments are copied into plain JSON and the copy must pass the host's
 * checks, so what was validated is exactly what the host receives.
 */
function changedCall(
  original: ToolCall,
  tool: ToolSchema,
  name: string,
  args: unknown,
  receipts: Receipt[],
): NormalizeResult {
  const plain = toPlainJson(args);
  if (!plain.ok)
    return unchanged(original, `left unchanged: the repaired arguments are not plain JSON (${plain.reason})`);
  const copy = plain.value as Record<string, unknown>;
  if (!hostAccepts(tool, copy)) return unchanged(original, 'left unchanged: the repaired call would still fail');
  return { call: { name, arguments: copy }, changed: true, receipts };
}

/**
 * Checks a call against the host's own rules and repairs it when exactly one repair passes. Never throws:
 * any internal failure (hostile getters included) answers "unchanged" with the reason.
 */
export function normalizeCall(call: ToolCall, env: Environment, toggles?: Partial<RuleToggles>): NormalizeResult {
  try {
    return normalizeUnsafe(call, env, toggles);
  } catch (error) {
    return {
      call,
      changed: false,
      receipts: [],
      reason: preview(`left unchanged after an internal error: ${errorText(error)}`, MAX_REASON_CHARS),
    };
  }
}
