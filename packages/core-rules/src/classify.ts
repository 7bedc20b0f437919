/**
 * `classifyResult`, which maps a host result to one of the catalogue's stable result categories (the
 * dashboard and the analyzer group by these ids) from its error code and, for the host's plain `Error`s that carry no
 * code (editor path and range errors, blank description), from its message shape. Codes, prefixes and shapes are
 * DSH's error vocabulary (@dsh-tool-normalizer/dsh-profile), read from there, never written here.
 */
import {
  ABORT_CODES,
  CODE_RUN_FAILED_PREFIX,
  CODE_RUN_PREFIX,
  ERROR_CODES,
  hasShape,
  MESSAGE_SHAPES,
  type MessageShape,
  TOOL_CALL_ERROR_PREFIX,
} from '@dsh-tool-normalizer/dsh-profile';
import { compilesLikeHost } from './healer.js';
import { type CategoryId, categoryCatalogue } from './catalogue.js';
import { decodeArguments } from './decode-arguments.js';
import { RUN_CODE } from './tools.js';
import type { CategoryInfo, Classification, ToolCall, ToolResultLike } from './types.js';

/** The result categories, in dashboard order: the catalogue's rows (kept under this name for existing importers). */
export const categories: readonly CategoryInfo[] = categoryCatalogue;

const knownCategories = new Set<CategoryId>(
  categoryCatalogue.filter((category) => category.known).map((category) => category.id),
);

/** Shapes of host texts that carry no code of their own (a plain Error): settled by the text alone. */
const CODELESS_SHAPES = MESSAGE_SHAPES.filter((shape) => shape.where === 'result' && shape.code === undefined);

/** The categories a Code-Mode sub-call's error gets from its text, as its native twin gets them from the host's code. */
const INNER_CAUSE_CATEGORIES = new Set<string>([
  'fs-edit-anchor',
  'fs-not-observed',
  'fs-stale-version',
  'read-range',
  'editor-path',
  'editor-range',
]);
const INNER_CAUSE_SHAPES = MESSAGE_SHAPES.filter(
  (shape) => shape.where === 'result' && INNER_CAUSE_CATEGORIES.has(shape.category),
);

/** The category of the first shape in `shapes` that `message` has. */
function shapeCategory(shapes: readonly MessageShape[], message: string): CategoryId | undefined {
  return shapes.find((shape) => hasShape(shape.id, message))?.category as CategoryId | undefined;
}

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
  return shapeCategory(INNER_CAUSE_SHAPES, message) ?? 'inner-tool-error';
}

function classifyProgramFailure(message: string, call: ToolCall | undefined): CategoryId {
  if (!message.startsWith(CODE_RUN_PREFIX)) return 'code-runtime';
  const detail = message.slice(CODE_RUN_PREFIX.length);
  if (hasShape('inner-invalid-args', detail) || hasShape('inner-lossy-args', detail)) return 'inner-invalid-args';
  if (detail.startsWith(TOOL_CALL_ERROR_PREFIX)) return innerCause(detail.slice(TOOL_CALL_ERROR_PREFIX.length));
  if (hasShape('inner-unknown-binding', detail) || hasShape('inner-missing-binding-ptc', detail))
    return 'inner-unknown-binding';
  if (hasShape('program-markdown-fence', detail)) return 'code-syntax';
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
  if (code !== undefined && ABORT_CODES.has(code)) return 'aborted';
  switch (code) {
    case ERROR_CODES.UNKNOWN_TOOL:
      return hasShape('code-mode-direct-call', message) ? 'code-mode-direct-call' : 'unknown-tool';
    case ERROR_CODES.INVALID_ARGS:
      return 'invalid-args';
    case ERROR_CODES.CODE_RUN_FAILED:
      return classifyProgramFailure(message, call);
    case ERROR_CODES.FS_NOT_OBSERVED:
      return 'fs-not-observed';
    case ERROR_CODES.FS_STALE_VERSION:
      return 'fs-stale-version';
    case ERROR_CODES.FS_EDIT_NOT_FOUND:
    case ERROR_CODES.FS_AMBIGUOUS_EDIT:
      return 'fs-edit-anchor';
    case ERROR_CODES.FS_NOT_FOUND:
      if (hasShape('read-range', message)) return 'read-range';
      break;
  }
  const plain = shapeCategory(CODELESS_SHAPES, message);
  if (plain !== undefined) return plain;
  if (call?.name === RUN_CODE && message.startsWith(CODE_RUN_FAILED_PREFIX))
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
