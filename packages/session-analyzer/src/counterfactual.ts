/**
 * Replays one failed tool call through the current `@dsh-tool-normalizer/core-rules` (its public exports only)
 * with the tools the session presented, and predicts what the rules would do: heal it before dispatch, recover it
 * after the error, add a hint, or nothing. The same order the plugin applies them in DSH: the stream repair first,
 * then a recovery plan for the error, then a hint.
 *
 * A repair counts as a predicted heal only when it addresses the recorded error (the cause check): the rule's
 * category is the recorded error's category, the session's schema for the tool declares every field the repair
 * adds, the repaired call passes the host's checks for that schema while the original did not, and a property the
 * error names is one the repair changed. Any other rewrite is reported as unrelated, never as a heal.
 */
import {
  classifyResult,
  hintFor,
  hostViolations,
  normalizeCall,
  planRecovery,
  type Environment,
  type NormalizeResult,
  type ToolCall,
  type ToolResultLike,
  type ToolSchema,
} from '@dsh-tool-normalizer/core-rules';
import { codeOfMessage } from '@dsh-tool-normalizer/dsh-profile';
import type { CounterfactualOutcome } from './types.js';

/** An inner Code-Mode sub-call that failed inside the program (`tool/code-dispatch` or `tool/ptc-dispatch`). */
export interface FailedSubCall {
  name: string;
  arguments: unknown;
  /** The error text without the `Error: ` prefix. */
  message: string;
  /** The host's code, when the event recorded one (`tool/ptc-dispatch` may carry `error.code`). */
  code?: string | undefined;
}

export interface Replay {
  outcome: CounterfactualOutcome;
  ruleId: string | undefined;
  innerTool: string | undefined;
  /** A rule that would rewrite the call although the rewrite does not address the recorded error. */
  unrelatedRewrite?: string | undefined;
}

/**
 * The host error code a sub-call's message text implies, if it is one of the known shapes (rc.8's
 * `tool/code-dispatch` carries no code): DSH's error vocabulary, @dsh-tool-normalizer/dsh-profile.
 */
export const codeFromMessage = (message: string): string | undefined => codeOfMessage(message);

/** A core-rules result from what the log recorded. */
export function resultOf(message: string, code: string | undefined, name: string | undefined): ToolResultLike {
  return { isError: true, error: { message, ...(code ? { info: { code, ...(name ? { name } : {}) } } : {}) } };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The call's arguments as an object when they are one (or a JSON text of one); else an empty object. */
function argumentObject(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function declaredProperties(tool: ToolSchema): Record<string, unknown> | undefined {
  const parameters = tool.parameters;
  return isRecord(parameters) && isRecord(parameters.properties) ? parameters.properties : undefined;
}

/**
 * True when the repair `normalized` addresses the error `result` of `call` (see the file header). Argument checks
 * apply to argument repairs; a renamed tool must exist in the session; a program repair must answer a compile error.
 */
export function repairAddressesError(
  call: ToolCall,
  normalized: NormalizeResult,
  result: ToolResultLike,
  env: Environment,
): boolean {
  const errorCategory = classifyResult(call, result).category;
  if (!normalized.receipts.some((receipt) => receipt.category === errorCategory)) return false;
  const tool = env.tools.find((candidate) => candidate.name === normalized.call.name);
  if (!tool) return false;
  if (errorCategory !== 'invalid-args') return true;
  const before = argumentObject(call.arguments);
  const after = argumentObject(normalized.call.arguments);
  const declared = declaredProperties(tool);
  if (declared) for (const key of Object.keys(after)) if (!(key in before) && !(key in declared)) return false;
  if (hostViolations(tool, after).length > 0) return false;
  const named = /propert(?:y|ies) "([^"]+)"/.exec(result.error?.message ?? '')?.[1];
  if (named && JSON.stringify(before[named]) === JSON.stringify(after[named])) return false;
  // the original arguments must be what the schema refuses (a call the schema accepted failed for another reason)
  return !parsesToObject(call.arguments) || hostViolations(tool, before).length > 0;
}

/** Whether raw arguments are an object or the JSON text of one (a double-encoded or fenced text is not). */
function parsesToObject(raw: unknown): boolean {
  if (isRecord(raw)) return true;
  if (typeof raw !== 'string') return false;
  try {
    return isRecord(JSON.parse(raw));
  } catch {
    return false;
  }
}

function planOutcome(call: ToolCall, result: ToolResultLike, env: Environment): Replay | undefined {
  const plan = planRecovery(call, result, env);
  if (!plan) return undefined;
  return { outcome: plan.resultFrom === 'last-step' ? 'recovered' : 'hint', ruleId: plan.ruleId, innerTool: undefined };
}

/**
 * What the current rules would do with `call`, which failed with `result`. `env` undefined means nothing is known
 * of the session's tools: the answer is then `unknown`. `subCalls` are the program's failed inner calls, in order,
 * for a failed run_code. Never throws.
 */
export function replayFailure(
  call: ToolCall,
  result: ToolResultLike,
  env: Environment | undefined,
  subCalls: readonly FailedSubCall[] = [],
): Replay {
  if (!env) return { outcome: 'unknown', ruleId: undefined, innerTool: undefined };
  try {
    const normalized = normalizeCall(call, env);
    let unrelatedRewrite: string | undefined;
    if (normalized.changed) {
      if (repairAddressesError(call, normalized, result, env))
        return { outcome: 'healed', ruleId: normalized.receipts[0]?.ruleId, innerTool: undefined };
      unrelatedRewrite = normalized.receipts[0]?.ruleId;
    }
    const top = planOutcome(call, result, env);
    if (top) return { ...top, unrelatedRewrite };
    // A program that failed because an inner sub-call failed: the plugin recovers that sub-call inside the run.
    const message = result.error?.message ?? '';
    const inner = [...subCalls].reverse().find((sub) => message.includes(sub.message.split('\n', 1)[0] ?? sub.message));
    if (inner) {
      const innerCall: ToolCall = { name: inner.name, arguments: inner.arguments };
      const innerResult = resultOf(inner.message, inner.code ?? codeFromMessage(inner.message), undefined);
      const innerPlan = planOutcome(innerCall, innerResult, { ...env, nested: true });
      if (innerPlan?.outcome === 'recovered') return { ...innerPlan, innerTool: inner.name, unrelatedRewrite };
    }
    const hint = hintFor(call, result, env, normalized.diagnostic);
    if (hint) return { outcome: 'hint', ruleId: 'hint.error-hints', innerTool: undefined, unrelatedRewrite };
    return { outcome: 'nothing', ruleId: undefined, innerTool: undefined, unrelatedRewrite };
  } catch {
    return { outcome: 'nothing', ruleId: undefined, innerTool: undefined };
  }
}

/** What a rewrite of a call that succeeded would change, and what in it the session's schema does not declare. */
export interface SuccessRewrite {
  ruleId: string;
  /** Each change in a few words: `adds "description": "Run bash"`, `changes "code"`, `renames read to read_file`. */
  changes: string[];
  /** Properties added that the session's schema for the tool does not declare (the host accepted the call without). */
  undeclared: string[];
}

const shortJson = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/** The rewrite the rules would make of a call that succeeded, or undefined (they leave it alone). Never throws. */
export function successRewrite(call: ToolCall, env: Environment): SuccessRewrite | undefined {
  try {
    const normalized = normalizeCall(call, env);
    if (!normalized.changed) return undefined;
    const before = argumentObject(call.arguments);
    const after = argumentObject(normalized.call.arguments);
    const tool = env.tools.find((candidate) => candidate.name === normalized.call.name);
    const declared = tool ? declaredProperties(tool) : undefined;
    const changes: string[] = [];
    const undeclared: string[] = [];
    if (normalized.call.name !== call.name) changes.push(`renames ${call.name} to ${normalized.call.name}`);
    for (const key of Object.keys(after)) {
      if (!(key in before)) {
        changes.push(`adds ${JSON.stringify(key)}: ${shortJson(after[key])}`);
        if (declared && !(key in declared)) undeclared.push(key);
      } else if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        changes.push(`changes ${JSON.stringify(key)}`);
    }
    for (const key of Object.keys(before)) if (!(key in after)) changes.push(`removes ${JSON.stringify(key)}`);
    if (changes.length === 0) changes.push('rewrites the arguments');
    return { ruleId: normalized.receipts[0]?.ruleId ?? 'unknown rule', changes, undeclared };
  } catch {
    return undefined;
  }
}

/** The rule that would rewrite a call that succeeded, or undefined (the rules leave it alone). Never throws. */
export function rewriteOfSuccess(call: ToolCall, env: Environment): string | undefined {
  return successRewrite(call, env)?.ruleId;
}
