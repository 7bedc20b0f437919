/**
 * Prose around unfenced code: "Here is the program:" before it, "That's it." or "Let me know if …" after it
 * (huggingface/smolagents #1028 shows the shape). A line counts as prose only if no JavaScript statement could start
 * that way: it starts with two words separated by a space (two names in a row are never JavaScript unless the first is
 * a keyword), the first is not a keyword, and it holds no code characters (`;`, `{`, `}`, `=`, a call) outside inline
 * `code` spans. Only whole lines at the very start and end are prose; anything in between is the program.
 */
import { type CodeScan, inCode, scanCode } from './code-scan.js';

const KEYWORDS = new Set(
  'async await break case catch class const continue debugger declare default delete do else enum export extends finally for function if import in instanceof interface let new of return static switch throw try type typeof var void while with yield abstract namespace module'.split(
    ' ',
  ),
);
/** A sentence start: a word, a space, a word. */
const SENTENCE_START = /^[ \t]*([\p{L}][\p{L}'’]*)[ \t]+[\p{L}\p{Nd}"“‘'`(]/u;
/** Code characters outside inline `code` spans. */
const CODE_CHARACTERS = /[;{}=]|[\w$\]]\(|=>/;

/** True when `line` is prose by the rules above. */
export function isProseLine(line: string): boolean {
  const start = SENTENCE_START.exec(line);
  if (!start || KEYWORDS.has(start[1]!)) return false;
  const outsideInlineCode = line.replace(/`[^`]*`/g, '');
  if (outsideInlineCode.includes('`')) return false;
  return !CODE_CHARACTERS.test(outsideInlineCode);
}

export interface ProseRange {
  /** Offsets of the code between the prose (the rest of the text is removed). */
  start: number;
  end: number;
  linesBefore: number;
  linesAfter: number;
  /** 1-based line of the first prose line found (before the code, else after it). */
  line: number;
}

/** The code between leading and trailing prose lines, or undefined when there is no prose or nothing else. */
export function proseLineRange(code: string): ProseRange | undefined {
  // Most programs start and end with code: decide that from the first and last non-blank lines alone.
  const head = code.trimStart();
  const tail = code.trimEnd();
  const firstLine = head.slice(0, (head.indexOf('\n') + 1 || head.length + 1) - 1);
  const lastLine = tail.slice(tail.lastIndexOf('\n') + 1);
  if (!isProseLine(firstLine.replace(/\r$/, '')) && !isProseLine(lastLine)) return undefined;
  let scan: CodeScan | undefined;
  /** A prose line starts in code: a line inside a template or comment (a cut Markdown text) is the program's. */
  const startsInCode = (line: { start: number; text: string }): boolean => {
    scan ??= scanCode(code);
    return inCode(scan, line.start + (line.text.length - line.text.trimStart().length));
  };
  const lines: { start: number; end: number; text: string }[] = [];
  let from = 0;
  while (from <= code.length) {
    const newline = code.indexOf('\n', from);
    const stop = newline === -1 ? code.length : newline;
    lines.push({ start: from, end: stop, text: code.slice(from, stop).replace(/\r$/, '') });
    if (newline === -1) break;
    from = newline + 1;
  }
  const blank = (index: number): boolean => lines[index]!.text.trim() === '';
  let first = 0;
  let before = 0;
  while (first < lines.length && (blank(first) || (isProseLine(lines[first]!.text) && startsInCode(lines[first]!)))) {
    if (!blank(first)) before++;
    first++;
  }
  let last = lines.length - 1;
  let after = 0;
  while (last > first && (blank(last) || (isProseLine(lines[last]!.text) && startsInCode(lines[last]!)))) {
    if (!blank(last)) after++;
    last--;
  }
  if (first > last || before + after === 0) return undefined;
  const firstProse =
    before > 0
      ? lines.findIndex((line) => line.text.trim() !== '')
      : last + 1 + lines.slice(last + 1).findIndex((line) => line.text.trim() !== '');
  const end = lines[last]!.start + lines[last]!.text.length;
  return { start: lines[first]!.start, end, linesBefore: before, linesAfter: after, line: firstProse + 1 };
}
