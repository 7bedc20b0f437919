/**
 * A session log is hostile input: a tool name, an error code, a model name or an error text can hold terminal
 * control sequences (an OSC 52 that replaces the clipboard, a title change, a screen clear that then prints a false
 * "all good"). Everything `analyze` writes to a terminal goes through {@link visibleText}, which shows every
 * control character as a visible escape instead of sending it: C0 (including ESC, BEL, CR, LF, TAB), DEL, C1
 * (including the 8-bit CSI and OSC introducers) and the Unicode bidirectional controls, which reorder what is shown
 * (a "Trojan Source" line). `--json` output gets the same characters as `\uXXXX` JSON escapes, so it stays valid JSON.
 */

// C0, DEL, C1, and the bidi embeddings, overrides, isolates and marks (LRM, RLM, ALM).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const JSON_UNESCAPED_CONTROL = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const hex = (char: string, digits: number) => char.charCodeAt(0).toString(16).padStart(digits, '0');

/** `text` with every control character shown as `\xNN` (C0, DEL, C1) or `\u{NNNN}` (bidi controls). */
export function visibleText(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    if (code === 0x0a) return '\\n';
    if (code === 0x09) return '\\t';
    if (code === 0x0d) return '\\r';
    return code <= 0x9f ? `\\x${hex(char, 2)}` : `\\u{${hex(char, 4)}}`;
  });
}

/**
 * JSON text (from `JSON.stringify`, which escapes C0 only) with DEL, C1 and the bidi controls escaped as `\uXXXX`
 * too. These characters can only occur inside JSON strings, where the escape means the same character.
 */
export function visibleJson(json: string): string {
  return json.replace(JSON_UNESCAPED_CONTROL, (char) => `\\u${hex(char, 4)}`);
}
