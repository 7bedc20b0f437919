/**
 * Loops: models resend a call that failed, unchanged, and get the same error again. `failureFingerprint` names one
 * failure (same tool, same arguments in canonical form, same error code) so a harness can count identical failures
 * per session in bounded memory (a short hash, never the arguments themselves); it is the one definition of
 * "identical failure", used by the plugin's loop counter and the session analyzer's repeated-failures table alike
 * (`callIdentity` is its tool-and-arguments part). `repeatHint` escalates the hint:
 * the second identical failure is told it is the second and what must change (read from the error: the missing
 * field, the anchor that is not in the file, the path that does not exist); from the third on the model is told to
 * change approach or ask the user instead of retrying. Pure and never throws.
 */
import { CODE_RUN_PREFIX, hasShape, matchAllShape, TOOL_CALL_ERROR_PREFIX } from '@dsh-tool-normalizer/dsh-profile';
import { classifyResult } from './classify.js';
import { decodeArguments } from './decode-arguments.js';
import type { Classification, ToolCall, ToolResultLike } from './types.js';

/** From this count on the hint stops suggesting a fix and tells the model to stop retrying. */
export const STOP_RETRYING_AT = 3;

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same call. Undefined for non-JSON values. */
function canonicalJson(value: unknown, depth = 0): string | undefined {
  if (depth > 64) return undefined;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : undefined;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) {
      const text = canonicalJson(item, depth + 1);
      if (text === undefined) return undefined;
      items.push(text);
    }
    return `[${items.join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const text = canonicalJson((value as Record<string, unknown>)[key], depth + 1);
      if (text === undefined) return undefined;
      entries.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${entries.join(',')}}`;
  }
  return undefined;
}

/** A 53-bit string hash (cyrb53), as 14 hex digits: the fingerprint must not hold a 10 MB `write` body. */
function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ char, 2654435761);
    h2 = Math.imul(h2 ^ char, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * `tool \0 hash(canonical arguments)`: the same call whatever its key order (a string that is not JSON is hashed as
 * it is), or undefined for a call without a name or with arguments that are not JSON. Never throws.
 */
export function callIdentity(call: ToolCall): string | undefined {
  try {
    if (typeof call?.name !== 'string') return undefined;
    const decoded = decodeArguments(call.arguments);
    const args = decoded.ok
      ? canonicalJson(decoded.value)
      : typeof call.arguments === 'string'
        ? JSON.stringify(call.arguments)
        : undefined;
    return args === undefined ? undefined : `${call.name}\u0000${hash53(args)}`;
  } catch {
    return undefined;
  }
}

/**
 * `tool \0 hash(canonical arguments) \0 error code` for an error result (the category when the host set no code),
 * or undefined for a success, a cancellation or arguments that are not JSON. `classification` is
 * `classifyResult(call, result)` when the caller already has it (a failed call is classified once). Never throws.
 */
export function failureFingerprint(
  call: ToolCall,
  result: ToolResultLike,
  classification?: Classification,
): string | undefined {
  try {
    if (!result?.isError || typeof call?.name !== 'string') return undefined;
    const { category, code } = classification ?? classifyResult(call, result);
    if (category === 'aborted') return undefined;
    const identity = callIdentity(call);
    return identity === undefined ? undefined : `${identity}\u0000${code ?? category}`;
  } catch {
    return undefined;
  }
}

function ordinal(count: number): string {
  const tens = count % 100;
  if (tens >= 11 && tens <= 13) return `${count}th`;
  return `${count}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[count % 10] ?? 'th'}`;
}

function quoted(message: string): string | undefined {
  const path = /"([^"]{1,1000})"/.exec(message)?.[1];
  return path === undefined ? undefined : `"${path}"`;
}

/** What must change before this call can succeed, read from the error text; undefined when the error does not say. */
function whatMustChange(call: ToolCall, message: string, category: string): string | undefined {
  const missing = matchAllShape('missing-required-property', message)
    .map((match) => match[1] as string)
    .filter((name) => name.length <= 200)
    .map((name) => `"${name}"`);
  if (missing.length > 0) return `the arguments must include ${missing.join(', ')}`;
  const file = quoted(message) ?? 'the file';
  if (category === 'fs-edit-anchor') {
    // A sub-call's anchor failure reaches its program as `code run failed (exception): ToolCallError: <text>`.
    const detail = message.startsWith(CODE_RUN_PREFIX) ? message.slice(CODE_RUN_PREFIX.length) : message;
    const cause = detail.startsWith(TOOL_CALL_ERROR_PREFIX) ? detail.slice(TOOL_CALL_ERROR_PREFIX.length) : detail;
    if (hasShape('fs-ambiguous-edit', cause) || hasShape('editor-ambiguous', cause)) {
      return `the text to replace matches several places in ${file}: include enough surrounding lines to match exactly one, or set replace_all`;
    }
    return `the text to replace is not in ${file}: read the file and copy the exact current text into ${call.name === 'str_replace_editor' ? 'old_str' : 'old_string'}`;
  }
  // Not-found texts of any tool (DSH's fs and editor, a shell's `No such file`), not one DSH shape: read loosely.
  if (/: not found$|not found\b.*"|does not exist|no such file/i.test(message))
    return `the path ${file} does not exist: find the right path first (glob, or ls through bash)`;
  if (category === 'read-range') return 'the offset must be inside the file';
  if (category === 'editor-range') return 'the view_range must be inside the file';
  if (category === 'editor-path') return 'the path must be absolute';
  if (category === 'unknown-tool' || category === 'inner-unknown-binding')
    return `"${call.name.slice(0, 200)}" is not a tool here: use one of the available tools`;
  if (category === 'code-syntax')
    return 'the program must compile: fix it (or split it into smaller run_code calls) instead of resending it';
  return undefined;
}

/**
 * The hint for the `count`-th identical failure of a call (count >= 2); `baseHint` is the hint the error would get
 * on its own, used when the error text does not say what must change. Undefined below 2. Never throws.
 */
export function repeatHint(
  call: ToolCall,
  result: ToolResultLike,
  count: number,
  baseHint?: string,
  classification?: Classification,
): string | undefined {
  try {
    if (!Number.isInteger(count) || count < 2 || !result?.isError || typeof call?.name !== 'string') return undefined;
    const nth = `this is the ${ordinal(count)} identical failure of this ${call.name.slice(0, 200)} call (same arguments, same error)`;
    if (count >= STOP_RETRYING_AT) {
      return `Hint: ${nth}. Stop retrying it: change approach (different arguments, another tool, or read what is there first) or ask the user.`;
    }
    const message = typeof result.error?.message === 'string' ? result.error.message : '';
    const { category } = classification ?? classifyResult(call, result);
    const change = whatMustChange(call, message, category);
    if (change !== undefined) return `Hint: ${nth}; sending it again unchanged will fail again: ${change}.`;
    const base = typeof baseHint === 'string' ? baseHint.replace(/^Hint:\s*/, '') : '';
    if (base !== '') return `Hint: ${nth}; sending it again unchanged will fail again. ${base}`;
    return `Hint: ${nth}; sending it again unchanged will fail again: change the arguments, or the approach.`;
  } catch {
    return undefined;
  }
}
