/**
 * Hints for errors nobody healed (docs/architecture.md#one-tool-call-through-dsh, step 3): one short actionable sentence that names
 * every missing field at once and the exact correct form. `appendHint` keeps the host's text
 * byte-identical as a prefix, so nothing the model or a log relies on is lost. What a hint reads from the host's text
 * (missing fields, line counts, binding names) it reads with the shapes of DSH's error vocabulary (dsh-profile).
 */
import {
  CODE_RUN_PREFIX,
  hasShape,
  matchAllShape,
  matchShape,
  READ_THEN_RETRY_MARK,
} from '@dsh-tool-normalizer/dsh-profile';
import { healProgram, parseProgram } from './healer.js';
import { decodeArguments } from './decode-arguments.js';
import { classifyResult } from './classify.js';
import { repairArguments } from './normalize.js';
import { resolveToggles } from './toggles.js';
import { resolveInside } from './rules/editor.js';
import { type InnerFill, planInnerFills } from './rules/inner-calls.js';
import { dispatchProgram } from './rules/run-code.js';
import { describeCall } from './text.js';
import { findTool, RUN_CODE, requiredKeys, toolNames } from './tools.js';
import { toolNameCandidates } from './tool-names.js';
import { repairedRetry, STALE_UNREAD_HINT } from './recovery.js';
import type { Classification, Diagnostic, Environment, NormalizeResult, ToolCall, ToolResultLike } from './types.js';

/** Longest ready-to-paste call a hint will carry. */
const MAX_EXAMPLE = 2000;

const SEPARATOR = '\n';

/** `original` followed by the hint on its own line; `original` stays a byte-identical prefix. Idempotent. */
export function appendHint(originalMessage: string, hint: string): string {
  const original = typeof originalMessage === 'string' ? originalMessage : String(originalMessage);
  if (typeof hint !== 'string' || hint.trim() === '' || original.endsWith(SEPARATOR + hint)) return original;
  return original + SEPARATOR + hint;
}

function json(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value);
    return text !== undefined && text.length <= MAX_EXAMPLE ? text : undefined;
  } catch {
    return undefined;
  }
}

function missingFields(message: string): string[] {
  return matchAllShape('missing-required-property', message).map((match) => match[1] as string);
}

/** What a failed program's text says after `code run failed (exception): ` (the whole text when it has no prefix). */
function programDetail(message: string): string {
  return message.startsWith(CODE_RUN_PREFIX) ? message.slice(CODE_RUN_PREFIX.length) : message;
}

function quoteList(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}

function invalidArgsHint(
  call: ToolCall,
  message: string,
  env: Environment,
  normalized: NormalizeResult | undefined,
): string | undefined {
  const missing = missingFields(message);
  // The example is made with every rule on (the default switches), whatever the caller's switches are.
  const repaired = normalized ?? repairedRetry(call, env);
  const example = repaired.changed ? json(repaired.call.arguments) : undefined;
  if (hasShape('invalid-description', message)) {
    return `Hint: "description" must be a short non-empty summary (5-10 words)${example ? `, e.g. ${call.name} ${example}` : ''}.`;
  }
  if (missing.length === 0) return undefined;
  if (example)
    return `Hint: resend with every required field (${quoteList(missing)}) in one call, e.g. ${call.name} ${example}.`;
  const tool = findTool(env, call.name);
  const required = tool ? requiredKeys(tool) : missing;
  return `Hint: add ${quoteList(missing)} and resend; ${call.name} requires ${quoteList(required)}.`;
}

function directCallHint(call: ToolCall, env: Environment): string | undefined {
  const decoded = decodeArguments(call.arguments);
  let args = decoded.ok ? decoded.value : {};
  const tool = findTool(env, call.name);
  let missing: string[] = [];
  if (tool) {
    const repaired = repairArguments(tool, args, env, resolveToggles(undefined));
    if (repaired.ok) args = repaired.args;
    else missing = requiredKeys(tool).filter((key) => !Object.hasOwn(args, key));
  }
  const also = missing.length > 0 ? ` (and add ${quoteList(missing)} to the ${call.name} arguments)` : '';
  const reissue = json({ code: dispatchProgram(call.name, args), description: describeCall(call.name, args) });
  if (!reissue)
    return `Hint: call it inside a run_code program: run_code {"code":"return await tools[${JSON.stringify(JSON.stringify(call.name)).slice(1, -1)}]({...your arguments...});","description":"..."}${also}.`;
  return `Hint: resend it as run_code ${reissue}${also}`;
}

function unknownToolHint(call: ToolCall, env: Environment): string | undefined {
  if (call.name.length > 200) return undefined;
  if (call.name === RUN_CODE && !findTool(env, RUN_CODE))
    return 'Hint: run_code is not available here; call the tools directly.';
  const candidates = toolNameCandidates(call.name, env);
  if (candidates.length > 0) return `Hint: there is no tool "${call.name}"; did you mean ${candidates.join(' or ')}?`;
  const names = toolNames(env).filter((name) => name !== RUN_CODE);
  if (names.length === 0) return undefined;
  const inside = env.mode === 'code' ? ' (inside run_code)' : '';
  return `Hint: there is no tool "${call.name}"; available tools${inside}: ${names.slice(0, 40).join(', ')}.`;
}

function programOf(call: ToolCall): string | undefined {
  const decoded = decodeArguments(call.arguments);
  return decoded.ok && typeof decoded.value.code === 'string' ? decoded.value.code : undefined;
}

function syntaxHint(call: ToolCall, message: string, diagnostic: Diagnostic | undefined): string {
  const program = programOf(call);
  const where = diagnostic ?? (program === undefined ? undefined : healProgram(program).diagnostic);
  if (where?.kind === 'truncated' && where.line !== undefined) {
    const at = `line ${where.line}${where.column !== undefined ? `, column ${where.column}` : ''}`;
    return `Hint: nothing ran: your program looks cut off at ${at}, likely by the output limit; split the work into several smaller run_code calls instead of resending the same long program.`;
  }
  if (hasShape('program-markdown-fence', programDetail(message))) {
    // Only a program that OPENS with the fence failed before its first statement; code above a fence ran.
    if (program === undefined || /^\s*(?:```|~~~)/.test(program))
      return 'Hint: nothing useful ran: "code" must be the program text only, without a Markdown ``` fence.';
    return 'Hint: the program stopped at a Markdown ``` fence (its backticks read as a tagged template call); the statements above it already ran. Send only program text, without fences.';
  }
  if (hasShape('program-ts-enum', message))
    return 'Hint: nothing ran: only erasable TypeScript is allowed; replace the enum with a const object.';
  if (where) {
    const at =
      where.line !== undefined && !where.message.includes(`line ${where.line}`)
        ? ` (line ${where.line}${where.column !== undefined ? `, column ${where.column}` : ''})`
        : '';
    return `Hint: ${where.message}${at}`;
  }
  return 'Hint: nothing ran: the program does not compile; send plain JavaScript or erasable TypeScript (no fences, no Python syntax).';
}

/** What the model should add to the call: the spliced property, or `key: value` where a blank value is replaced. */
function fillText(fill: InnerFill): string {
  const text = fill.edit.start === fill.edit.end ? fill.edit.text : `${fill.keys.join(', ')}: ${fill.edit.text}`;
  return text.replace(/^[ ,]+|\s+$/g, '');
}

function innerArgsHint(call: ToolCall, message: string, env: Environment): string {
  if (hasShape('inner-lossy-args', programDetail(message))) {
    return 'Hint: pass exactly one plain JSON object to every tools.* call (no undefined values, functions, or missing argument).';
  }
  const missing = missingFields(message);
  const program = programOf(call);
  const parsed = program === undefined ? undefined : parseProgram(program);
  const where = parsed ? planInnerFills(parsed, env).find((fill) => fill.kind === 'fill') : undefined;
  const fields = missing.length > 0 ? quoteList(missing) : 'every required field';
  if (where)
    return `Hint: tools.${where.tool} at line ${where.line} is missing ${fields}; add ${fillText(where)} to that call and resend.`;
  return `Hint: a tools.* call in your program is missing ${fields}; add ${missing.length > 1 ? 'them' : 'it'} to that call's object and resend.`;
}

function innerBindingHint(message: string, env: Environment): string | undefined {
  const detail = programDetail(message);
  const access = (matchShape('inner-unknown-binding', detail) ?? matchShape('inner-missing-binding-ptc', detail))?.[1];
  // `.name`, or `["name"]` / `['name']` / `[name]`: the name without the brackets and quotes.
  const missing = access?.startsWith('.') ? access.slice(1) : access?.slice(1, -1).replace(/^["'`]|["'`]$/g, '');
  if (!missing || missing.length > 200) return undefined;
  const candidates = toolNameCandidates(missing, env);
  if (candidates.length > 0)
    return `Hint: tools.${missing} does not exist; use ${candidates.map((candidate) => `tools.${candidate}`).join(' or ')}.`;
  const names = toolNames(env).filter((tool) => tool !== RUN_CODE);
  return `Hint: tools.${missing} does not exist; available: ${names.slice(0, 40).join(', ')}.`;
}

function editorPathHint(call: ToolCall, env: Environment): string | undefined {
  const decoded = decodeArguments(call.arguments);
  const path = decoded.ok && typeof decoded.value.path === 'string' ? decoded.value.path : undefined;
  if (path === undefined || path.length > 4096) return undefined;
  const resolved = env.cwd ? resolveInside(env.cwd, path) : undefined;
  if (resolved)
    return `Hint: use the absolute path ${resolved} (the workspace is ${env.cwd}; /${path.replace(/^\.\//, '')} would be at the filesystem root).`;
  if (env.cwd)
    return `Hint: use an absolute path inside the workspace ${env.cwd}; "${path}" leaves it or cannot be resolved.`;
  return 'Hint: use an absolute path that starts with the workspace directory, not the filesystem root.';
}

/** An inner write/edit of an unread file: the program already ran up to that call, so resending it whole repeats that. */
function innerNotObservedHint(message: string): string {
  const path = /"([^"]{1,4096})"/.exec(message)?.[1];
  const read = path === undefined ? 'tools.read({ file_path })' : `tools.read(${JSON.stringify({ file_path: path })})`;
  return `Hint: call ${read} in the program before changing that file; the statements before the failing call already ran.`;
}

function editorRangeHint(message: string): string {
  const count = (matchShape('editor-range-start', message) ?? matchShape('editor-range-end', message))?.[1];
  if (count)
    return `Hint: the file has ${count} lines as the editor counts them; use a view_range within [1, ${count}], or [start, -1] to read to the end.`;
  return 'Hint: view_range must be two integers [start, end] with 1 <= start <= end, or [start, -1] to read to the end.';
}

/**
 * One actionable sentence for an error result, or undefined when the host's own text already says what to
 * do (or the result is not an error). `classification` is `classifyResult(call, result)` when the caller already
 * has it (a failed call is classified once); `normalized` is `repairedRetry(call, env)` with the default switches
 * when the caller already has it (a failed call is normalized once). Never throws.
 */
export function hintFor(
  call: ToolCall,
  result: ToolResultLike,
  env: Environment,
  diagnostic?: Diagnostic,
  classification?: Classification,
  normalized?: NormalizeResult,
): string | undefined {
  try {
    if (!result?.isError || typeof call?.name !== 'string' || !env || !Array.isArray(env.tools)) return undefined;
    const message = typeof result.error?.message === 'string' ? result.error.message : '';
    const { category } = classification ?? classifyResult(call, result);
    switch (category) {
      case 'invalid-args':
        return invalidArgsHint(call, message, env, normalized);
      case 'code-mode-direct-call':
        return directCallHint(call, env);
      case 'unknown-tool':
        return unknownToolHint(call, env);
      case 'code-syntax':
        return syntaxHint(call, message, diagnostic);
      case 'inner-invalid-args':
        return innerArgsHint(call, message, env);
      case 'inner-unknown-binding':
        return innerBindingHint(message, env);
      case 'fs-not-observed':
        if (call.name === RUN_CODE) return innerNotObservedHint(message);
        return message.includes(READ_THEN_RETRY_MARK)
          ? undefined
          : `Hint: read ${/"([^"]+)"/.exec(message)?.[1] ?? 'the file'} first, then resend the same call.`;
      case 'fs-stale-version':
        // hintFor runs when no recovery refreshed the file: do not claim it was re-read.
        return STALE_UNREAD_HINT;
      case 'editor-path':
        return editorPathHint(call, env);
      case 'editor-range':
        return editorRangeHint(message);
      case 'read-range': {
        const lines = matchShape('read-range', message)?.[1];
        return lines ? `Hint: the file has ${lines} lines; use an offset from 1 to ${lines}.` : undefined;
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
