/**
 * Where a program's text is code and where it is string, template, comment or regex content: the one question every
 * "transport" repair asks (typographic quotes, HTML entities, escaped line breaks, zero-width characters, `#`
 * comments), because a repair may only touch code positions: a curly quote, an entity, a zero-width joiner or a `#`
 * inside a string is the program's own text and stays.
 *
 * One linear pass, no allocation per character. Two readings are switched on by options:
 * - `curlyStrings`: `“…”` and `‘…’` (and a straight string closed by a curly quote, `"/content”`) are read as string
 *   literals, with the closer rules in `closeCurly` below;
 * - `escapedLineBreaks`: a literal `\n` (backslash, n) in code ends a line comment, as it would once unescaped.
 */

export interface CurlyString {
  /** Offset of the opening quote and of the closing quote (both are replaced; the content between is kept). */
  open: number;
  close: number;
  family: '"' | "'";
  /** The string has more than one closer the rules accept (`‘it’, he said’`): another reading exists. */
  otherCloser?: number;
}

export interface CodeScan {
  /** Code ranges `[start, end)`: everything outside strings, templates' text, comments and regex literals. */
  code: number[];
  /** Curly-quoted strings found (only with `curlyStrings`). */
  curly: CurlyString[];
  /** A curly quote in code that no rule could pair (only with `curlyStrings`). */
  unpaired?: number;
}

export interface ScanOptions {
  curlyStrings?: boolean;
  /** With `curlyStrings`: take each string's LAST acceptable closer (the other reading), not its first. */
  lastCloser?: boolean;
  escapedLineBreaks?: boolean;
}

const LEFT_DOUBLE = 0x201c;
const RIGHT_DOUBLE = 0x201d;
const LEFT_SINGLE = 0x2018;
const RIGHT_SINGLE = 0x2019;

function familyOf(unit: number): '"' | "'" | undefined {
  if (unit === LEFT_DOUBLE || unit === RIGHT_DOUBLE) return '"';
  if (unit === LEFT_SINGLE || unit === RIGHT_SINGLE) return "'";
  return undefined;
}

function isWordUnit(unit: number): boolean {
  return (
    (unit >= 0x30 && unit <= 0x39) ||
    ((unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7a) ||
    unit === 0x24 ||
    unit === 0x5f ||
    (unit >= 0xc0 && unit !== 0x2018 && unit !== 0x2019 && unit !== 0x201c && unit !== 0x201d && unit < 0x2000)
  );
}

function isLineBreak(unit: number): boolean {
  return unit === 0x0a || unit === 0x0d || unit === 0x2028 || unit === 0x2029;
}

/**
 * A quote closes a string only where JavaScript can go on after a string: the next non-blank character is not a
 * word character or a quote (`‘it’s’`: the apostrophe is followed by `s`; `models’ outputs` by a word).
 */
function canCloseAt(text: string, index: number): boolean {
  let next = index + 1;
  while (text.charCodeAt(next) === 0x20 || text.charCodeAt(next) === 0x09) next++;
  if (next >= text.length) return true;
  const unit = text.charCodeAt(next);
  if (isLineBreak(unit)) return true;
  if (isWordUnit(unit) || familyOf(unit) !== undefined || unit === 0x22 || unit === 0x27 || unit === 0x60) return false;
  return true;
}

/** Words after which `/` starts a regular expression rather than a division. */
const REGEX_AFTER_WORDS = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'await',
  'yield',
]);

/** A curly string's closer is looked for this far at most: a pathological line cannot make the scan quadratic. */
const MAX_CURLY_STRING = 2000;

/**
 * The closer of a curly string opened at `open` (family `family`), on the same line: the first quote of the family
 * (or the straight quote) at nesting depth 0 where JavaScript can go on. A left quote inside nests (`“say “hi” now”`).
 * `otherCloser` is a later acceptable closer with no opener of the family before it (a second reading).
 */
function closeCurly(
  text: string,
  open: number,
  family: '"' | "'",
  last: boolean,
): { close: number; otherCloser?: number } | undefined {
  const left = family === '"' ? LEFT_DOUBLE : LEFT_SINGLE;
  const right = family === '"' ? RIGHT_DOUBLE : RIGHT_SINGLE;
  const straight = family === '"' ? 0x22 : 0x27;
  let depth = 0;
  let first: number | undefined;
  let other: number | undefined;
  const stop = Math.min(text.length, open + 1 + MAX_CURLY_STRING);
  for (let index = open + 1; index < stop; index++) {
    const unit = text.charCodeAt(index);
    if (isLineBreak(unit)) break;
    if (unit === 0x5c) {
      index++;
      continue;
    }
    if (unit === left && depth === 0 && first !== undefined) break; // the next string of the family starts
    if (unit === left && !canCloseAt(text, index)) {
      depth++;
      continue;
    }
    if (unit === right || unit === straight || unit === left) {
      if (depth > 0 && unit === right) {
        depth--;
        continue;
      }
      if (!canCloseAt(text, index)) continue;
      if (first === undefined) first = index;
      else if (unit !== straight) other = index; // a straight quote inside a curly string is content, not a second reading
    }
  }
  if (first === undefined) return undefined;
  return last && other !== undefined ? { close: other, otherCloser: first } : { close: first, otherCloser: other };
}

/** Scans `text` once; see the module comment. */
export function scanCode(text: string, options: ScanOptions = {}): CodeScan {
  const code: number[] = [];
  const curly: CurlyString[] = [];
  let unpaired: number | undefined;
  let codeStart = 0;
  /** Brace depth of each open `${`, innermost last: a `}` at depth 0 there returns to the template. */
  const templateBraces: number[] = [];
  let braces = 0;
  /** The last significant code character (or word) seen, for the regex-or-division question. */
  let lastSignificant = 0;
  let lastWord = '';
  const endCode = (at: number): void => {
    if (at > codeStart) code.push(codeStart, at);
  };
  let index = 0;
  const length = text.length;
  /** Skips the text of a template from `index` (just after a backtick or a `}` closing `${`); returns where code resumes. */
  const skipTemplate = (from: number): number => {
    let at = from;
    while (at < length) {
      const unit = text.charCodeAt(at);
      if (unit === 0x5c) {
        at += 2;
        continue;
      }
      if (unit === 0x60) return at + 1;
      if (unit === 0x24 && text.charCodeAt(at + 1) === 0x7b) {
        templateBraces.push(braces);
        braces = 0;
        return at + 2;
      }
      at++;
    }
    return length;
  };
  while (index < length) {
    const unit = text.charCodeAt(index);
    // Strings.
    if (unit === 0x22 || unit === 0x27) {
      endCode(index);
      let at = index + 1;
      let closed = false;
      let curlyCloser = -1;
      while (at < length) {
        const inner = text.charCodeAt(at);
        if (inner === 0x5c) {
          at += 2;
          continue;
        }
        if (inner === unit) {
          closed = true;
          break;
        }
        if (isLineBreak(inner)) break;
        if (
          options.curlyStrings &&
          curlyCloser === -1 &&
          familyOf(inner) === (unit === 0x22 ? '"' : "'") &&
          canCloseAt(text, at)
        )
          curlyCloser = at;
        at++;
      }
      if (!closed && curlyCloser !== -1) {
        // `"/content”`: a straight string closed by a curly quote.
        curly.push({ open: index, close: curlyCloser, family: unit === 0x22 ? '"' : "'" });
        at = curlyCloser;
      }
      index = at + 1;
      codeStart = index;
      lastSignificant = 0x22;
      continue;
    }
    if (unit === 0x60) {
      endCode(index);
      index = skipTemplate(index + 1);
      codeStart = index;
      lastSignificant = 0x60;
      continue;
    }
    if (unit === 0x7b) braces++;
    if (unit === 0x7d) {
      if (braces === 0 && templateBraces.length > 0) {
        endCode(index);
        braces = templateBraces.pop()!;
        index = skipTemplate(index + 1);
        codeStart = index;
        lastSignificant = 0x60;
        continue;
      }
      braces--;
    }
    if (unit === 0x2f) {
      const next = text.charCodeAt(index + 1);
      if (next === 0x2f) {
        endCode(index);
        let at = index + 2;
        while (at < length && !isLineBreak(text.charCodeAt(at))) {
          if (options.escapedLineBreaks && text.charCodeAt(at) === 0x5c && text.charCodeAt(at + 1) === 0x6e) break;
          at++;
        }
        index = at;
        codeStart = index;
        continue;
      }
      if (next === 0x2a) {
        endCode(index);
        const close = text.indexOf('*/', index + 2);
        index = close === -1 ? length : close + 2;
        codeStart = index;
        continue;
      }
      const regex =
        lastSignificant === 0 ||
        (lastSignificant !== 0x29 &&
          lastSignificant !== 0x5d &&
          lastSignificant !== 0x7d &&
          lastSignificant !== 0x22 &&
          lastSignificant !== 0x60 &&
          lastSignificant !== 0x61) ||
        (lastSignificant === 0x61 && REGEX_AFTER_WORDS.has(lastWord));
      if (regex) {
        endCode(index);
        let at = index + 1;
        let inClass = false;
        while (at < length && !isLineBreak(text.charCodeAt(at))) {
          const inner = text.charCodeAt(at);
          if (inner === 0x5c) at++;
          else if (inner === 0x5b) inClass = true;
          else if (inner === 0x5d) inClass = false;
          else if (inner === 0x2f && !inClass) break;
          at++;
        }
        index = at + 1;
        while (index < length && isWordUnit(text.charCodeAt(index))) index++;
        codeStart = index;
        lastSignificant = 0x22;
        continue;
      }
    }
    // Once a quote could not be paired the reading is void (the class proposes nothing): stop looking for strings.
    if (options.curlyStrings && unpaired === undefined) {
      const family = familyOf(unit);
      if (family !== undefined) {
        const closer = closeCurly(text, index, family, options.lastCloser === true);
        if (closer === undefined) {
          unpaired ??= index;
        } else {
          endCode(index);
          curly.push({ open: index, close: closer.close, family, otherCloser: closer.otherCloser });
          index = closer.close + 1;
          codeStart = index;
          lastSignificant = 0x22;
          continue;
        }
      }
    }
    // The regex-or-division state: words are marked 0x61 ('a'), everything else by its own unit.
    if (isWordUnit(unit)) {
      let end = index + 1;
      while (end < length && isWordUnit(text.charCodeAt(end))) end++;
      lastWord = text.slice(index, end);
      lastSignificant = 0x61;
      index = end;
      continue;
    }
    if (unit !== 0x20 && unit !== 0x09 && !isLineBreak(unit)) lastSignificant = unit;
    index++;
  }
  endCode(length);
  return unpaired === undefined ? { code, curly } : { code, curly, unpaired };
}

/**
 * Zero-width characters that are neither whitespace nor (at the start of a name) part of a name in JavaScript:
 * U+200B, U+200C, U+200D, U+2060, U+180E and the soft hyphen U+00AD (U+FEFF is whitespace there). Tested by code
 * unit: a character class holding U+200D reads as an emoji sequence to linters.
 */
export function isZeroWidthUnit(unit: number): boolean {
  return unit === 0x200b || unit === 0x200c || unit === 0x200d || unit === 0x2060 || unit === 0x180e || unit === 0x00ad;
}

/** True when some character of `text` is zero-width (see isZeroWidthUnit). */
export function hasZeroWidth(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (isZeroWidthUnit(text.charCodeAt(index))) return true;
  return false;
}

/** True when `offset` lies in one of the scan's code ranges. */
export function inCode(scan: CodeScan, offset: number): boolean {
  const ranges = scan.code;
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (offset < ranges[middle * 2]!) high = middle - 1;
    else if (offset >= ranges[middle * 2 + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}
