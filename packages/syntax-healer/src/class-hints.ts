/**
 * Diagnostics that name what was found when a program is refused: typographic quotes at line 3, an HTML entity,
 * `\n` written as text, a zero-width character, a `#` comment, prose around the code, leaked tool-call markup. The
 * host's own message for these ("Invalid or unexpected token", or a string "cut off" by the apostrophe of "That's
 * it.") sends the model looking for the wrong thing; with the class named it can fix the program itself.
 *
 * Also the "code left out" check: a repaired program holding a marker such as `// ... rest unchanged` is not the
 * whole program, so it is not run.
 */
import { hasZeroWidth, isZeroWidthUnit, scanCode } from './code-scan.js';
import { markupTagOffset } from './leaked-markup.js';
import { proseLineRange } from './prose.js';
import { positionOf } from './repairs.js';
import type { Diagnostic } from './types.js';

const NOT_RUN = 'The program was not run.';
const TRIGGERS = /[\u2018\u2019\u201c\u201d#&]|\\[nrt"]/;

/** The first transport class found in `code`, as a diagnostic with its position in `code`, or undefined. */
export function classHint(code: string): Diagnostic | undefined {
  // A line that is only `...` does not compile: the program is incomplete, whatever else is found.
  const leftOut = codeLeftOut(code);
  if (leftOut) return leftOut;
  const at = code.includes('<') ? markupTagOffset(code) : undefined;
  if (at !== undefined) {
    return {
      kind: 'tool-markup',
      message: `The program holds tool-call markup (${code.slice(at, at + 40).split(/[\r\n]/)[0]}) at line ${positionOf(code, at).line}: send only the program as the \`code\` argument, without tags. ${NOT_RUN}`,
      ...positionOf(code, at),
    };
  }
  if (TRIGGERS.test(code) || hasZeroWidth(code)) {
    const scan = scanCode(code);
    for (let range = 0; range < scan.code.length; range += 2) {
      for (let index = scan.code[range]!; index < scan.code[range + 1]!; index++) {
        const found = classAt(code, index);
        if (found) {
          const where = positionOf(code, index);
          return {
            kind: found.kind,
            message: `${found.what} at line ${where.line}, column ${where.column}: ${found.fix} ${NOT_RUN}`,
            ...where,
          };
        }
      }
    }
  }
  const prose = proseLineRange(code);
  if (prose) {
    return {
      kind: 'surrounding-prose',
      message: `Line ${prose.line} is prose, not code: send only the program as the \`code\` argument, without explanations before or after it. ${NOT_RUN}`,
      line: prose.line,
      column: 1,
    };
  }
  return undefined;
}

function classAt(code: string, index: number): { kind: Diagnostic['kind']; what: string; fix: string } | undefined {
  const char = code[index]!;
  if (/[\u2018\u2019\u201c\u201d]/.test(char)) {
    return {
      kind: 'typographic-quotes',
      what: `A typographic quote (${char}) is used as a string delimiter`,
      fix: `JavaScript strings need straight quotes (' or "); write them where the string starts and ends.`,
    };
  }
  if (isZeroWidthUnit(char.charCodeAt(0))) {
    return {
      kind: 'zero-width',
      what: `An invisible character (U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) is in the code`,
      fix: 'remove it (retype the line).',
    };
  }
  if (
    char === '&' &&
    /^&(?:lt|gt|amp|quot|apos|nbsp|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});/.test(code.slice(index, index + 10))
  ) {
    return {
      kind: 'html-entities',
      what: `An HTML entity (${code.slice(index, code.indexOf(';', index) + 1)}) stands for a character`,
      fix: 'write the character itself (<, >, &, ").',
    };
  }
  if (char === '\\' && /[nrt"]/.test(code[index + 1] ?? '')) {
    return {
      kind: 'escaped-program',
      what: `An escape (\\${code[index + 1]}) is written as text outside a string`,
      fix: 'the program was JSON-escaped once too often; send it with real line breaks and quotes.',
    };
  }
  if (char === '#' && /^#(?:[ \t#!\r\n]|$)/.test(code.slice(index, index + 2))) {
    return {
      kind: 'hash-comment',
      what: code.startsWith('#!', index)
        ? 'A hashbang line (#!) is not allowed in a run_code program'
        : 'A # comment is not JavaScript',
      fix: code.startsWith('#!', index) ? 'remove the #! line.' : 'write comments with //.',
    };
  }
  return undefined;
}

/**
 * A marker saying code was left out (`// ... rest unchanged`, `/* existing code *\/`, a line that is only `...`): the
 * line of the first one, or undefined.
 */
const LEFT_OUT =
  /^[ \t]*(?:(?:\/\/|\/\*|#)[ \t]*(?:\.{3}|…)|(?:\/\/|\/\*)[^\n]{0,40}\b(?:rest|remainder|remaining|existing|other|previous|same)\b[^\n]{0,40}\b(?:unchanged|omitted|as before|code|here|stays|remains)\b|(?:\.{3}|…)[ \t]*$)/im;

export function codeLeftOut(code: string): Diagnostic | undefined {
  const match = LEFT_OUT.exec(code);
  if (!match) return undefined;
  const line = positionOf(code, match.index + (code[match.index] === '\n' ? 1 : 0)).line;
  return {
    kind: 'code-left-out',
    message: `Line ${line} says code was left out (${match[0].trim().slice(0, 40)}), so this is not the whole program: send the complete program. ${NOT_RUN}`,
    line,
    column: 1,
  };
}
