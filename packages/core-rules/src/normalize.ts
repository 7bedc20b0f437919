/**
 * `normalizeCall`: the pre-dispatch pass (design section 2, step 1). Validate-gated: a call that passes
 * the host's checks comes back as the same object with no receipts; a failing call is repaired only when
 * the repair passes them; anything unknown, ambiguous or unrepairable comes back unchanged with a reason.
 * In Code Mode a direct call to a tool that exists only inside run_code becomes a run_code call.
 */
import { compilesLikeHost } from '@dsh-tool-normalizer/syntax-healer';
import { decodeArguments } from './decode-arguments.js';
import { fillDescription, isBlank, renameAliasKeys } from './rules/arguments.js';
import { absoluteEditorPath, EDITOR, editorViolations, reshapeViewRange } from './rules/editor.js';
import type { RuleOutcome } from './rules/outcome.js';
import { dispatchProgram, MAX_WRAPPED_CHARS, normalizeRunCode } from './rules/run-code.js';
import { describeCall, preview } from './text.js';
import { resolveToggles } from './toggles.js';
import { findTool, RUN_CODE } from './tools.js';
import type { Environment, NormalizeResult, Receipt, RuleToggles, ToolCall, ToolSchema } from './types.js';
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
  if (tool.name === RUN_CODE && isBlank(args.description)) return ['invalid description: expected a non-empty string'];
  if (tool.name === EDITOR) return editorViolations(args);
  return [];
}

/** Fast form of `hostViolations(...).length === 0` for the valid path. */
function hostAccepts(tool: ToolSchema, args: Record<string, unknown>): boolean {
  if (!passesSchema(tool.parameters, args)) return false;
  if (tool.name === RUN_CODE) return !isBlank(args.description);
  if (tool.name === EDITOR) return editorViolations(args).length === 0;
  return true;
}

type ArgumentRepair = (args: Record<string, unknown>) => RuleOutcome;

/** The ordered argument rules for a (non-run_code) tool under the given switches. */
function argumentRules(tool: ToolSchema, env: Environment, toggles: RuleToggles): ArgumentRepair[] {
  const rules: ArgumentRepair[] = [];
  if (toggles.autoWrapRunCode) {
    rules.push((args) => renameAliasKeys(tool, args));
    rules.push((args) => fillDescription(tool, args));
  }
  if (toggles.autoClampRanges && tool.name === EDITOR) {
    rules.push((args) => absoluteEditorPath(args, env.cwd));
    rules.push((args) => reshapeViewRange(args));
  }
  return rules;
}

export type ArgumentRepairResult =
  | { ok: true; args: Record<string, unknown>; receipts: Receipt[] }
  | { ok: false; reason: string };

/**
 * Repairs the arguments of a non-run_code tool until the host would accept them. `ok` with no receipts
 * means they were accepted as they are.
 */
export function repairArguments(tool: ToolSchema, args: Record<string, unknown>, env: Environment, toggles: RuleToggles): ArgumentRepairResult {
  if (hostAccepts(tool, args)) return { ok: true, args, receipts: [] };
  let current = args;
  const receipts: Receipt[] = [];
  for (const rule of argumentRules(tool, env, toggles)) {
    const outcome = rule(current);
    if (!outcome) continue;
    if (outcome.kind === 'ambiguous') return { ok: false, reason: `ambiguous repair: ${outcome.reason}` };
    current = outcome.args;
    receipts.push(outcome.receipt);
  }
  const violations = hostViolations(tool, current);
  if (violations.length > 0) {
    const what = receipts.length > 0 ? 'the repaired call would still fail' : 'no rule repairs';
    return { ok: false, reason: `${what}: ${violations.slice(0, 3).join('; ')}` };
  }
  return { ok: true, args: current, receipts };
}

function unwrapReceipt(kind: 'double-encoded' | 'fenced-json', raw: unknown): Receipt {
  return {
    ruleId: kind === 'double-encoded' ? 'args.unwrap-double-encoded' : 'args.unwrap-fenced-json',
    category: 'invalid-args',
    why: kind === 'double-encoded' ? 'the arguments were a JSON string inside a JSON string' : 'the arguments were wrapped in a Markdown fence',
    before: preview(raw),
    after: '(plain JSON object)',
  };
}

function bridge(call: ToolCall, tool: ToolSchema, runCode: ToolSchema, args: Record<string, unknown>, env: Environment, toggles: RuleToggles, receipts: Receipt[]): NormalizeResult {
  const repaired = repairArguments(tool, args, env, toggles);
  if (!repaired.ok) return unchanged(call, `Code Mode direct call not bridged: ${repaired.reason}`);
  const code = dispatchProgram(tool.name, repaired.args);
  if (code.length > MAX_WRAPPED_CHARS) return unchanged(call, 'Code Mode direct call not bridged: the arguments are too large to wrap into a program');
  const runCodeArgs = { code, description: describeCall(tool.name, repaired.args) };
  if (!hostAccepts(runCode, runCodeArgs) || !compilesLikeHost(code).ok) return unchanged(call, 'Code Mode direct call not bridged: the run_code call would not pass');
  return {
    call: { name: RUN_CODE, arguments: runCodeArgs },
    changed: true,
    receipts: [
      ...receipts,
      ...repaired.receipts,
      {
        ruleId: 'code.bridge-direct-call',
        category: 'code-mode-direct-call',
        why: `in Code Mode only run_code is callable directly; ${tool.name} now runs inside a run_code program`,
        before: preview({ name: call.name, arguments: repaired.args }),
        after: preview(code),
      },
    ],
  };
}

function normalizeUnsafe(call: ToolCall, env: Environment, toggleInput: Partial<RuleToggles> | undefined): NormalizeResult {
  if (typeof call !== 'object' || call === null || typeof call.name !== 'string') return unchanged(call, 'not a tool call');
  if (typeof env !== 'object' || env === null || !Array.isArray(env.tools)) return unchanged(call, 'no tool environment');
  const tool = findTool(env, call.name);
  if (!tool) return unchanged(call, `unknown tool "${preview(call.name, 80)}": not registered in this environment`);
  const toggles = resolveToggles(toggleInput);
  const decoded = decodeArguments(call.arguments);
  if (!decoded.ok) return unchanged(call, decoded.reason);
  const args = decoded.value;
  const receipts = decoded.unwrapped && toggles.autoWrapRunCode ? [unwrapReceipt(decoded.unwrapped, call.arguments)] : [];
  if (decoded.unwrapped && !toggles.autoWrapRunCode) return unchanged(call, 'encoded arguments; argument repairs are switched off');

  const runCode = call.name === RUN_CODE ? undefined : env.mode === 'code' && !env.nested ? findTool(env, RUN_CODE) : undefined;
  if (runCode) {
    if (!toggles.autoBridgeDirectTools) return unchanged(call, 'Code Mode direct call; bridging is switched off');
    return bridge(call, tool, runCode, args, env, toggles, receipts);
  }

  if (call.name === RUN_CODE) {
    if (!toggles.autoWrapRunCode) return unchanged(call, 'run_code rules are switched off');
    const outcome = normalizeRunCode(tool, args, env);
    if (outcome.receipts.length === 0) {
      if (receipts.length > 0 && !outcome.diagnostic && hostAccepts(tool, args)) return { call: { name: call.name, arguments: args }, changed: true, receipts };
      return unchanged(call, outcome.reason ?? 'valid call', outcome.diagnostic ? { diagnostic: outcome.diagnostic } : {});
    }
    return { call: { name: call.name, arguments: outcome.args }, changed: true, receipts: [...receipts, ...outcome.receipts] };
  }

  const repaired = repairArguments(tool, args, env, toggles);
  if (!repaired.ok) return unchanged(call, repaired.reason);
  const allReceipts = [...receipts, ...repaired.receipts];
  if (allReceipts.length === 0) return unchanged(call, 'valid call');
  return { call: { name: call.name, arguments: repaired.args }, changed: true, receipts: allReceipts };
}

/**
 * Checks a call against the host's own rules and repairs it when exactly one repair passes. Never throws:
 * any internal failure answers "unchanged" with the reason.
 */
export function normalizeCall(call: ToolCall, env: Environment, toggles?: Partial<RuleToggles>): NormalizeResult {
  try {
    return normalizeUnsafe(call, env, toggles);
  } catch (error) {
    return unchanged(call, `left unchanged after an internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
}
