/**
 * Replays one failed tool call through the current `@dsh-tool-normalizer/core-rules` (its public exports only)
 * with the tools the session really presented, and says what the rules would have done: heal it before dispatch,
 * recover it after the error, add a hint, or nothing. The same order the plugin applies them in DSH: the stream
 * repair first, then a recovery plan for the error, then a hint.
 */
import {
  hintFor,
  normalizeCall,
  planRecovery,
  type Environment,
  type ToolCall,
  type ToolResultLike,
} from '@dsh-tool-normalizer/core-rules';
import type { CounterfactualOutcome } from './types.js';

/** An inner Code-Mode sub-call that failed inside the program (`tool/code-dispatch` with `isError`). */
export interface FailedSubCall {
  name: string;
  arguments: unknown;
  /** The error text without the `Error: ` prefix. */
  message: string;
}

export interface Replay {
  outcome: CounterfactualOutcome;
  ruleId: string | undefined;
  innerTool: string | undefined;
}

/**
 * The host writes no error code into `tool/code-dispatch` events. These are the exact message shapes DSH rc.8
 * gives each coded failure (see docs/host-facts.md), so a sub-call's code can be read back from its text.
 */
const CODE_BY_MESSAGE: readonly [RegExp, string][] = [
  [/^invalid arguments: /, 'INVALID_ARGS'],
  [/^unknown tool "/, 'UNKNOWN_TOOL'],
  [/^(edit requires reading ".*" first|cannot overwrite existing ".*" without reading it first)/s, 'FS_NOT_OBSERVED'],
  [/^cannot edit ".*": file changed since it was read/s, 'FS_STALE_VERSION'],
  [/^(old_string was not found in |No replacement was performed, old_str )/, 'FS_EDIT_NOT_FOUND'],
  [/^(old_string matched \d+ times in |No replacement was performed\. Multiple occurrences )/, 'FS_AMBIGUOUS_EDIT'],
  [/^offset \d+ is out of range for /, 'FS_NOT_FOUND'],
];

/** The host error code a sub-call's message text implies, if it is one of the known shapes. */
export function codeFromMessage(message: string): string | undefined {
  for (const [pattern, code] of CODE_BY_MESSAGE) if (pattern.test(message)) return code;
  return undefined;
}

/** A core-rules result from what the log recorded. */
export function resultOf(message: string, code: string | undefined, name: string | undefined): ToolResultLike {
  return { isError: true, error: { message, ...(code ? { info: { code, ...(name ? { name } : {}) } } : {}) } };
}

function planOutcome(call: ToolCall, result: ToolResultLike, env: Environment): Replay | undefined {
  const plan = planRecovery(call, result, env);
  if (!plan) return undefined;
  return { outcome: plan.resultFrom === 'last-step' ? 'recovered' : 'hint', ruleId: plan.ruleId, innerTool: undefined };
}

/**
 * What the current rules would have done with `call`, which failed with `result`. `env` undefined means the log
 * did not record the tool list: the answer is then `unknown`. `subCalls` are the program's failed inner calls,
 * in order, for a failed run_code. Never throws.
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
    if (normalized.changed) return { outcome: 'healed', ruleId: normalized.receipts[0]?.ruleId, innerTool: undefined };
    const top = planOutcome(call, result, env);
    if (top) return top;
    // A program that failed because an inner sub-call failed: the plugin recovers that sub-call inside the run.
    const message = result.error?.message ?? '';
    const inner = [...subCalls].reverse().find((sub) => message.includes(sub.message.split('\n', 1)[0] ?? sub.message));
    if (inner) {
      const innerCall: ToolCall = { name: inner.name, arguments: inner.arguments };
      const innerResult = resultOf(inner.message, codeFromMessage(inner.message), undefined);
      const innerPlan = planOutcome(innerCall, innerResult, { ...env, nested: true });
      if (innerPlan?.outcome === 'recovered') return { ...innerPlan, innerTool: inner.name };
    }
    const hint = hintFor(call, result, env, normalized.diagnostic);
    if (hint) return { outcome: 'hint', ruleId: 'hint.error-hints', innerTool: undefined };
    return { outcome: 'nothing', ruleId: undefined, innerTool: undefined };
  } catch {
    return { outcome: 'nothing', ruleId: undefined, innerTool: undefined };
  }
}
