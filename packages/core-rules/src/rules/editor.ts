/**
 * `str_replace_editor` checks the host makes outside the JSON Schema (plain `Error`s in
 * dsh-tool-str-replace-editor: an absolute `path`, a two-integer `view_range` with 1 <= start and
 * start <= end unless end is -1), and the repairs for them: relative paths resolved against the session
 * cwd (never escaping it, never without a cwd, never for a path that is not plainly relative: `$HOME/...`,
 * `${PWD}/...`, `~/...`, `file://...`, surrounding whitespace), and view ranges reshaped (never a negative
 * start: `[-5, -1]` means the last five lines to a model, and the host's own answer is kept). `read`/`write`/
 * `edit` resolve relative paths themselves and are not touched.
 */
import { receipt } from '../catalogue.js';
import { isRecord } from '../tools.js';
import { preview } from '../text.js';
import type { RuleOutcome } from './outcome.js';

export const EDITOR = 'str_replace_editor';

/** Longest path the engine resolves (Linux PATH_MAX): anything longer is left to the host. */
const MAX_PATH_CHARS = 4096;

function isAbsolutePath(path: string): boolean {
  return path.startsWith('/');
}

/** Host verdicts beyond the schema for a schema-valid editor call: the violations, empty when the host accepts it. */
export function editorViolations(args: Record<string, unknown>): string[] {
  const violations: string[] = [];
  const path = args.path;
  if (typeof path === 'string' && path.trim() !== '' && !isAbsolutePath(path))
    violations.push(`path "${preview(path, 80)}" is not absolute`);
  if (args.command === 'view' && args.view_range !== undefined && !isHostViewRange(args.view_range)) {
    violations.push('view_range must be two integers [start >= 1, end >= start or -1]');
  }
  return violations;
}

function isHostViewRange(range: unknown): boolean {
  if (!Array.isArray(range) || range.length !== 2) return false;
  const [start, end] = range as unknown[];
  if (!Number.isInteger(start) || !Number.isInteger(end)) return false;
  return (start as number) >= 1 && ((end as number) === -1 || (end as number) >= (start as number));
}

/**
 * Why `path` is not a plain relative POSIX path that can be joined to a cwd: shell expansions (`$HOME`,
 * `${PWD}`, `~`), URLs (`file://`), surrounding whitespace, backslashes, NUL. Undefined when it is plain.
 */
export function notPlainRelative(path: string): string | undefined {
  if (path !== path.trim()) return 'it has surrounding whitespace';
  if (path.startsWith('~')) return 'it starts with ~ (a shell expansion)';
  if (path.includes('$') || path.includes('`')) return 'it holds a shell expansion';
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return 'it is a URL or a drive path';
  if (path.includes('\\') || path.includes('\0')) return 'it holds a backslash or NUL';
  if (path.includes('%')) return 'it holds a %-escape or a variable';
  return undefined;
}

/**
 * Joins a relative `path` onto an absolute `cwd` with POSIX rules. Returns undefined when the path is not
 * plainly relative, when the result would leave `cwd` (through `..`), or when the path repeats part of the
 * cwd without its leading slash in a way that has two readings (see `cwdRepetition`).
 */
export function resolveInside(cwd: string, path: string): string | undefined {
  if (path.length > MAX_PATH_CHARS || cwd.length > MAX_PATH_CHARS) return undefined;
  if (!isAbsolutePath(cwd) || notPlainRelative(path) !== undefined) return undefined;
  const base = cwd.split('/').filter((part) => part !== '' && part !== '.');
  if (base.includes('..')) return undefined;
  const segments = path.split('/').filter((part) => part !== '' && part !== '.');
  const repetition = cwdRepetition(base, path, segments);
  if (repetition === 'ambiguous') return undefined;
  const parts = repetition === 'whole' ? [] : [...base];
  for (const part of segments) {
    if (part === '..') {
      if (parts.length <= base.length) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  const resolved = `/${parts.join('/')}`;
  const root = `/${base.join('/')}`;
  return base.length === 0 || resolved === root || resolved.startsWith(`${root}/`) ? resolved : undefined;
}

/**
 * A path that repeats the cwd without its leading slash (`workspace/a.txt` under `/workspace`) means the
 * absolute path the host itself suggests (`/workspace/a.txt`): 'whole'. A path that starts with a segment
 * of the cwd but not the whole of it (`project/src/a.py` under `/home/dev/project`) has two readings (a
 * subfolder named like the cwd, or a cwd-relative path written from a parent): 'ambiguous', left to the host.
 */
function cwdRepetition(
  base: readonly string[],
  path: string,
  segments: readonly string[],
): 'whole' | 'ambiguous' | 'none' {
  if (base.length === 0) return 'none';
  // `./x` and `../x` say "relative" explicitly; `./<cwd segment>/...` still has the host's other reading.
  if (/^\.\.?(\/|$)/.test(path))
    return path.startsWith('./') && base.includes(segments[0] ?? '') ? 'ambiguous' : 'none';
  if (base.every((part, index) => segments[index] === part) && segments.length > base.length) return 'whole';
  return base.includes(segments[0] ?? '') ? 'ambiguous' : 'none';
}

/** A relative editor `path` made absolute against `cwd`. */
export function absoluteEditorPath(args: Record<string, unknown>, cwd: string | undefined): RuleOutcome {
  const path = args.path;
  if (typeof path !== 'string' || path.trim() === '' || isAbsolutePath(path) || cwd === undefined) return undefined;
  const resolved = resolveInside(cwd, path);
  if (!resolved) return undefined;
  return {
    kind: 'repaired',
    args: { ...args, path: resolved },
    receipt: receipt(
      'editor.absolute-path',
      `str_replace_editor needs an absolute path; resolved "${preview(path, 80)}" against the session cwd`,
      preview(path),
      preview(resolved),
    ),
  };
}

function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  // Exactly the canonical text of an integer: `"010"`, `" 5"` and `"5\n"` stay (the host's error stands).
  if (typeof value === 'string' && /^-?(?:0|[1-9]\d{0,8})$/.test(value)) return Number(value);
  return undefined;
}

/** The pair or single number a text range stands for: `"[1, 20]"`, `"1,20"`, `"1, -1"`, `"1-20"`, `"1:20"`, `"12"`. */
function parseRangeText(value: string): unknown[] | undefined {
  if (value !== value.trim()) return undefined;
  const text = value;
  if (/^\[[^\]]*\]$/.test(text)) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return Array.isArray(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  const comma = /^(-?\d{1,9})\s*,\s*(-?\d{1,9})$/.exec(text);
  if (comma) return [comma[1], comma[2]];
  const span = /^(\d{1,9})\s*[-:]\s*(\d{1,9})$/.exec(text);
  if (span) return [span[1], span[2]];
  return /^\d{1,9}$/.test(text) ? [text] : undefined;
}

/** The pair an object range stands for: `{start, end}` (both present, nothing else). */
function parseRangeObject(value: Record<string, unknown>): unknown[] | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 2 || !Object.hasOwn(value, 'start') || !Object.hasOwn(value, 'end')) return undefined;
  return [value.start, value.end];
}

/**
 * A `view_range` reshaped into what the host accepts: numeric strings -> numbers, text forms (`"1,20"`,
 * `"1-20"`, `"12"`) and `{start, end}` -> a pair, `[n]` -> `[n, n]`, a start of 0 -> 1, inverted positive
 * pairs swapped; the `-1` end sentinel is kept. A negative start is never changed (to a model `[-5, -1]` means
 * the last five lines; clamping it would show the whole file): the host's own error stands.
 */
export function reshapeViewRange(args: Record<string, unknown>): RuleOutcome {
  if (args.command !== 'view' || args.view_range === undefined || isHostViewRange(args.view_range)) return undefined;
  const original = args.view_range;
  const raw =
    typeof original === 'string'
      ? parseRangeText(original)
      : isRecord(original)
        ? parseRangeObject(original)
        : original;
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > 2) return undefined;
  const numbers = raw.map(toInteger);
  if (numbers.some((value) => value === undefined)) return undefined;
  let [start, end] =
    numbers.length === 1 ? [numbers[0] as number, numbers[0] as number] : (numbers as [number, number]);
  if (start < 0) return undefined;
  if (end !== -1 && end >= 1 && start > end) [start, end] = [end, start];
  if (start === 0) start = 1;
  const range = [start, end];
  if (!isHostViewRange(range)) return undefined;
  return {
    kind: 'repaired',
    args: { ...args, view_range: range },
    receipt: receipt(
      'editor.view-range-shape',
      'view_range must be two integers [start >= 1, end >= start or -1]',
      preview(original),
      preview(range),
    ),
  };
}
