/**
 * What the model is told about an error nobody healed: the host's own text (store-path stack frames trimmed), then,
 * for a refused `write`, the file's current content as `read` showed it, then one hint (escalated when the same call
 * failed identically before in this session). With `errorHints` off only trimmed frames can differ from the host's
 * text (nothing when `trimStackTraces` is off too). The result keeps the host's structured error (`info` with its `code`
 * and `name`, and any other field the host set), its `meta` and its extra contexts: only the message and the text
 * block that carries it grow. DSH re-wraps an error result returned from `tools/execute` as it is, so this is the
 * seam that keeps the host's record whole (a post-execute `block` would rebuild the error from text and drop them).
 */
import {
  appendHint,
  classifyResult,
  failureFingerprint,
  hintFor,
  repeatHint,
  trimStackTrace,
} from '@dsh-tool-normalizer/core-rules';
import type { Classification, Environment, NormalizeResult, ToolCall } from '@dsh-tool-normalizer/core-rules';
import { ERROR_TEXT_PREFIX } from '@dsh-tool-normalizer/dsh-profile';
import type { ContentBlock, ToolDispatchExecution, ToolExecution, ToolExecutionResult } from './host.js';
import type { PluginState } from './plugin-state.js';

/** Longest file excerpt a refused `write` shows the model (the read itself is bounded to 200 lines). */
export const MAX_SHOWN_FILE_CHARS = 12_000;

/** How a hint starts inside an error message (a sub-call's hint travels inside its program's error). */
const INNER_HINT = '\nHint: ';

/** What a recovery contributed to the explanation. */
export interface Explanation {
  /** The plan's own hint (it replaces the engine's generic one). */
  hint?: string;
  /** Text shown between the error and the hint (a refused `write`: the file as `read` rendered it). */
  shown?: string;
  /** The execution's environment, when the caller already read it (it is not read twice). */
  environment?: Environment;
  /** `classifyResult` of the result being explained, when the caller already made it (it is not made twice). */
  classification?: Classification;
  /**
   * `repairedRetry(call, environment)` with the default switches (the invalid-arguments hint's question), when the
   * caller already made it (the call is not normalized twice).
   */
  normalized?: NormalizeResult;
}

/** The text blocks of a result, joined (what the model reads). */
export function textOf(content: readonly ContentBlock[] | undefined): string {
  if (!Array.isArray(content)) return '';
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** `text` cut to `MAX_SHOWN_FILE_CHARS` at a line end, saying so. */
export function boundShownText(text: string): string {
  if (text.length <= MAX_SHOWN_FILE_CHARS) return text;
  const cut = text.lastIndexOf('\n', MAX_SHOWN_FILE_CHARS);
  const kept = text.slice(0, cut > 0 ? cut : MAX_SHOWN_FILE_CHARS);
  return `${kept}\n(... ${text.length - kept.length} more characters not shown; read the file to see them)`;
}

/**
 * The message the model should see for an error result (the host's own when there is nothing to add), or undefined
 * for a success, with the result's classification (made here once when the caller has none; the fingerprint and
 * both hints read it). Counts the failure for loop detection (top-level calls only: a sub-call's failure reaches the
 * model through its program, whose own failure is counted).
 */
export function explainedMessage(
  state: PluginState,
  exec: ToolExecution | ToolDispatchExecution,
  result: ToolExecutionResult,
  extra: Explanation = {},
): { message: string; repeat?: number; classification: Classification } | undefined {
  if (!result.isError) return undefined;
  const { config } = state;
  const call: ToolCall = { name: exec.name, arguments: exec.arguments };
  const classification = extra.classification ?? classifyResult(call, result);
  const original = result.error.message;
  let message = config.trimStackTraces ? trimStackTrace(original) : original;
  // The file a refused write shows belongs to its hint: without hints the host's text stays exactly the host's.
  if (config.errorHints && extra.shown !== undefined && extra.shown !== '') message = `${message}\n${extra.shown}`;
  let repeat: number | undefined;
  // The repeat hint is a hint: with errorHints off nothing is counted, so no repeat is reported as caught.
  if (config.breakLoops && config.errorHints && exec.parent === undefined) {
    const fingerprint = failureFingerprint(call, result, classification);
    if (fingerprint !== undefined) repeat = state.countFailure(exec.agent?.id ?? '(no session)', fingerprint);
  }
  // A program that failed on a sub-call's error already carries the hint written for that sub-call: one hint only.
  if (config.errorHints && !original.includes(INNER_HINT)) {
    let hint = extra.hint ?? engineHint(state, exec, call, result, classification, extra);
    if (repeat !== undefined && repeat >= 2) hint = repeatHint(call, result, repeat, hint, classification) ?? hint;
    if (hint !== undefined) message = appendHint(message, hint);
  }
  return repeat === undefined ? { message, classification } : { message, repeat, classification };
}

function engineHint(
  state: PluginState,
  exec: ToolExecution | ToolDispatchExecution,
  call: ToolCall,
  result: ToolExecutionResult,
  classification: Classification,
  { environment, normalized }: Explanation,
): string | undefined {
  const diagnostic = exec.parent === undefined ? state.streamDiagnostic(String(exec.callId)) : undefined;
  const env = environment ?? state.environment.forExecution(exec);
  return hintFor(call, result, env, diagnostic, classification, normalized);
}

/**
 * `result` with its message replaced by `message`: the same `error` object otherwise (info, code, name, any other
 * field), the same `meta` and extra contexts. The text block that carries the host's `Error: <message>` is
 * replaced; when the host wrote the text another way, the added part is appended as its own block.
 */
export function withMessage(
  result: Extract<ToolExecutionResult, { isError: true }>,
  message: string,
): ToolExecutionResult {
  const original = result.error.message;
  const added = message.startsWith(original) ? message.slice(original.length).replace(/^\n/, '') : message;
  const content = Array.isArray(result.content) ? result.content : [];
  let replaced = false;
  const next: ContentBlock[] = content.map((block) => {
    if (replaced || block.type !== 'text') return block;
    if (block.text === `${ERROR_TEXT_PREFIX}${original}`) {
      replaced = true;
      return { ...block, text: `${ERROR_TEXT_PREFIX}${message}` };
    }
    if (block.text === original) {
      replaced = true;
      return { ...block, text: message };
    }
    return block;
  });
  if (!replaced && added !== '') next.push({ type: 'text', text: added });
  return {
    isError: true,
    error: { ...result.error, message },
    content: next,
    ...(result.meta === undefined ? {} : { meta: result.meta }),
    ...(result.additionalContexts === undefined ? {} : { additionalContexts: result.additionalContexts }),
  } as ToolExecutionResult;
}
