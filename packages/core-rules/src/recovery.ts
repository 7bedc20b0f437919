/**
 * `planRecovery`: what to run after an error result, as a small serialisable plan of nested calls. Only
 * side-effect-safe recoveries: an `edit`/`str_replace_editor` `str_replace` refused with FS_NOT_OBSERVED reads the
 * file then retries once (its anchor proves the model knew the content); a `write` or `str_replace_editor`
 * `insert`/`create` refused the same way only reads the file and shows it to the model (a retry would write into
 * content the model never saw); FS_STALE_VERSION only
 * re-reads (someone else changed the file: re-applying would clobber it); a view_range past the end is retried
 * clamped to the line count the error reports; an unknown name with exactly one fitting target is retried as
 * that tool; a call the host rejected for its arguments (nothing ran) is retried once with the repaired
 * arguments. Anchor failures are never retried; nothing is planned for a cancelled call or for a result a plan
 * produced. The file a plan reads is the one the call's own arguments name, resolved against the session cwd.
 */
import { CODE_RUN_FAILED_PREFIX, matchShape } from '@dsh-tool-normalizer/dsh-profile';
import { tooLarge } from './bounds.js';
import { decodeArguments } from './decode-arguments.js';
import { classifyResult } from './classify.js';
import { normalizeCall } from './normalize.js';
import { resolveToggles } from './toggles.js';
import { resolveInside } from './rules/editor.js';
import { findTool, isRecord, RUN_CODE } from './tools.js';
import { resolveToolAlias } from './tool-names.js';
import type {
  CategoryId,
  Classification,
  Environment,
  NormalizeResult,
  PlannedCall,
  RecoveryPlan,
  RuleToggles,
  ToolCall,
  ToolResultLike,
} from './types.js';

/**
 * Calls whose FS_NOT_OBSERVED is read-then-retried: the anchor they carry (`old_string`, `old_str`) proves the model
 * knew the content. `str_replace_editor`'s `insert` has no anchor (it would land at a line of a file the model never
 * saw) and `create` replaces the file: those are handled like `write`.
 */
function isAnchoredFileCall(name: string, args: Record<string, unknown>): boolean {
  return name === 'edit' || (name === 'str_replace_editor' && args.command === 'str_replace');
}

/** Calls whose FS_NOT_OBSERVED only reads and shows the file: they would write without proof the model saw it. */
function isUnanchoredWrite(name: string, args: Record<string, unknown>): boolean {
  return (
    name === 'write' || (name === 'str_replace_editor' && (args.command === 'insert' || args.command === 'create'))
  );
}

/** Lines of the file a refused `write` shows the model (the read tool's own window, bounded). */
export const WRITE_OBSERVE_LINES = 200;

/** Plans whose observe step's content is shown to the model with the original error (a refused `write`). */
const SHOWS_OBSERVED_CONTENT = new Set<string>(['recover.observe-before-write']);

/** True when the adapter answers with the original error, the observe step's content and the plan's hint. */
export function showsObservedContent(plan: RecoveryPlan): boolean {
  return SHOWS_OBSERVED_CONTENT.has(plan.ruleId);
}

export const WRITE_SEEN_HINT =
  "Hint: nothing was written; you have now seen the file's current content (above); resend the write if you still mean to replace it.";

/** The same for a refused `str_replace_editor` `insert`/`create`. */
export const EDITOR_WRITE_SEEN_HINT =
  "Hint: nothing was written; you have now seen the file's current content (above); resend the call if it still fits that content.";

export interface RecoveryOptions {
  toggles?: Partial<RuleToggles>;
  aborted?: boolean;
  fromPlan?: boolean;
  /** `classifyResult(call, result)` when the caller already has it (a failed call is classified once). */
  classification?: Classification;
  /**
   * `repairedRetry(call, env, toggles)` (these options' switches) when the caller already has it (a failed call is
   * normalized once: the invalid-arguments hint reads the same answer).
   */
  normalized?: NormalizeResult;
}

/**
 * The call repaired as a retry (or a hint's ready-to-paste example) would send it: `normalizeCall` as a nested call,
 * so a Code-Mode direct call is not bridged into run_code again. One question, asked once per failed call.
 */
export function repairedRetry(call: ToolCall, env: Environment, toggles?: Partial<RuleToggles>): NormalizeResult {
  return normalizeCall(call, { ...env, nested: true }, toggles);
}

/** `path` with `.` and empty segments removed, when it is absolute and has no `..`; else undefined. */
function plainAbsolute(path: string): string | undefined {
  if (!path.startsWith('/') || path.includes('\0')) return undefined;
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  return parts.includes('..') ? undefined : `/${parts.join('/')}`;
}

/**
 * The file the call itself names (`file_path`, else `path`), made absolute against the session cwd. A path quoted
 * in the error text is used only when it is that same file: for an absolute argument it must be equal, for a
 * relative one without a known cwd it must end with the relative path.
 */
export function targetPath(
  message: string,
  args: Record<string, unknown>,
  cwd: string | undefined,
): string | undefined {
  const fromArgs =
    typeof args.file_path === 'string' ? args.file_path : typeof args.path === 'string' ? args.path : undefined;
  if (fromArgs === undefined || fromArgs.trim() === '' || fromArgs.length > 4096) return undefined;
  const quoted = /"([^"]+)"/.exec(message)?.[1];
  if (fromArgs.startsWith('/')) {
    const resolved = plainAbsolute(fromArgs);
    return resolved !== undefined && (quoted === undefined || plainAbsolute(quoted) === resolved)
      ? resolved
      : undefined;
  }
  if (cwd !== undefined) {
    const resolved = resolveInside(cwd, fromArgs);
    return resolved !== undefined && (quoted === undefined || plainAbsolute(quoted) === resolved)
      ? resolved
      : undefined;
  }
  const relative = fromArgs.replace(/^(\.\/)+/, '');
  const fromMessage = quoted === undefined ? undefined : plainAbsolute(quoted);
  return fromMessage !== undefined &&
    relative !== '' &&
    !relative.includes('..') &&
    fromMessage.endsWith(`/${relative}`)
    ? fromMessage
    : undefined;
}

/** A read of `path` with a tool the agent can see: `read` (at most `limit` lines when given), else the editor's `view`. */
function observeStep(path: string, env: Environment, limit?: number): PlannedCall | undefined {
  if (findTool(env, 'read'))
    return {
      name: 'read',
      arguments: limit === undefined ? { file_path: path } : { file_path: path, limit },
      role: 'observe',
    };
  if (findTool(env, 'str_replace_editor'))
    return { name: 'str_replace_editor', arguments: { command: 'view', path }, role: 'observe' };
  return undefined;
}

/** The line count a view_range error reports (the editor counts `split("\n")`). */
function reportedLineCount(message: string): number | undefined {
  const match = matchShape('editor-range-start', message) ?? matchShape('editor-range-end', message);
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

export const STALE_HINT =
  'Hint: the file changed on disk after you read it; it has been re-read now, so read it again and apply your change to its current content instead of resending the old edit.';

/** The stale-file hint when nothing was re-read (an unanchored write, or autoObserveFiles off). */
export const STALE_UNREAD_HINT =
  'Hint: the file changed on disk after you read it; read it again and apply your change to its current content instead of resending the old call.';

function planUnsafe(
  call: ToolCall,
  result: ToolResultLike,
  env: Environment,
  options: RecoveryOptions,
): RecoveryPlan | undefined {
  if (options.aborted || options.fromPlan || !result?.isError) return undefined;
  if (typeof call?.name !== 'string' || !env || !Array.isArray(env.tools)) return undefined;
  const toggles = resolveToggles(options.toggles);
  const { category } = options.classification ?? classifyResult(call, result);
  const message = typeof result.error?.message === 'string' ? result.error.message : '';
  // A program that failed (even when its inner call's cause names the category) may have run: never re-run it.
  if (call.name === RUN_CODE && message.startsWith(CODE_RUN_FAILED_PREFIX)) return undefined;
  const decoded = decodeArguments(call.arguments);
  const args = decoded.ok ? decoded.value : undefined;

  switch (category) {
    case 'fs-not-observed': {
      if (!toggles.autoObserveFiles || !args) return undefined;
      const path = targetPath(message, args, env.cwd);
      if (path === undefined) return undefined;
      if (isUnanchoredWrite(call.name, args)) {
        const observe = observeStep(path, env, WRITE_OBSERVE_LINES);
        if (!observe) return undefined;
        const hint = call.name === 'write' ? WRITE_SEEN_HINT : EDITOR_WRITE_SEEN_HINT;
        return { ruleId: 'recover.observe-before-write', category, steps: [observe], resultFrom: 'original', hint };
      }
      if (!isAnchoredFileCall(call.name, args)) return undefined;
      const observe = observeStep(path, env);
      if (!observe) return undefined;
      return {
        ruleId: 'recover.observe-then-retry',
        category,
        steps: [observe, { name: call.name, arguments: args, role: 'retry' }],
        resultFrom: 'last-step',
      };
    }
    case 'fs-stale-version': {
      // A write/insert/create carries no anchor: after a silent refresh, resending it blindly would overwrite content
      // the model has not seen. Only anchored edits get the refresh; the rest are told to read the file again.
      if (!toggles.autoObserveFiles || !args || isUnanchoredWrite(call.name, args)) return undefined;
      const path = targetPath(message, args, env.cwd);
      const observe = path ? observeStep(path, env) : undefined;
      if (!observe) return undefined;
      return { ruleId: 'recover.stale-refresh', category, steps: [observe], resultFrom: 'original', hint: STALE_HINT };
    }
    case 'editor-range': {
      if (!toggles.autoClampRanges || !args || call.name !== 'str_replace_editor' || !Array.isArray(args.view_range))
        return undefined;
      const lines = reportedLineCount(message);
      const clamped = lines === undefined ? undefined : clampViewRange(args.view_range as number[], lines);
      if (clamped) {
        return {
          ruleId: 'recover.view-range-clamp',
          category,
          steps: [{ name: call.name, arguments: { ...args, view_range: clamped }, role: 'retry' }],
          resultFrom: 'last-step',
        };
      }
      return retryRepaired(call, env, toggles, category, options.normalized);
    }
    case 'unknown-tool': {
      const alias = args ? resolveToolAlias(call, env, toggles) : undefined;
      if (!alias || !isRecord(alias.call.arguments)) return undefined;
      return {
        ruleId: 'recover.unknown-tool-alias',
        category,
        steps: [{ name: alias.call.name, arguments: alias.call.arguments, role: 'retry' }],
        resultFrom: 'last-step',
      };
    }
    case 'invalid-args':
    case 'editor-path':
      return retryRepaired(call, env, toggles, env.nested ? 'inner-invalid-args' : category, options.normalized);
    default:
      return undefined;
  }
}

/** The host rejected the arguments before anything ran: retry once with the repaired call, if one passes. */
function retryRepaired(
  call: ToolCall,
  env: Environment,
  toggles: RuleToggles,
  category: CategoryId,
  normalized: NormalizeResult | undefined,
): RecoveryPlan | undefined {
  const repaired = normalized ?? repairedRetry(call, env, toggles);
  if (!repaired.changed || repaired.call.name !== call.name || !isRecord(repaired.call.arguments)) return undefined;
  return {
    ruleId: 'recover.retry-repaired-args',
    category,
    steps: [{ name: call.name, arguments: repaired.call.arguments, role: 'retry' }],
    resultFrom: 'last-step',
  };
}

/** A recovery plan for an error result, or undefined. Never throws. */
export function planRecovery(
  call: ToolCall,
  result: ToolResultLike,
  env: Environment,
  options: RecoveryOptions = {},
): RecoveryPlan | undefined {
  try {
    if (tooLarge('calls', [call?.arguments, result?.error?.message])) return undefined;
    return planUnsafe(call, result, env, options ?? {});
  } catch {
    return undefined;
  }
}
