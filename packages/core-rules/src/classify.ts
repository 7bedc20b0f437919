/**
 * `classifyResult`, which maps a host result to one of the catalogue's stable result categories (the
 * dashboard and the analyzer group by these ids) from its error code and, for the host's plain `Error`s that carry no
 * code (editor path and range errors, blank description), from its exact message text.
 */
import { compilesLikeHost } from './healer.js';
import { type CategoryId, categoryCatalogue } from './catalogue.js';
import { decodeArguments } from './decode-arguments.js';
import type { CategoryInfo, Classification, ToolCall, ToolResultLike } from './types.js';

/** The result categories, in dashboard order: the catalogue's rows (kept under this name for existing importers). */
export const categories: readonly CategoryInfo[] = categoryCatalogue;

const knownCategories = new Set<CategoryId>(
  categoryCatalogue.filter((category) => category.known).map((category) => category.id),
);

const CODE_RUN_PREFIX = 'code run failed (exception): ';

/**
 * True when the call's program compiles like the host compiles it, so it RAN before failing. A program that
 * throws `new SyntaxError(...)` (a failed `JSON.parse`) or a plain string looks like a compile failure from
 * the message alone; calling that "nothing ran" would invite the model to repeat side effects.
 */
function programRan(call: ToolCall | undefined): boolean {
  const decoded = decodeArguments(call?.arguments);
  const code = decoded.ok ? decoded.value.code : undefined;
  return typeof code === 'string' && compilesLikeHost(code).ok;
}

/**
 * The category of a failed Code-Mode sub-call, read from the message its program received (a `ToolCallError`
 * carries no code): the same categories its native twin gets from the host's code, else `inner-tool-error`.
 */
function innerCause(message: string): CategoryId {
  if (
    /^old_string was not found in "|^old_string matched \d+ times in "|^No replacement was performed[,.] (?:old_str|Multiple occurrences of old_str)/.test(
      message,
    )
  )
    return 'fs-edit-anchor';
  if (/^edit requires reading "|^cannot overwrite existing ".*" without reading it first/.test(message))
    return 'fs-not-observed';
  if (/^cannot edit ".*": file changed since it was read/.test(message)) return 'fs-stale-version';
  if (/^offset \d+ is out of range for "/.test(message)) return 'read-range';
  if (/^The path .* is not an absolute path, it should start with `\/`/s.test(message)) return 'editor-path';
  if (message.startsWith('Invalid `view_range`')) return 'editor-range';
  return 'inner-tool-error';
}

function classifyProgramFailure(message: string, call: ToolCall | undefined): CategoryId {
  if (!message.startsWith(CODE_RUN_PREFIX)) return 'code-runtime';
  const detail = message.slice(CODE_RUN_PREFIX.length);
  if (
    detail.startsWith('ToolCallError: invalid arguments') ||
    detail.startsWith('ToolCallError: binding arguments must be lossless JSON')
  )
    return 'inner-invalid-args';
  if (detail.startsWith('ToolCallError: ')) return innerCause(detail.slice('ToolCallError: '.length));
  if (/^TypeError: tools(\.[\w$]+|\[[^\]]*\]) is not a function/.test(detail)) return 'inner-unknown-binding';
  if (detail.startsWith('TypeError: "" is not a function')) return 'code-syntax';
  const firstLine = detail.split('\n', 1)[0] ?? '';
  // A SyntaxError, or a failure of the host-side type strip (no error name and no stack), means the program
  // never ran, unless the program itself compiles: then it ran and threw.
  const looksUncompiled =
    detail.startsWith('SyntaxError') ||
    (!/^[A-Za-z_$][\w$]*(Error|Exception)\b/.test(firstLine) && !detail.includes('\n    at '));
  if (looksUncompiled && !programRan(call)) return 'code-syntax';
  return 'code-runtime';
}

function categoryOfResult(call: ToolCall | undefined, result: ToolResultLike): CategoryId {
  if (!result.isError) return 'ok';
  const message = typeof result.error?.message === 'string' ? result.error.message : '';
  const code = result.error?.info?.code;
  switch (code) {
    case 'ABORTED':
    case 'ABORTED_BEFORE_DISPATCH':
      return 'aborted';
    case 'UNKNOWN_TOOL':
      return message.includes('only `run_code` is callable directly') ? 'code-mode-direct-call' : 'unknown-tool';
    case 'INVALID_ARGS':
      return 'invalid-args';
    case 'CODE_RUN_FAILED':
      return classifyProgramFailure(message, call);
    case 'FS_NOT_OBSERVED':
      return 'fs-not-observed';
    case 'FS_STALE_VERSION':
      return 'fs-stale-version';
    case 'FS_EDIT_NOT_FOUND':
    case 'FS_AMBIGUOUS_EDIT':
      return 'fs-edit-anchor';
    case 'FS_NOT_FOUND':
      if (/^offset \d+ is out of range for /.test(message)) return 'read-range';
      break;
  }
  if (message.startsWith('invalid description: ')) return 'invalid-args';
  if (/^The path .* is not an absolute path, it should start with `\/`/s.test(message)) return 'editor-path';
  if (message.startsWith('Invalid `view_range`')) return 'editor-range';
  if (call?.name === 'run_code' && message.startsWith('code run failed ('))
    return classifyProgramFailure(message, call);
  return 'other';
}

/** Puts a result into a stable category and says whether it is one of the known mechanical failure classes. Never throws. */
export function classifyResult(call: ToolCall, result: ToolResultLike): Classification {
  try {
    if (typeof result !== 'object' || result === null) return { category: 'other', known: false };
    const category = categoryOfResult(typeof call === 'object' && call !== null ? call : undefined, result);
    const code = result.isError ? result.error?.info?.code : undefined;
    return { category, ...(typeof code === 'string' ? { code } : {}), known: knownCategories.has(category) };
  } catch {
    return { category: 'other', known: false };
  }
}
