/**
 * DSH's error vocabulary: the `error.info.code` values of its structured errors and the message shapes of the texts
 * the engine reads (plain Errors carry no code; a program's failure is one text), each with a captured example and
 * the capture it comes from (`/work/shared/dsh-captures/<mode>-index.json`, DSH 0.1.0-rc.8, copied in tests/fixtures)
 * or the public source of a release. This is the one copy: packages/core-rules (classify, hints, recovery, repeats,
 * host checks, stack trimming) and packages/session-analyzer import it, and core-rules' tests fail when one of its
 * source files writes a code or a shape's `mark` itself. Texts: docs/host-facts.md.
 */

/** `error.info.code` values the engine acts on (`ToolArgsError`, `ToolNotFoundError`, the file tools, the code runtime). */
export const ERROR_CODES = {
  ABORTED: 'ABORTED',
  ABORTED_BEFORE_DISPATCH: 'ABORTED_BEFORE_DISPATCH',
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  INVALID_ARGS: 'INVALID_ARGS',
  CODE_RUN_FAILED: 'CODE_RUN_FAILED',
  FS_NOT_OBSERVED: 'FS_NOT_OBSERVED',
  FS_STALE_VERSION: 'FS_STALE_VERSION',
  FS_EDIT_NOT_FOUND: 'FS_EDIT_NOT_FOUND',
  FS_AMBIGUOUS_EDIT: 'FS_AMBIGUOUS_EDIT',
  FS_NOT_FOUND: 'FS_NOT_FOUND',
  INVALID_TOOL_OUTPUT: 'INVALID_TOOL_OUTPUT',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Error codes of a cancelled call: never retried. */
export const ABORT_CODES: ReadonlySet<string> = new Set([ERROR_CODES.ABORTED, ERROR_CODES.ABORTED_BEFORE_DISPATCH]);

/** What the model reads before every error message (`Error: <message>`). */
export const ERROR_TEXT_PREFIX = 'Error: ';

/** A failed program's message starts with this (then `exception` or another kind, `): `, the program's error). */
export const CODE_RUN_FAILED_PREFIX = 'code run failed (';

/** A program that threw (or did not compile) on rc.8: what follows is the thrown error's text. */
export const CODE_RUN_PREFIX = 'code run failed (exception): ';

/** A rejected sub-call reaches the program as this error class (rc.8 `ToolCallError`). */
export const TOOL_CALL_ERROR_PREFIX = 'ToolCallError: ';

/** The part of a Code-Mode `UNKNOWN_TOOL` that says the tool exists but is reachable only inside a program. */
export const DIRECT_CALL_MARK = 'only `run_code` is callable directly';

/** The suffix of `FS_NOT_OBSERVED` texts that already tell the model what to do. */
export const READ_THEN_RETRY_MARK = 'read the file, then retry';

/** One message shape: a pattern the engine matches, the category it settles, and a captured example. */
export interface MessageShape {
  id: string;
  /** The `error.info.code` the shape comes with, or undefined for a plain Error (no code). */
  code: ErrorCode | undefined;
  /** core-rules' category id for it. */
  category: string;
  /** Where the text appears: a tool result's message, or inside a program's `code run failed` text. */
  where: 'result' | 'program';
  pattern: RegExp;
  /**
   * A literal fragment of the shape (in `example`, and in `pattern`'s source as it is or regex-escaped): core-rules'
   * tests scan its source for these, so no file there writes a DSH text of its own.
   */
  mark: string;
  /** A text that matches (the first line of a captured message, or one written from the named source). */
  example: string;
  /** The capture id (`c_…` / `n_…` in tests/fixtures/*-index.json) the example is from, or the public source. */
  source: string;
  /** True when `example` is the head of a message real DSH wrote (`source` is a capture id). */
  captured: boolean;
  /** The releases that write it. */
  releases: string;
}

const RC8 = '0.1.0-rc.8 and later';
const rc8Shape = (shape: Omit<MessageShape, 'captured' | 'releases'>): MessageShape => ({
  ...shape,
  captured: true,
  releases: RC8,
});

/** Every message shape the engine reads, most specific first within a category. */
export const MESSAGE_SHAPES: readonly MessageShape[] = [
  rc8Shape({
    id: 'invalid-arguments',
    code: 'INVALID_ARGS',
    category: 'invalid-args',
    where: 'result',
    pattern: /^invalid arguments: /,
    mark: 'invalid arguments: ',
    example: 'invalid arguments: missing required property "code"; missing required property "description"',
    source: 'c_a_command_instead_of_code',
  }),
  rc8Shape({
    id: 'missing-required-property',
    code: 'INVALID_ARGS',
    category: 'invalid-args',
    where: 'result',
    pattern: /missing required property "([^"]+)"/g,
    mark: 'missing required property',
    example: 'invalid arguments: missing required property "code"; missing required property "description"',
    source: 'c_a_command_instead_of_code',
  }),
  rc8Shape({
    id: 'invalid-description',
    code: undefined,
    category: 'invalid-args',
    where: 'result',
    pattern: /^invalid description: /,
    mark: 'invalid description',
    example: 'invalid description: expected a non-empty string',
    source: 'c_b2_blank_description',
  }),
  rc8Shape({
    id: 'code-mode-direct-call',
    code: 'UNKNOWN_TOOL',
    category: 'code-mode-direct-call',
    where: 'result',
    pattern: /^unknown tool "[^"]*": only `run_code` is callable directly/,
    mark: 'only `run_code` is callable directly',
    example:
      'unknown tool "read": only `run_code` is callable directly — call `read` from inside a `run_code` program instead',
    source: 'c_c_direct_read',
  }),
  rc8Shape({
    id: 'unknown-tool',
    code: 'UNKNOWN_TOOL',
    category: 'unknown-tool',
    where: 'result',
    pattern: /^unknown tool "([^"]*)"$/,
    mark: 'unknown tool "',
    example: 'unknown tool "read_file"',
    source: 'n_unknown_tool',
  }),
  rc8Shape({
    id: 'read-range',
    code: 'FS_NOT_FOUND',
    category: 'read-range',
    where: 'result',
    pattern: /^offset \d+ is out of range for (?:.*\((\d+) lines\))?/,
    mark: 'is out of range for',
    example: 'offset 50 is out of range for "/workspace/fixture.txt" (10 lines)',
    source: 'n_read_past_end',
  }),
  rc8Shape({
    id: 'editor-path',
    code: undefined,
    category: 'editor-path',
    where: 'result',
    pattern: /^The path .* is not an absolute path, it should start with `\/`/s,
    mark: 'is not an absolute path',
    example: 'The path fixture.txt is not an absolute path, it should start with `/`. Maybe you meant /fixture.txt?',
    source: 'n_d_view_relative',
  }),
  rc8Shape({
    id: 'editor-range-start',
    code: undefined,
    category: 'editor-range',
    where: 'result',
    pattern: /^Invalid `view_range`.*within the range of lines of the file: \[1, (\d+)\]/s,
    mark: 'within the range of lines of the file',
    example:
      'Invalid `view_range`: [50, 60]. Its first element `50` should be within the range of lines of the file: [1, 11]',
    source: 'n_f_view_range_start_past_end',
  }),
  rc8Shape({
    id: 'editor-range-end',
    code: undefined,
    category: 'editor-range',
    where: 'result',
    pattern: /^Invalid `view_range`.*smaller than the number of lines in the file: `(\d+)`/s,
    mark: 'smaller than the number of lines in the file',
    example:
      'Invalid `view_range`: [5, 99]. Its second element `99` should be smaller than the number of lines in the file: `11`',
    source: 'n_f_view_range_end_past_end',
  }),
  {
    id: 'editor-range-invalid',
    code: undefined,
    category: 'editor-range',
    where: 'result',
    pattern: /^Invalid `view_range`/,
    mark: 'Invalid `view_range`',
    example: 'Invalid `view_range`. It should be a list of two integers.',
    source:
      'npm @deepseek-ai/dsh-tool-str-replace-editor@0.1.0-rc.8, lib/index.js:93-98 (every view_range check of the editor starts so)',
    captured: false,
    releases: RC8,
  },
  rc8Shape({
    id: 'fs-edit-not-found',
    code: 'FS_EDIT_NOT_FOUND',
    category: 'fs-edit-anchor',
    where: 'result',
    pattern: /^old_string was not found in "/,
    mark: 'old_string was not found in',
    example: 'old_string was not found in "/workspace/fixture.txt"',
    source: 'n_edit_not_found',
  }),
  rc8Shape({
    id: 'fs-ambiguous-edit',
    code: 'FS_AMBIGUOUS_EDIT',
    category: 'fs-edit-anchor',
    where: 'result',
    pattern: /^old_string matched \d+ times in "/,
    mark: 'old_string matched',
    example:
      'old_string matched 10 times in "/workspace/fixture.txt"; provide a more specific old_string or set replace_all to true',
    source: 'n_edit_ambiguous',
  }),
  rc8Shape({
    id: 'editor-not-found',
    code: 'FS_EDIT_NOT_FOUND',
    category: 'fs-edit-anchor',
    where: 'result',
    pattern: /^No replacement was performed, old_str /,
    mark: 'No replacement was performed, old_str',
    example: 'No replacement was performed, old_str `no such text` did not appear verbatim in /workspace/fixture.txt.',
    source: 'n_sre_not_found',
  }),
  rc8Shape({
    id: 'editor-ambiguous',
    code: 'FS_AMBIGUOUS_EDIT',
    category: 'fs-edit-anchor',
    where: 'result',
    pattern: /^No replacement was performed\. Multiple occurrences of old_str /,
    mark: 'Multiple occurrences of old_str',
    example:
      'No replacement was performed. Multiple occurrences of old_str `line` in lines [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]. Please ensure it is unique',
    source: 'n_sre_ambiguous',
  }),
  rc8Shape({
    id: 'fs-edit-unread',
    code: 'FS_NOT_OBSERVED',
    category: 'fs-not-observed',
    where: 'result',
    pattern: /^edit requires reading "/,
    mark: 'edit requires reading',
    example: 'edit requires reading "/workspace/existing.txt" first — read the file, then retry',
    source: 'n_e_edit_unread',
  }),
  rc8Shape({
    id: 'fs-write-unread',
    code: 'FS_NOT_OBSERVED',
    category: 'fs-not-observed',
    where: 'result',
    pattern: /^cannot overwrite existing ".*" without reading it first/,
    mark: 'without reading it first',
    example: 'cannot overwrite existing "/workspace/existing.txt" without reading it first — read the file, then retry',
    source: 'n_e_write_unread',
  }),
  rc8Shape({
    id: 'fs-stale-version',
    code: 'FS_STALE_VERSION',
    category: 'fs-stale-version',
    where: 'result',
    pattern: /^cannot edit ".*": file changed since it was read/,
    mark: 'file changed since it was read',
    example: 'cannot edit "/workspace/stale.txt": file changed since it was read — re-read the file, then retry',
    source: 'n_stale_edit',
  }),
  rc8Shape({
    id: 'program-threw',
    code: 'CODE_RUN_FAILED',
    category: 'code-runtime',
    where: 'result',
    pattern: /^code run failed \(exception\): /,
    mark: 'code run failed',
    example: 'code run failed (exception): Error: boom',
    source: 'c_runtime_throw',
  }),
  rc8Shape({
    id: 'program-uncompiled',
    code: 'CODE_RUN_FAILED',
    category: 'code-syntax',
    where: 'program',
    pattern: /^code run failed \(exception\): (?![\w$]*(?:Error|Exception)\b)/,
    mark: 'code run failed',
    example: "code run failed (exception): Expected ';', '}' or <eof>",
    source: 'c_g_python_triple_quote',
  }),
  rc8Shape({
    id: 'program-ts-enum',
    code: 'CODE_RUN_FAILED',
    category: 'code-syntax',
    where: 'program',
    pattern: /enum is not supported/,
    mark: 'enum is not supported',
    example: 'code run failed (exception): TypeScript enum is not supported in strip-only mode',
    source: 'c_g_ts_enum',
  }),
  rc8Shape({
    id: 'program-markdown-fence',
    code: 'CODE_RUN_FAILED',
    category: 'code-syntax',
    where: 'program',
    pattern: /^TypeError: "" is not a function/,
    mark: '"" is not a function',
    example: 'TypeError: "" is not a function',
    source: 'c_g_markdown_fence',
  }),
  rc8Shape({
    id: 'inner-invalid-args',
    code: 'CODE_RUN_FAILED',
    category: 'inner-invalid-args',
    where: 'program',
    pattern: /^ToolCallError: invalid arguments/,
    mark: 'ToolCallError: invalid arguments',
    example: 'ToolCallError: invalid arguments: missing required property "description"',
    source: 'c_h_inner_bash_no_description',
  }),
  rc8Shape({
    id: 'inner-lossy-args',
    code: 'CODE_RUN_FAILED',
    category: 'inner-invalid-args',
    where: 'program',
    pattern: /^ToolCallError: binding arguments must be lossless JSON/,
    mark: 'binding arguments must be lossless JSON',
    example: 'ToolCallError: binding arguments must be lossless JSON',
    source: 'c_inner_non_json_args',
  }),
  rc8Shape({
    id: 'inner-unknown-binding',
    code: 'CODE_RUN_FAILED',
    category: 'inner-unknown-binding',
    where: 'program',
    pattern: /^TypeError: tools(\.[\w$]+|\[[^\]]*\]) is not a function/,
    mark: 'is not a function',
    example: 'TypeError: tools.read_file is not a function',
    source: 'c_inner_unknown_binding',
  }),
  {
    id: 'inner-missing-binding-ptc',
    code: 'CODE_RUN_FAILED',
    category: 'inner-unknown-binding',
    where: 'program',
    pattern: /^TypeError: tools(\.[\w$]+|\[[^\]]*\]) does not exist\./,
    mark: 'does not exist.',
    example: 'TypeError: tools.read_file does not exist. Did you mean tools.read?',
    source:
      'Justar96/bake @ 33d57d91d13b6a31f2a150f751e80d5742d0da9a, packages/ptc-runtime/ptc-runtime-codemode/src/program.ts (the QuickJS prelude: `<access> does not exist. Did you mean …?`)',
    captured: false,
    releases: '0.2.x with the QuickJS provider (ptc-runtime-codemode)',
  },
];

/** The shape with `id`; throws for an id this table does not have (a typo in a caller). */
export function messageShape(id: string): MessageShape {
  const shape = MESSAGE_SHAPES.find((entry) => entry.id === id);
  if (!shape) throw new Error(`dsh-profile: no message shape "${id}"`);
  return shape;
}

/** Non-global copies of the patterns, so matching never depends on a previous call's `lastIndex`. */
const STATELESS = new Map(
  MESSAGE_SHAPES.map((shape) => [shape.id, new RegExp(shape.pattern.source, shape.pattern.flags.replace('g', ''))]),
);

/** The first match of shape `id` in `text` (its groups), or null; stateless. Throws for an unknown id. */
export function matchShape(id: string, text: string): RegExpExecArray | null {
  const pattern = STATELESS.get(id);
  if (!pattern) throw new Error(`dsh-profile: no message shape "${id}"`);
  return pattern.exec(text);
}

/** True when `text` has shape `id`. */
export function hasShape(id: string, text: string): boolean {
  return matchShape(id, text) !== null;
}

/** Every match of shape `id` in `text` (e.g. each missing property of one INVALID_ARGS message). */
export function matchAllShape(id: string, text: string): RegExpExecArray[] {
  const { pattern } = messageShape(id);
  return [
    ...text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`)),
  ];
}

/**
 * The stack frame of the model's own program in a failed run_code's text (rc.8 dsh-code-runtime compiles the body
 * with `new AsyncFunction(...)` inside its worker's `runWorkerMain`): `eval at runWorkerMain …, <anonymous>:L:C`.
 * Groups: indentation, line, column.
 */
export const PROGRAM_FRAME = /^(\s+)at .*eval at runWorkerMain .*<anonymous>:(\d+):(\d+)\)\s*$/;

/** Lines the runtime puts before the program body (`'use strict';` and the wrapper): program line 1 is line 4. */
export const PROGRAM_LINE_OFFSET = 3;

/** The code runtime's own worker script in a frame (a frame of the host, not of the program). */
export const RUNTIME_WORKER_FILE = 'worker.cjs';

/**
 * Texts core-rules writes in the host's own words: the head of an unknown-tool and a missing-property message (the
 * `unknown-tool` and `missing-required-property` shapes), and what DSH's tools write when a check beyond their JSON
 * Schema refuses an argument (dsh-tool-bash lib/index.js:120-122, dsh-tool-fs lib/index.js:300-315, 572-573 and
 * 717-719, dsh-code-runtime; `invalid description: …` is also the `invalid-description` shape).
 */
export const HOST_TEXTS = {
  unknownTool: (name: string) => `unknown tool "${name}"`,
  missingProperty: (path: string) => `missing required property "${path}"`,
  blank: (key: string) => `invalid ${key}: expected a non-empty string`,
  positiveInteger: (key: string) => `${key} must be a positive integer`,
  positiveNumber: (key: string) => `invalid ${key}: expected a positive number`,
  atMost: (key: string, limit: number) => `${key} must be less than or equal to ${limit}`,
  nonEmpty: (key: string) => `${key} must be a non-empty string`,
  /** Node's child_process and fs (ERR_INVALID_ARG_VALUE). */
  noNul: (key: string) => `${key} must be a string without null bytes`,
} as const;

/**
 * The code a tool's error text implies, read from the first shape that describes the text's head (an anchored
 * pattern with a code): rc.8's `tool/code-dispatch` events and a hinted result in a log carry no code of their own.
 */
export function codeOfMessage(message: string): ErrorCode | undefined {
  return HEAD_SHAPES.find((shape) => hasShape(shape.id, message))?.code;
}

const HEAD_SHAPES = MESSAGE_SHAPES.filter(
  (shape) => shape.where === 'result' && shape.code !== undefined && shape.pattern.source.startsWith('^'),
);
