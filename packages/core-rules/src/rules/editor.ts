/**
 * `str_replace_editor` checks the host makes outside the JSON Schema (plain `Error`s in
 * dsh-tool-str-replace-editor: an absolute `path`, a two-integer `view_range` with 1 <= start and
 * start <= end unless end is -1), and the repairs for them: relative paths resolved against the session
 * cwd (never escaping it, never without a cwd), and view ranges reshaped. `read`/`write`/`edit` resolve
 * relative paths themselves and are not touched.
 */
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
  if (typeof path === 'string' && path.trim() !== '' && !isAbsolutePath(path)) violations.push(`path "${preview(path, 80)}" is not absolute`);
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
 * Joins a relative `path` onto an absolute `cwd` with POSIX rules. Returns undefined when the result would
 * leave `cwd` (through `..`), or when the path is not a plain relative POSIX path (`~`, backslashes).
 */
export function resolveInside(cwd: string, path: string): string | undefined {
  if (path.length > MAX_PATH_CHARS || cwd.length > MAX_PATH_CHARS) return undefined;
  if (!isAbsolutePath(cwd) || path.includes('\\') || path.startsWith('~') || path.includes('\0')) return undefined;
  const base = cwd.split('/').filter((part) => part !== '' && part !== '.');
  if (base.includes('..')) return undefined;
  const parts = [...base];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length <= base.length) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return `/${parts.join('/')}`;
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
    receipt: {
      ruleId: 'editor.absolute-path',
      category: 'editor-path',
      why: `str_replace_editor needs an absolute path; resolved "${preview(path, 80)}" against the session cwd`,
      before: preview(path),
      after: preview(resolved),
    },
  };
}

function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d{1,9}\s*$/.test(value)) return Number(value);
  return undefined;
}

function parseRangeText(value: string): unknown {
  if (!/^\s*\[[^\]]*\]\s*$/.test(value)) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/**
 * A `view_range` reshaped into what the host accepts: numeric strings -> numbers, `[n]` -> `[n, n]`,
 * start < 1 -> 1, inverted pairs swapped; the `-1` end sentinel is kept. Anything else is left alone.
 */
export function reshapeViewRange(args: Record<string, unknown>): RuleOutcome {
  if (args.command !== 'view' || args.view_range === undefined || isHostViewRange(args.view_range)) return undefined;
  const raw = typeof args.view_range === 'string' ? parseRangeText(args.view_range) : args.view_range;
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > 2) return undefined;
  const numbers = raw.map(toInteger);
  if (numbers.some((value) => value === undefined)) return undefined;
  let [start, end] = numbers.length === 1 ? [numbers[0] as number, numbers[0] as number] : (numbers as [number, number]);
  if (end !== -1 && end >= 1 && start > end) [start, end] = [end, start];
  if (start < 1) start = 1;
  const range = [start, end];
  if (!isHostViewRange(range)) return undefined;
  return {
    kind: 'repaired',
    args: { ...args, view_range: range },
    receipt: {
      ruleId: 'editor.view-range-shape',
      category: 'editor-range',
      why: 'view_range must be two integers [start >= 1, end >= start or -1]',
      before: preview(args.view_range),
      after: preview(range),
    },
  };
}

