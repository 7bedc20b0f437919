/**
 * `planRecovery`: what to run after an error result (design section 2, step 2), as a small serialisable
 * plan of nested calls. Only side-effect-safe recoveries: FS_NOT_OBSERVED reads then retries once (nothing
 * was written); FS_STALE_VERSION only re-reads (someone else changed the file: re-applying would clobber
 * it); a view_range past the end is retried clamped to the line count the error reports; an unknown name
 * with exactly one fitting target is retried as that tool; a call the host rejected for its arguments
 * (nothing ran) is retried once with the repaired arguments. Anchor failures are never retried; nothing is
 * planned for a cancelled call or for a result a plan produced.
 */
import { decodeArguments } from './decode-arguments.js';
import { classifyResult } from './classify.js';
import { normalizeCall, repairArguments } from './normalize.js';
import { resolveToggles } from './toggles.js';
import { findTool, isRecord } from './tools.js';
import { toolNameCandidates } from './tool-names.js';
import type { Environment, PlannedCall, RecoveryPlan, RuleToggles, ToolCall, ToolResultLike } from './types.js';

const MUTATING_FILE_TOOLS = new Set(['edit', 'write', 'str_replace_editor']);

export interface RecoveryOptions {
  toggles?: Partial<RuleToggles>;
  aborted?: boolean;
  fromPlan?: boolean;
}

/** The absolute path an FS error names (`"…"`), else the path argument of the call. */
function targetPath(message: string, args: Record<string, unknown>): string | undefined {
  const quoted = /"([^"]+)"/.exec(message)?.[1];
  if (quoted) return quoted;
  const fromArgs = args.file_path ?? args.path;
  return typeof fromArgs === 'string' && fromArgs.trim() !== '' ? fromArgs : undefined;
}

/** A read of `path` with a tool the agent can see: `read`, else the editor's `view`. */
function observeStep(path: string, env: Environment): PlannedCall | undefined {
  if (findTool(env, 'read')) return { name: 'read', arguments: { file_path: path }, role: 'observe' };
  if (findTool(env, 'str_replace_editor')) return { name: 'str_replace_editor', arguments: { command: 'view', path }, role: 'observe' };
  return undefined;
}

/** The line count a view_range error reports (the editor counts `split("\n")`). */
function reportedLineCount(message: string): number | undefined {
  const match = /within the range of lines of the file: \[1, (\d+)\]/.exec(message) ?? /smaller than the number of lines in the file: `(\d+)`/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** The view_range clamped to `lines`: the end to the last line, a start past the end moves the window back. */
export function clampViewRange(range: readonly number[], lines: number): [number, number] | undefined {
  const [start, end] = range;
  if (!Number.isInteger(start) || !Number.isInteger(end) || lines < 1) return undefined;
  const first = start as number;
  const last = end as number;
  if (first > lines) {
    if (last === -1) return [lines, -1];
    const span = last >= first ? last - first : 0;
    return [Math.max(1, lines - span), lines];
  }
  if (last > lines) return [Math.max(1, first), lines];
  return undefined;
}

export const STALE_HINT = 'Hint: the file changed on disk after you read it; it has been re-read now, so read it again and apply your change to its current content instead of resending the old edit.';

function planUnsafe(call: ToolCall, result: ToolResultLike, env: Environment, options: RecoveryOptions): RecoveryPlan | undefined {
  if (options.aborted || options.fromPlan || !result?.isError) return undefined;
  if (typeof call?.name !== 'string' || !env || !Array.isArray(env.tools)) return undefined;
  const toggles = resolveToggles(options.toggles);
  const { category } = classifyResult(call, result);
  const message = typeof result.error?.message === 'string' ? result.error.message : '';
  const decoded = decodeArguments(call.arguments);
  const args = decoded.ok ? decoded.value : undefined;

  switch (category) {
    case 'fs-not-observed': {
      if (!toggles.autoObserveFiles || !args || !MUTATING_FILE_TOOLS.has(call.name)) return undefined;
      const path = targetPath(message, args);
      const observe = path ? observeStep(path, env) : undefined;
      if (!observe) return undefined;
      return { ruleId: 'recover.observe-then-retry', category, steps: [observe, { name: call.name, arguments: args, role: 'retry' }], resultFrom: 'last-step' };
    }
    case 'fs-stale-version': {
      if (!toggles.autoObserveFiles || !args) return undefined;
      const path = targetPath(message, args);
      const observe = path ? observeStep(path, env) : undefined;
      if (!observe) return undefined;
      return { ruleId: 'recover.stale-refresh', category, steps: [observe], resultFrom: 'original', hint: STALE_HINT };
    }
    case 'editor-range': {
      if (!toggles.autoClampRanges || !args || call.name !== 'str_replace_editor' || !Array.isArray(args.view_range)) return undefined;
      const lines = reportedLineCount(message);
      const clamped = lines === undefined ? undefined : clampViewRange(args.view_range as number[], lines);
      if (clamped) {
        return { ruleId: 'recover.view-range-clamp', category, steps: [{ name: call.name, arguments: { ...args, view_range: clamped }, role: 'retry' }], resultFrom: 'last-step' };
      }
      return retryRepaired(call, env, toggles, category);
    }
    case 'unknown-tool': {
      if (!toggles.autoBridgeDirectTools || !args || findTool(env, call.name)) return undefined;
      const fitting = toolNameCandidates(call.name, env).flatMap((name) => {
        const tool = findTool(env, name);
        const repaired = tool ? repairArguments(tool, args, env, toggles) : undefined;
        return repaired?.ok ? [{ name, arguments: repaired.args }] : [];
      });
      if (fitting.length !== 1) return undefined;
      const target = fitting[0] as { name: string; arguments: Record<string, unknown> };
      return { ruleId: 'recover.unknown-tool-alias', category, steps: [{ ...target, role: 'retry' }], resultFrom: 'last-step' };
    }
    case 'invalid-args':
    case 'editor-path':
      return retryRepaired(call, env, toggles, env.nested ? 'inner-invalid-args' : category);
    default:
      return undefined;
  }
}

/** The host rejected the arguments before anything ran: retry once with the repaired call, if one passes. */
function retryRepaired(call: ToolCall, env: Environment, toggles: RuleToggles, category: string): RecoveryPlan | undefined {
  const repaired = normalizeCall(call, { ...env, nested: true }, toggles);
  if (!repaired.changed || repaired.call.name !== call.name || !isRecord(repaired.call.arguments)) return undefined;
  return { ruleId: 'recover.retry-repaired-args', category, steps: [{ name: call.name, arguments: repaired.call.arguments, role: 'retry' }], resultFrom: 'last-step' };
}

/** A recovery plan for an error result, or undefined. Never throws. */
export function planRecovery(call: ToolCall, result: ToolResultLike, env: Environment, options: RecoveryOptions = {}): RecoveryPlan | undefined {
  try {
    return planUnsafe(call, result, env, options ?? {});
  } catch {
    return undefined;
  }
}
