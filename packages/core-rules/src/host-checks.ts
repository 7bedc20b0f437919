/**
 * The checks DSH's tools make on their arguments beyond the JSON Schema they publish. A repair is applied only when
 * the repaired call passes these too: `"offset": "-5"` is a number the schema takes but `read` rejects, so coercing
 * it would trade one error for another (docs/host-facts.md#checks-beyond-the-schema). One table, one place; each row
 * cites the rc.8 source it reproduces; the texts are the host's own, from DSH's error vocabulary (dsh-profile).
 */
import { HOST_TEXTS as TEXT } from '@dsh-tool-normalizer/dsh-profile';
import { EDITOR, editorViolations } from './rules/editor.js';
import { RUN_CODE } from './tools.js';

type Check = (args: Record<string, unknown>) => string[];

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** A present value that is not a string holding something (the host calls `.trim()` on it). */
function blankText(args: Record<string, unknown>, key: string): string[] {
  const value = args[key];
  return typeof value === 'string' && value.trim() === '' ? [TEXT.blank(key)] : [];
}

/** Keys whose text reaches a system call (a spawned command, a file path): Node refuses a NUL byte in them. */
export const SYSCALL_TEXT_KEYS: Readonly<Record<string, readonly string[]>> = {
  bash: ['command'],
  read: ['file_path'],
  write: ['file_path'],
  edit: ['file_path'],
  read_image: ['file_path'],
  [EDITOR]: ['path'],
};

/** Node's child_process and fs refuse strings with NUL bytes (ERR_INVALID_ARG_VALUE: "must be a string without null bytes"). */
function noNul(toolName: string, args: Record<string, unknown>): string[] {
  const keys = Object.hasOwn(SYSCALL_TEXT_KEYS, toolName) ? (SYSCALL_TEXT_KEYS[toolName] as readonly string[]) : [];
  return keys
    .filter((key) => typeof args[key] === 'string' && (args[key] as string).includes('\0'))
    .map((key) => TEXT.noNul(key));
}

/** `dsh-tool-fs` `parsePositiveInteger`: finite, integral, >= 1 when given. */
function positiveInteger(args: Record<string, unknown>, key: string): string[] {
  const value = args[key];
  if (value === undefined) return [];
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? [] : [TEXT.positiveInteger(key)];
}

/** The default `readLimit` of dsh-tool-fs (READ_LIMIT = 2000); a larger `limit` is refused unless a deployment raised it. */
export const READ_LIMIT = 2000;

const CHECKS: Record<string, Check> = {
  // dsh-tool-bash lib/index.js:120-122
  bash: (args) => [
    ...blankText(args, 'command'),
    ...(blank(args.description) ? [TEXT.blank('description')] : []),
    ...(args.timeoutMs !== undefined &&
    !(typeof args.timeoutMs === 'number' && Number.isFinite(args.timeoutMs) && args.timeoutMs > 0)
      ? [TEXT.positiveNumber('timeoutMs')]
      : []),
  ],
  // dsh-code-runtime: a blank description is refused outside the schema. An absent one is the schema's to judge:
  // rc.8's schema requires it, builds whose run_code declares `{code}` alone run such calls (real logs).
  [RUN_CODE]: (args) => (args.description !== undefined && blank(args.description) ? [TEXT.blank('description')] : []),
  // dsh-tool-fs lib/index.js:300-315 (parseReadArgs)
  read: (args) => {
    const violations = [
      ...blankText(args, 'file_path'),
      ...positiveInteger(args, 'offset'),
      ...positiveInteger(args, 'limit'),
    ];
    if (typeof args.limit === 'number' && args.limit > READ_LIMIT) violations.push(TEXT.atMost('limit', READ_LIMIT));
    return violations;
  },
  // dsh-tool-fs lib/index.js:572-573 (parseWriteArgs)
  write: (args) => blankText(args, 'file_path'),
  // dsh-tool-fs lib/index.js:717-719 (parseEditArgs)
  edit: (args) => [...blankText(args, 'file_path'), ...(args.old_string === '' ? [TEXT.nonEmpty('old_string')] : [])],
  [EDITOR]: editorViolations,
};

/** What the host's own checks reject in arguments that already pass the schema (empty: nothing). */
export function checksBeyondSchema(toolName: string, args: Record<string, unknown>): string[] {
  const check = Object.hasOwn(CHECKS, toolName) ? CHECKS[toolName] : undefined;
  const violations = check ? check(args) : [];
  return [...violations, ...noNul(toolName, args)];
}
