/**
 * The text of a Python triple-quoted string as a JavaScript template literal with the SAME value.
 *
 * Python and JavaScript read backslashes differently: Python keeps the backslash of an unknown escape (`"\d"` is
 * backslash + d, so `"""C:\Users\me"""` keeps its backslashes), a template literal drops it (`\d` is just d), and
 * `\a`, `\U0001F600` and octal `\101` mean different things or nothing in a template. Each escape is therefore
 * rewritten to the one that gives Python's character; anything Python would reject (`\x4`, `\u12`) or that needs
 * Python's Unicode name table (`\N{…}`) gives undefined, and the repair is not proposed.
 */

/** Escapes that read the same in a Python string and a JavaScript template literal (`\x` and `\u` are checked apart). */
const SAME_MEANING = new Set(['\\', "'", '"', 'b', 'f', 'n', 'r', 't', 'v', '\n', '\r']);

function hexEscape(codePoint: number): string {
  return codePoint <= 0xffff ? '\\u' + codePoint.toString(16).padStart(4, '0') : '\\u{' + codePoint.toString(16) + '}';
}

/** The body of a template literal whose value equals the Python (non-raw, str) string with this source text. */
export function pythonStringToTemplate(text: string): string | undefined {
  let output = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '`') {
      output += '\\`';
      continue;
    }
    if (char === '$' && text[index + 1] === '{') {
      output += '\\$';
      continue;
    }
    if (char !== '\\') {
      output += char;
      continue;
    }
    const next = text[index + 1];
    if (next === undefined) return undefined;
    if (SAME_MEANING.has(next)) {
      output += '\\' + next;
      index++;
    } else if (next === 'a') {
      output += '\\x07';
      index++;
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const digits = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const hex = text.slice(index + 2, index + 2 + digits);
      if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(hex)) return undefined;
      const codePoint = Number.parseInt(hex, 16);
      if (codePoint > 0x10ffff) return undefined;
      output += hexEscape(codePoint);
      index += 1 + digits;
    } else if (next >= '0' && next <= '7') {
      const octal = /^[0-7]{1,3}/.exec(text.slice(index + 1))![0];
      output += hexEscape(Number.parseInt(octal, 8));
      index += octal.length;
    } else if (next === 'N') {
      return undefined;
    } else {
      // An unknown escape: Python keeps the backslash, so the template needs it doubled. The character after it is
      // read on the next turn (a backtick or `${` still gets its own escape).
      output += '\\\\';
    }
  }
  return output;
}
