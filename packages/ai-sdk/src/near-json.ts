/**
 * Reading near-JSON tool arguments (single quotes, unquoted keys, trailing commas, comments, Python constants,
 * raw line breaks in strings) with `jsonrepair`, gated so a reading is used only when it is the one obvious
 * reading: the text must be one complete object (every string and bracket closed, nothing cut off or left
 * over), and every quoted string the model wrote must survive as one key or string value.
 */
import { jsonrepair } from 'jsonrepair';

/** Longest argument text this reads (the same bound core-rules uses for unwrapping). */
export const MAX_NEAR_JSON_CHARS = 4 * 1024 * 1024;

export type NearJsonReading = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

interface Shape {
  closed: boolean;
  reason?: string;
  /** The raw text between the quotes of every quoted string, with its quote character. */
  strings: { quote: string; raw: string }[];
}

/** Walks the text the way a reader that knows nothing but quotes, escapes, comments and brackets would. */
function scanShape(text: string): Shape {
  const strings: Shape['strings'] = [];
  const open: string[] = [];
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{')
    return { closed: false, reason: 'the arguments do not start with "{"', strings };
  let i = start;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '"' || char === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== char) j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) return { closed: false, reason: 'the arguments end inside a string (cut off)', strings };
      strings.push({ quote: char, raw: text.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    if (char === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return { closed: false, reason: 'the arguments end inside a comment (cut off)', strings };
      i = end + 2;
      continue;
    }
    if (char === '{' || char === '[') open.push(char === '{' ? '}' : ']');
    if (char === '}' || char === ']') {
      if (open.pop() !== char)
        return { closed: false, reason: `a "${char}" does not match the bracket it closes`, strings };
      if (open.length === 0) {
        const rest = text.slice(i + 1).trim();
        if (rest !== '') return { closed: false, reason: 'text follows the closing "}"', strings };
        return { closed: true, strings };
      }
    }
    i += 1;
  }
  return { closed: false, reason: 'the arguments end before every bracket is closed (cut off)', strings };
}

/** The value a quoted string stands for (read as JSON would read it), or undefined when its escapes are not clear. */
function decodeQuoted(quote: string, raw: string): string | undefined {
  let body = '';
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i] as string;
    if (char === '\\') {
      const next = raw[i + 1] ?? '';
      body += quote === "'" && next === "'" ? "'" : `\\${next}`;
      i += 1;
    } else if (char === '"') body += '\\"';
    else if (char === '\n') body += '\\n';
    else if (char === '\r') body += '\\r';
    else if (char === '\t') body += '\\t';
    else body += char;
  }
  try {
    const value: unknown = JSON.parse(`"${body}"`);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function collectStrings(value: unknown, into: Set<string>, depth = 0): void {
  if (depth > 64) return;
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into, depth + 1);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      collectStrings(item, into, depth + 1);
    }
  }
}

/** Reads near-JSON arguments as an object when exactly one reading is obvious; never throws. */
export function readNearJson(text: string): NearJsonReading {
  if (typeof text !== 'string') return { ok: false, reason: 'arguments are not text' };
  if (text.length > MAX_NEAR_JSON_CHARS) return { ok: false, reason: 'arguments are too long to read as near-JSON' };
  const shape = scanShape(text);
  if (!shape.closed) return { ok: false, reason: `near-JSON not read: ${shape.reason}` };
  let value: unknown;
  try {
    value = JSON.parse(jsonrepair(text));
  } catch {
    return { ok: false, reason: 'near-JSON not read: no reading of the text as JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'near-JSON not read: not an object' };
  const kept = new Set<string>();
  collectStrings(value, kept);
  for (const { quote, raw } of shape.strings) {
    const decoded = decodeQuoted(quote, raw);
    if (decoded === undefined || !kept.has(decoded)) {
      return { ok: false, reason: 'near-JSON not read: the quotes allow more than one reading' };
    }
  }
  return { ok: true, value: value as Record<string, unknown> };
}
