/**
 * Markdown fences around a whole program (repair class 1).
 *
 * A fenced program usually COMPILES: the backticks read as a tagged template, and it only fails at run time
 * with `"" is not a function`. So fences are found textually, before any compile, and never by waiting for a
 * parse failure. Only the fence lines themselves are removed; every byte of the body is kept.
 */
import { lex } from './lexer.js';

/**
 * A fence opener: up to 3 spaces, 3+ backticks or tildes, an optional info string (language first). An info
 * string with code characters (```js const x = 1;) is not taken as an opener: dropping that line would lose code.
 * The language and the rest of the line cannot overlap, so a long line is matched in linear time.
 */
const OPENER = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)(?:[ \t][^`\r\n;(){}]*)?$/;
/** An opener with code on the same line (```js const a = 1;): the code after the language is kept. */
const OPENER_WITH_CODE = /^[ \t]{0,3}(`{3,}|~{3,})([A-Za-z]+)[ \t]+(?=\S)/;
/** Info-string languages that mean "this is the JavaScript/TypeScript program". */
const PROGRAM_LANGUAGES = new Set([
  '',
  'js',
  'javascript',
  'ts',
  'typescript',
  'mjs',
  'cjs',
  'mts',
  'cts',
  'jsx',
  'tsx',
  'node',
  'es6',
  'ecmascript',
]);
/** Characters that make a line look like code rather than prose introducing a fence. */
const CODE_CHARACTERS = /[`{};=]/;
/**
 * A line that reads as a statement even without those characters: a call glued to its callee (`deploy()`,
 * `await tools.bash(args)`; prose writes "the program (updated)") or a leading statement keyword. Dropping
 * such a line as "prose" would silently remove code.
 */
const STATEMENT_LIKE = /[\w$\]]\(|^\s*(?:await|return|const|let|var|if|for|while|throw|try|function|class)\b/;

interface Line {
  /** Offset of the first character of the line. */
  start: number;
  /** Offset just past the line's text (before its line break). */
  end: number;
  text: string;
}

function splitLines(code: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= code.length) {
    const newline = code.indexOf('\n', start);
    const stop = newline === -1 ? code.length : newline;
    const end = stop > start && code[stop - 1] === '\r' ? stop - 1 : stop;
    lines.push({ start, end, text: code.slice(start, end) });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

export type FenceMatch =
  | { kind: 'none' }
  /** A fence in a language that is not the program's (```python, ```bash): left alone. */
  | { kind: 'foreign'; language: string; line: number }
  /** More than one fenced block: which one is the program is a guess, so nothing is stripped. */
  | { kind: 'ambiguous'; line: number }
  /**
   * A fenced block followed by code: the whole compiles as a tagged template (and fails when run), and whether the
   * code after the closer belongs to the program is a guess, so nothing is stripped. `line` is that code's line.
   */
  | { kind: 'code-after-fence'; line: number }
  | {
      kind: 'fence';
      /** The program inside the fence, byte for byte. */
      body: string;
      /** Offset of the body in the text (diagnostics are mapped back to the text sent). */
      start: number;
      language: string;
      marker: string;
      /** Lines of the original that precede the body's first line (for mapping diagnostics back; columns of a body that starts on the opener line are not shifted). */
      lineOffset: number;
      prose: boolean;
      closed: 'line' | 'same-line' | 'missing';
    };

function isBlank(text: string): boolean {
  return text.trim() === '';
}

function isProse(lines: Line[]): boolean {
  return lines.every(
    (line) =>
      isBlank(line.text) ||
      (!CODE_CHARACTERS.test(line.text) && !STATEMENT_LIKE.test(line.text) && /\p{L}/u.test(line.text)),
  );
}

/** Lines after the closing fence are dropped with it: only prose may be there (inline `code` is fine in prose). */
function isTrailingProse(lines: Line[]): boolean {
  return lines.every((line) => isBlank(line.text) || (!/[{};=]/.test(line.text) && !STATEMENT_LIKE.test(line.text)));
}

function closesFence(text: string, marker: string): boolean {
  const trimmed = text.trim();
  return trimmed.length >= marker.length && trimmed === marker[0]!.repeat(trimmed.length) && /^[ \t]{0,3}\S/.test(text);
}

/**
 * A program with no opener whose last non-blank line is a lone closing fence (```): that line
 * never compiles (it opens an unterminated template), so removing it loses nothing.
 */
function findStrayCloser(code: string, lines: Line[]): FenceMatch {
  let last = lines.length - 1;
  while (last > 0 && isBlank(lines[last]!.text)) last--;
  if (last === 0 || !/^[ \t]{0,3}(`{3,}|~{3,})[ \t]*$/.test(lines[last]!.text)) return { kind: 'none' };
  if (lines.slice(0, last).some((line) => OPENER.test(line.text) || OPENER_WITH_CODE.test(line.text)))
    return { kind: 'none' };
  const marker = lines[last]!.text.trim();
  return {
    kind: 'fence',
    body: code.slice(0, lines[last - 1]!.end),
    start: 0,
    language: '',
    marker,
    lineOffset: 0,
    prose: false,
    closed: 'line',
  };
}

/**
 * Finds a Markdown fence wrapping the program: either the first non-blank line opens a fence, or a fence
 * opener is preceded only by prose lines. The closer may be its own line, sit at the end of the last code
 * line (```js … return x;```), or be missing. Fence lines inside a template literal of the program (a Markdown
 * document the program writes) belong to the program: see `fenceHoldingTemplateFences`.
 */
export function findFence(code: string): FenceMatch {
  // Every fence reading starts from a ``` or ~~~ line: without either there is nothing to split into lines.
  if (code.indexOf('```') === -1 && code.indexOf('~~~') === -1) return { kind: 'none' };
  const match = findOuterFence(code);
  if (match.kind !== 'ambiguous' && match.kind !== 'none' && match.kind !== 'code-after-fence') return match;
  return fenceHoldingTemplateFences(code) ?? match;
}

/** True when the line is fence-like: an opener (```bash, ```, ~~~) or a closer. */
function isFenceLine(text: string): boolean {
  return OPENER.test(text) || /^[ \t]{0,3}(`{3,}|~{3,})/.test(text);
}

/**
 * The reading of a fenced program whose body holds more fence lines, each inside a template literal (e.g. a
 * README with a ```bash block written through tools.write): the first fence line opens the program, the LAST
 * closing line (or the end, when there is none) closes it. The reading is taken only when the lexer, reading
 * runs of backticks inside templates as content, finds every inner fence line inside a template literal; the
 * escaping itself is left to the template repair, and the host compile checks the result.
 */
function fenceHoldingTemplateFences(code: string): FenceMatch | undefined {
  const lines = splitLines(code);
  let openIndex = 0;
  while (openIndex < lines.length && isBlank(lines[openIndex]!.text)) openIndex++;
  const prose = openIndex < lines.length && !OPENER.test(lines[openIndex]!.text);
  if (prose) {
    // Prose lines first, as for an ordinary fence.
    while (openIndex < lines.length && !OPENER.test(lines[openIndex]!.text)) openIndex++;
    if (!isProse(lines.slice(0, openIndex))) return undefined;
  }
  const openLine = lines[openIndex];
  const opener = openLine ? OPENER.exec(openLine.text) : null;
  if (!openLine || !opener) return undefined;
  const marker = opener[1]!;
  const language = opener[2]!.toLowerCase();
  if (!PROGRAM_LANGUAGES.has(language)) return undefined;
  let closeIndex = lines.length;
  for (let index = lines.length - 1; index > openIndex; index--) {
    if (closesFence(lines[index]!.text, marker)) {
      closeIndex = index;
      break;
    }
    if (!isBlank(lines[index]!.text) && !isTrailingProse([lines[index]!])) break;
  }
  if (closeIndex < lines.length && !isTrailingProse(lines.slice(closeIndex + 1))) return undefined;
  const bodyLines = lines.slice(openIndex + 1, closeIndex);
  if (bodyLines.length === 0) return undefined;
  const bodyStart = bodyLines[0]!.start;
  const body = code.slice(bodyStart, bodyLines[bodyLines.length - 1]!.end);
  const innerFences = bodyLines.filter((line) => isFenceLine(line.text));
  if (innerFences.length === 0) return undefined;
  const templates = lex(body, { guessTemplateContent: true }).tokens.filter((token) => token.kind === 'template');
  const insideTemplate = (offset: number): boolean =>
    templates.some((token) => token.start < offset && offset < token.end);
  if (!innerFences.every((line) => insideTemplate(line.start - bodyStart))) return undefined;
  return {
    kind: 'fence',
    body,
    start: bodyStart,
    language,
    marker,
    lineOffset: openIndex + 1,
    prose,
    closed: closeIndex < lines.length ? 'line' : 'missing',
  };
}

function findOuterFence(code: string): FenceMatch {
  if (code.indexOf('```') === -1 && code.indexOf('~~~') === -1) return { kind: 'none' };
  const lines = splitLines(code);
  let openIndex = -1;
  let codeOnOpener: RegExpExecArray | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (OPENER.test(line.text)) {
      openIndex = index;
      break;
    }
    codeOnOpener = OPENER_WITH_CODE.exec(line.text);
    if (codeOnOpener && PROGRAM_LANGUAGES.has(codeOnOpener[2]!.toLowerCase())) {
      openIndex = index;
      break;
    }
    codeOnOpener = null;
    if (!isBlank(line.text) && (CODE_CHARACTERS.test(line.text) || !/\p{L}/u.test(line.text)))
      return findStrayCloser(code, lines);
  }
  if (openIndex === -1) return findStrayCloser(code, lines);
  const before = lines.slice(0, openIndex);
  const prose = !before.every((line) => isBlank(line.text));
  if (prose && !isProse(before)) return { kind: 'none' };

  const opener = codeOnOpener ?? OPENER.exec(lines[openIndex]!.text)!;
  const marker = opener[1]!;
  const language = opener[2]!.toLowerCase();
  if (!PROGRAM_LANGUAGES.has(language)) return { kind: 'foreign', language, line: openIndex + 1 };

  const openLine = lines[openIndex]!;
  const bodyStart = codeOnOpener
    ? openLine.start + codeOnOpener[0].length
    : openIndex + 1 < lines.length
      ? lines[openIndex + 1]!.start
      : code.length;
  let closeIndex = -1;
  for (let index = openIndex + 1; index < lines.length; index++) {
    if (closesFence(lines[index]!.text, marker)) {
      closeIndex = index;
      break;
    }
  }
  let body: string;
  let closed: 'line' | 'same-line' | 'missing';
  if (closeIndex !== -1) {
    body = closeIndex === openIndex + 1 && !codeOnOpener ? '' : code.slice(bodyStart, lines[closeIndex - 1]!.end);
    closed = 'line';
    const after = lines.slice(closeIndex + 1);
    if (after.some((line) => OPENER.test(line.text))) return { kind: 'ambiguous', line: closeIndex + 2 };
    if (!isTrailingProse(after)) {
      const codeLine = after.findIndex((line) => !isBlank(line.text));
      return { kind: 'code-after-fence', line: closeIndex + 2 + codeLine };
    }
  } else {
    let last = lines.length - 1;
    while (last > openIndex && isBlank(lines[last]!.text)) last--;
    const lastLine = lines[last]!;
    const trailing = lastLine.text.trimEnd();
    if ((last > openIndex || codeOnOpener) && trailing.endsWith(marker) && !trailing.endsWith(marker + marker[0])) {
      const markerAt = lastLine.start + trailing.length - marker.length;
      body = code.slice(bodyStart, markerAt);
      closed = 'same-line';
    } else {
      body = last > openIndex || codeOnOpener ? code.slice(bodyStart, lastLine.end) : '';
      closed = 'missing';
    }
  }
  return {
    kind: 'fence',
    body,
    start: bodyStart,
    language,
    marker,
    lineOffset: codeOnOpener ? openIndex : openIndex + 1,
    prose,
    closed,
  };
}
