/**
 * Repairs for what the way to the host did to a program rather than what the model wrote wrong (issue 31): a text
 * renderer's typographic quotes, a JSON layer too many (`\n` and `\"` as text), HTML entities from a rendered page,
 * zero-width characters, `#` comment lines and a hashbang, and prose around unfenced code.
 *
 * Each class proposes its reading, and where the text allows a second one (an entity inside a string, a quote with
 * two possible closers, a zero-width space between two words), that one too: `healProgram` compiles them all, and two
 * that compile mean no repair. A class only touches code positions (see code-scan.ts): the characters inside the
 * program's strings, templates and comments are kept exactly. A class that finds its trigger but no reading returns
 * not-applicable; the diagnostic then names the class (class-hints.ts).
 */
import { type CodeScan, type CurlyString, hasZeroWidth, inCode, isZeroWidthUnit, scanCode } from './code-scan.js';
import { looksLikeOtherLanguage } from './diagnose.js';
import { proseLineRange } from './prose.js';
import type { RepairOutcome } from './repairs.js';
import { positionOf } from './repairs.js';
import type { Repair } from './types.js';

const NOT_APPLICABLE: RepairOutcome = { kind: 'not-applicable' };

/** The candidate, plus the other readings that differ from it. */
function withReadings(main: string, others: readonly (string | undefined)[], repair: Repair): RepairOutcome {
  const alternatives = [...new Set(others.filter((other): other is string => other !== undefined && other !== main))];
  return alternatives.length > 0
    ? { kind: 'candidate', code: main, repair, alternatives }
    : { kind: 'candidate', code: main, repair };
}

const CURLY = /[\u2018\u2019\u201c\u201d]/;

/** A curly-quoted string rewritten with straight delimiters; a straight quote of the same kind inside is escaped. */
function straighten(text: string, strings: readonly CurlyString[]): string {
  let out = '';
  let last = 0;
  for (const string of strings) {
    const quote = string.family;
    out += text.slice(last, string.open) + quote;
    const content = text.slice(string.open + 1, string.close);
    let escaped = '';
    for (let index = 0; index < content.length; index++) {
      const char = content[index]!;
      if (char === '\\') {
        escaped += char + (content[index + 1] ?? '');
        index++;
      } else escaped += char === quote ? `\\${quote}` : char;
    }
    out += escaped + quote;
    last = string.close + 1;
  }
  return out + text.slice(last);
}

/** Typographic quotes used as string delimiters (`“…”`, `‘…’`, or one end of a straight string) become straight ones. */
export function repairTypographicQuotes(code: string): RepairOutcome {
  if (!CURLY.test(code)) return NOT_APPLICABLE;
  // The first acceptable closer of each string, and (where a string has another, or the first reading leaves a quote
  // unpaired) the last one: each reading that pairs every quote is proposed.
  const scan = scanCode(code, { curlyStrings: true });
  const second =
    scan.unpaired !== undefined || scan.curly.some((string) => string.otherCloser !== undefined)
      ? scanCode(code, { curlyStrings: true, lastCloser: true })
      : undefined;
  const readings = [scan, second].filter(
    (reading): reading is CodeScan =>
      reading !== undefined && reading.unpaired === undefined && reading.curly.length > 0,
  );
  if (readings.length === 0) return NOT_APPLICABLE;
  const main = straighten(code, readings[0]!.curly);
  const other = readings[1] ? straighten(code, readings[1].curly) : undefined;
  return withReadings(main, [other], {
    kind: 'typographic-quotes',
    strings: readings[0]!.curly.length,
    line: positionOf(code, readings[0]!.curly[0]!.open).line,
  });
}

/**
 * A program JSON-escaped once too often: `\n` (and `\r`, `\t`) and `\"` are text. Two readings: one JSON string layer
 * decoded (everything, strings included: `'a\\nb'` becomes `'a\nb'`), and only the line breaks written in code
 * positions (a `\n` inside a string stays the escape the program meant).
 */
export function repairEscapedProgram(code: string): RepairOutcome {
  if (!code.includes('\\n') && !code.includes('\\"')) return NOT_APPLICABLE;
  const quoted = quotedProgram(code);
  if (quoted !== undefined)
    return { kind: 'candidate', code: quoted, repair: { kind: 'escaped-program', reading: 'json-string' } };
  let decoded: string | undefined;
  if (!/[\r\n]/.test(code)) {
    try {
      decoded = JSON.parse(`"${code}"`) as string;
    } catch {
      decoded = undefined;
    }
  }
  let breaks: string | undefined;
  if (code.includes('\\n')) {
    const scan = scanCode(code, { escapedLineBreaks: true });
    let out = '';
    let last = 0;
    for (let range = 0; range < scan.code.length; range += 2) {
      for (let index = scan.code[range]!; index < scan.code[range + 1]!; index++) {
        if (code.charCodeAt(index) !== 0x5c) continue;
        const next = code[index + 1];
        const replacement = next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : undefined;
        if (replacement === undefined) continue;
        out += code.slice(last, index) + replacement;
        last = index + 2;
        index++;
      }
    }
    if (last > 0) breaks = out + code.slice(last);
  }
  const main = decoded ?? breaks;
  if (main === undefined || main === code) return NOT_APPLICABLE;
  return withReadings(main, [breaks], {
    kind: 'escaped-program',
    reading: decoded !== undefined ? 'json' : 'line-breaks',
  });
}

/**
 * The program sent as a JSON string, quotes included (`"const a = 1;\nreturn a;"`): it compiles, as a directive that
 * does nothing. Its value when it holds a line break and a statement (a program, not a message), else undefined.
 */
const STATEMENT = /(?:^|\n)[ \t]*(?:const|let|var|return|await|if|for|while|function|class|try|throw)\b|[\w$]\(/;

export function quotedProgram(code: string): string | undefined {
  const trimmed = code.trim();
  if (trimmed.length < 4 || trimmed[0] !== '"' || trimmed[trimmed.length - 1] !== '"') return undefined;
  try {
    const value = JSON.parse(trimmed) as unknown;
    return typeof value === 'string' && value.includes('\n') && STATEMENT.test(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const ENTITY = /&(?:lt|gt|amp|quot|apos|nbsp|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntity(entity: string): string {
  const name = entity.slice(1, -1);
  if (name[0] !== '#') return NAMED[name]!;
  const value =
    name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
  return value > 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff) ? String.fromCodePoint(value) : entity;
}

/**
 * HTML entities from a rendered page (`&lt;`, `=&gt;`, `&amp;&amp;`, `&quot;`). Two readings: every entity decoded
 * (the whole program was escaped), and only those in code positions (an entity inside a string is the program's own
 * text). When both compile and differ, the program is left alone.
 */
export function repairHtmlEntities(code: string): RepairOutcome {
  if (!code.includes('&')) return NOT_APPLICABLE;
  ENTITY.lastIndex = 0;
  if (!ENTITY.test(code)) return NOT_APPLICABLE;
  const everywhere = code.replace(ENTITY, decodeEntity);
  const scan = scanCode(code);
  let inCodeOnly = '';
  let last = 0;
  let count = 0;
  for (const match of code.matchAll(ENTITY)) {
    if (!inCode(scan, match.index)) continue;
    count++;
    inCodeOnly += code.slice(last, match.index) + decodeEntity(match[0]);
    last = match.index + match[0].length;
  }
  inCodeOnly += code.slice(last);
  const main = count > 0 ? inCodeOnly : everywhere;
  const first = code.search(ENTITY);
  return withReadings(main, [everywhere], { kind: 'html-entities', line: positionOf(code, first).line });
}

const RESERVED_BEFORE =
  /(?:^|[^\p{L}\p{Nd}$_])(?:const|let|var|return|await|function|async|if|else|for|while|of|in|new|typeof|throw|class|import|export)$/u;

/**
 * True when code positions hold a named HTML entity whose name (`gt`, `lt`, `amp`, `quot`, `apos`, `nbsp`) appears
 * nowhere else in the program: such a program may compile (`a &gt; b;` reads as `a & gt; b`) but fails when run. A
 * program that declares or uses the name elsewhere (`const amp = 3; x &amp;`) is not read this way.
 */
export function entitiesReadAsCode(code: string): boolean {
  if (!code.includes('&')) return false;
  const names = new Set<string>();
  let scan: ReturnType<typeof scanCode> | undefined;
  for (const match of code.matchAll(ENTITY)) {
    if (match[0][1] === '#') continue;
    scan ??= scanCode(code);
    if (inCode(scan, match.index)) names.add(match[0].slice(1, -1));
  }
  if (names.size === 0) return false;
  const rest = code.replace(ENTITY, ' ');
  return [...names].every((name) => !new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(rest));
}

/**
 * Zero-width characters in code positions are removed. One that sits between two word characters may have been a
 * word break (`a\u200bb`): then a space is the second reading. A joiner (U+200C/U+200D) right after a name is part
 * of that name in JavaScript and is kept, unless the name is a keyword (`const\u200d x`).
 */
export function repairZeroWidth(code: string): RepairOutcome {
  if (!hasZeroWidth(code)) return NOT_APPLICABLE;
  const scan = scanCode(code);
  let removed = '';
  let spaced = '';
  let last = 0;
  let count = 0;
  let joinsWords = false;
  for (let range = 0; range < scan.code.length; range += 2) {
    for (let index = scan.code[range]!; index < scan.code[range + 1]!; index++) {
      const unit = code.charCodeAt(index);
      if (!isZeroWidthUnit(unit)) continue;
      const before = code.slice(Math.max(0, index - 12), index);
      const wordBefore = /[\p{L}\p{Nd}$_]$/u.test(before);
      if ((unit === 0x200c || unit === 0x200d) && wordBefore && !RESERVED_BEFORE.test(before)) continue;
      const wordAfter = /^[\p{L}\p{Nd}$_]/u.test(code[index + 1] ?? '');
      removed += code.slice(last, index);
      spaced += code.slice(last, index) + (wordBefore && wordAfter ? ' ' : '');
      if (wordBefore && wordAfter) joinsWords = true;
      last = index + 1;
      count++;
    }
  }
  if (count === 0) return NOT_APPLICABLE;
  removed += code.slice(last);
  spaced += code.slice(last);
  return withReadings(removed, [joinsWords ? spaced : undefined], { kind: 'zero-width', count });
}

/** A hashbang that names something other than a JavaScript runtime: the program is a script in that language. */
const FOREIGN_HASHBANG =
  /^#!\S*(?:\/|\s)(?:env\s+)?(?:ba|z|k|c|tc|fi)?sh\b|^#!\S*(?:\/|\s)(?:env\s+)?(?:python|ruby|perl|php)/;

/** True when the text starts with a hashbang naming a shell, Python, Ruby, Perl or PHP. */
export function namesForeignInterpreter(code: string): boolean {
  return FOREIGN_HASHBANG.test(code.trimStart());
}

/**
 * `#` comment lines (and a `#` comment after code) and a hashbang become `//` comments: a `//` is put before the `#`
 * and every character of the line is kept. `#` followed by a name is a private field (`#count`) and is not touched.
 * A hashbang that names a shell or Python, and a program that reads as another language once commented, are not
 * repaired.
 */
export function repairHashComments(code: string): RepairOutcome {
  if (!code.includes('#')) return NOT_APPLICABLE;
  if (FOREIGN_HASHBANG.test(code.trimStart())) return NOT_APPLICABLE;
  const scan = scanCode(code);
  let out = '';
  let last = 0;
  let count = 0;
  let firstLine = 0;
  for (let range = 0; range < scan.code.length; range += 2) {
    for (let index = scan.code[range]!; index < scan.code[range + 1]!; index++) {
      if (code.charCodeAt(index) !== 0x23) continue;
      const next = code[index + 1];
      if (next !== undefined && !/[ \t#!\r\n]/.test(next)) continue;
      out += `${code.slice(last, index)}//`;
      last = index;
      if (count === 0) firstLine = positionOf(code, index).line;
      count++;
      const lineEnd = code.indexOf('\n', index);
      index = lineEnd === -1 ? code.length : lineEnd;
    }
  }
  if (count === 0) return NOT_APPLICABLE;
  const healed = out + code.slice(last);
  if (looksLikeOtherLanguage(healed)) return NOT_APPLICABLE;
  return { kind: 'candidate', code: healed, repair: { kind: 'hash-comment', count, line: firstLine } };
}

/** Prose before or after unfenced code ("Here is the program:", "That's it."): those lines are removed. */
export function repairSurroundingProse(code: string): RepairOutcome {
  const range = proseLineRange(code);
  if (!range) return NOT_APPLICABLE;
  return {
    kind: 'candidate',
    code: code.slice(range.start, range.end),
    repair: { kind: 'strip-prose', before: range.linesBefore, after: range.linesAfter },
  };
}
