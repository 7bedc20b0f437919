/**
 * Tool-call markup a serving stack left around a `run_code` program (sgl-project/sglang #35736 and #36285, QwenLM/
 * qwen-code #10692, anthropics/claude-code #57952): a trailing `</parameter>`, Qwen's `<tool_call>` /
 * `<function=run_code>` / `<parameter=code>` wrappers, DSML tags, and leaked reasoning ending in `</think>`. The tags
 * are read with the one grammar the engine's DSML rules use (dsml.ts). Like a fence, the markup is a wrapper: only
 * whole tags at the very start and end are removed, the program between them is a substring of the text sent (so
 * diagnostics keep the sender's positions), and the caller strips it only from a program that does not compile.
 */
import { DSML, dsmlParameters, toolMarkupTagEnd } from './dsml.js';

export interface MarkupWrapper {
  /** Offsets of the program inside the text sent. */
  start: number;
  end: number;
  /** Tags removed (a `</think>` counts as one). */
  tags: number;
  /** Leaked reasoning before `</think>` was removed. */
  reasoning: boolean;
  /**
   * The other reading of a `</think>`: the text before it is part of the program (only the tag removed). When it
   * compiles too, the program is left alone.
   */
  alternative?: string;
}

const THINK_CLOSE = '</think>';

function isSpace(unit: number): boolean {
  return unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;
}

/** The program inside leaked tool-call markup, or undefined when the text has none at its ends. */
export function findToolMarkup(code: string): MarkupWrapper | undefined {
  if (!code.includes('<')) return undefined;
  // Several DSML parameters are several arguments, not one program: not read as a wrapper.
  if (code.includes(DSML)) {
    const parameters = dsmlParameters(code);
    if (parameters && Object.keys(parameters).length > 1) return undefined;
  }
  let start = 0;
  let tags = 0;
  let reasoning = false;
  let alternative: string | undefined;
  const think = code.lastIndexOf(THINK_CLOSE);
  if (think !== -1) {
    start = think + THINK_CLOSE.length;
    tags++;
    reasoning = code.slice(0, think).trim() !== '';
    if (reasoning) alternative = code.slice(0, think) + code.slice(start);
  }
  // Opening tags at the start.
  let at = start;
  for (;;) {
    while (at < code.length && isSpace(code.charCodeAt(at))) at++;
    const end = code[at] === '<' ? toolMarkupTagEnd(code, at) : -1;
    if (end === -1) break;
    tags++;
    at = end;
    start = end;
  }
  // The program starts on its first non-blank line (indentation kept) once tags or reasoning were removed.
  if (tags > 0) {
    let first = start;
    while (first < code.length && isSpace(code.charCodeAt(first))) {
      if (code[first] === '\n') start = first + 1;
      first++;
    }
  }
  // Closing tags at the end.
  let end = code.length;
  for (;;) {
    while (end > start && isSpace(code.charCodeAt(end - 1))) end--;
    const open = code.lastIndexOf('<', end - 1);
    if (open < start || toolMarkupTagEnd(code, open) !== end) break;
    tags++;
    end = open;
  }
  while (end > start && isSpace(code.charCodeAt(end - 1))) end--;
  if (tags === 0 || end <= start) return undefined;
  return alternative === undefined ? { start, end, tags, reasoning } : { start, end, tags, reasoning, alternative };
}

/**
 * Offset of a tool-call markup tag at the start or the end of the text, or alone on a line (whatever the shape around
 * it), for diagnostics.
 */
export function markupTagOffset(code: string): number | undefined {
  const first = code.search(/\S/);
  if (first !== -1 && code[first] === '<' && toolMarkupTagEnd(code, first) !== -1) return first;
  const end = code.trimEnd().length;
  const last = code.lastIndexOf('<', end - 1);
  if (last !== -1 && toolMarkupTagEnd(code, last) === end) return last;
  for (const line of code.matchAll(/^[ \t]*(<[^\n]{1,200}>)[ \t]*\r?$/gm)) {
    const at = line.index + line[0].indexOf('<');
    if (toolMarkupTagEnd(code, at) === at + line[1]!.length) return at;
  }
  return undefined;
}
