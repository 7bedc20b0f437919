/**
 * Turns an event's before/after previews (the redacted JSON text of the arguments the model sent and the ones that
 * ran) into something a person can read: the arguments decoded; a `run_code` program as program text with a line
 * diff whose changed spans are marked; any other tool as a per-key diff. The diffing is the `diff` library's
 * (Myers' algorithm); this module only shapes its output for rendering. Pure: no DOM, no lit.
 */
import { diffLines, diffWordsWithSpace } from 'diff';

/** A piece of a line: unchanged text, or a span that differs from the other side. */
export interface Span {
  text: string;
  changed: boolean;
}

/** One line of a line diff: kept, removed (before only) or added (after only), split into spans. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  spans: Span[];
}

/** One argument of a per-key diff. */
export interface KeyChange {
  key: string;
  kind: 'same' | 'removed' | 'added' | 'changed';
  before?: string;
  after?: string;
  /** For a changed text value: its line diff. */
  lines?: DiffLine[];
}

export type Readable =
  /** A program: the line diff of `code`, plus the other arguments as key changes. */
  | { kind: 'program'; lines: DiffLine[]; keys: KeyChange[] }
  /** Decoded arguments compared key by key. */
  | { kind: 'keys'; keys: KeyChange[] }
  /** Text that is not a JSON object (cut previews, a tool name): a line diff of the raw text. */
  | { kind: 'text'; lines: DiffLine[] };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The argument object a preview holds, or undefined when it is not one. Accepts `{...}`, a `{name, arguments}`
 * call, and arguments encoded once more as a JSON string (a model's double-encoding).
 */
export function decodeArguments(preview: string | undefined): JsonObject | undefined {
  if (preview === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(preview);
  } catch {
    return undefined;
  }
  for (let depth = 0; depth < 3 && typeof value === 'string'; depth++) {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (isObject(value) && typeof value.name === 'string' && 'arguments' in value && Object.keys(value).length === 2) {
    return decodeArguments(typeof value.arguments === 'string' ? value.arguments : JSON.stringify(value.arguments));
  }
  return isObject(value) ? value : undefined;
}

/** A value as a person reads it: strings as they are, everything else as indented JSON. */
export function displayValue(value: Json | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

const splitLines = (text: string): string[] => {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** Marks the words that differ between a removed line and the added line that replaced it. */
function pairSpans(before: string, after: string): { before: Span[]; after: Span[] } {
  const changes = diffWordsWithSpace(before, after);
  const left: Span[] = [];
  const right: Span[] = [];
  for (const change of changes) {
    if (!change.added) left.push({ text: change.value, changed: change.removed });
    if (!change.removed) right.push({ text: change.value, changed: change.added });
  }
  return { before: left, after: right };
}

/**
 * A line diff of two texts. A block of removed lines followed by a block of added lines is a replacement: its
 * lines are paired in order and the differing words within each pair are marked.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  // A last line without its newline still matches the same line with one (a fence stripped from the end).
  const changes = diffLines(before, after, { ignoreNewlineAtEof: true });
  const lines: DiffLine[] = [];
  for (let index = 0; index < changes.length; index++) {
    const change = changes[index]!;
    const next = changes[index + 1];
    if (change.removed && next?.added) {
      const removed = splitLines(change.value);
      const added = splitLines(next.value);
      const paired = Math.min(removed.length, added.length);
      const removedLines: DiffLine[] = [];
      const addedLines: DiffLine[] = [];
      for (let line = 0; line < Math.max(removed.length, added.length); line++) {
        if (line < paired) {
          const spans = pairSpans(removed[line]!, added[line]!);
          removedLines.push({ kind: 'removed', spans: spans.before });
          addedLines.push({ kind: 'added', spans: spans.after });
        } else if (line < removed.length) {
          removedLines.push({ kind: 'removed', spans: [{ text: removed[line]!, changed: true }] });
        } else {
          addedLines.push({ kind: 'added', spans: [{ text: added[line]!, changed: true }] });
        }
      }
      lines.push(...removedLines, ...addedLines);
      index++;
      continue;
    }
    const kind = change.added ? 'added' : change.removed ? 'removed' : 'same';
    for (const text of splitLines(change.value)) lines.push({ kind, spans: [{ text, changed: kind !== 'same' }] });
  }
  return lines;
}

function keyChanges(before: JsonObject, after: JsonObject, skip?: string): KeyChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => key !== skip);
  return keys.map((key): KeyChange => {
    const hasBefore = Object.hasOwn(before, key);
    const hasAfter = Object.hasOwn(after, key);
    const left = hasBefore ? displayValue(before[key]) : undefined;
    const right = hasAfter ? displayValue(after[key]) : undefined;
    if (!hasBefore) return { key, kind: 'added', after: right };
    if (!hasAfter) return { key, kind: 'removed', before: left };
    if (left === right) return { key, kind: 'same', before: left, after: right };
    return { key, kind: 'changed', before: left, after: right, lines: lineDiff(left ?? '', right ?? '') };
  });
}

/**
 * The readable form of a before/after pair. A program (`code` text on the side that ran) gets a line diff against
 * the program the model sent (empty when it sent none, e.g. `{command}`); two argument objects are compared key
 * by key; anything else is diffed as text. Undefined when there is no pair to compare.
 */
export function readableChange(before: string | undefined, after: string | undefined): Readable | undefined {
  if (before === undefined || after === undefined) return undefined;
  const left = decodeArguments(before);
  const right = decodeArguments(after);
  if (left && right) {
    if (typeof right.code === 'string') {
      const sentCode = typeof left.code === 'string' ? left.code : '';
      return { kind: 'program', lines: lineDiff(sentCode, right.code), keys: keyChanges(left, right, 'code') };
    }
    return { kind: 'keys', keys: keyChanges(left, right) };
  }
  return { kind: 'text', lines: lineDiff(before, after) };
}
