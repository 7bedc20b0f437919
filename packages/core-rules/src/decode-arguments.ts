/**
 * Decoding a call's `arguments` into an object. Models and transports deliver them as an object, as a JSON
 * string (the wire form: not a repair), as empty text (the host reads it as `{}`: not a repair either), as a
 * JSON string of a JSON string (encoded twice or more), wrapped in a Markdown ```json fence, or as near-JSON
 * (trailing commas, single quotes, unquoted keys, a raw newline inside a string). The last three are repairs
 * and get a receipt when the result is used. Near-JSON is repaired with `jsonrepair` only when the text is
 * complete (a cut-off text is refused, as a cut-off program is, because closing it would invent its end) and
 * has one reading: the repaired JSON must say token for token what the source says, so a backslash that is
 * not a JSON escape, a quote inside a single-quoted value, a comment or a repeated key is refused.
 */
import { jsonrepair } from 'jsonrepair';
import { DSML, dsmlParameters, withoutDsmlTags } from './dsml.js';
import { isRecord } from './tools.js';

export type Unwrapped = 'double-encoded' | 'fenced-json' | 'near-json' | 'dsml-markup';

export type DecodedArguments =
  | { ok: true; value: Record<string, unknown>; unwrapped?: Unwrapped; layers?: number }
  | { ok: false; reason: string };

/** Longest argument string the engine will unwrap or repair; the plain wire form has no limit. */
const UNWRAP_LIMIT = 4 * 1024 * 1024;
/** Most string layers peeled off arguments encoded more than once. */
const MAX_LAYERS = 4;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The text inside one Markdown fence that spans the whole string (``` or ~~~, optional `json` tag), else undefined. */
function fencedBody(text: string): string | undefined {
  const trimmed = text.trim();
  const marker = trimmed.startsWith('```') ? '```' : trimmed.startsWith('~~~') ? '~~~' : undefined;
  if (!marker || !trimmed.endsWith(marker) || trimmed.length < marker.length * 2) return undefined;
  const firstNewline = trimmed.indexOf('\n');
  if (firstNewline < 0) return undefined;
  const tag = trimmed.slice(marker.length, firstNewline).trim();
  if (tag !== '' && !/^(json|jsonc|json5)$/i.test(tag)) return undefined;
  const body = trimmed.slice(firstNewline + 1, trimmed.length - marker.length);
  return body.includes(marker) ? undefined : body;
}

/** Longest near-JSON text handed to `jsonrepair` (about 0.5 us of CPU per character, more on some texts: 64 KiB stays within the 50 ms bound). */
export const MAX_NEAR_JSON_CHARS = 64 * 1024;
/** Deepest nesting the near-JSON reader follows. */
const MAX_NEAR_JSON_DEPTH = 64;

/** What a near-JSON text says, token by token: strings decoded, bare words as written, brackets; `,` and `:` implied. */
type Reading = { ok: true; items: string[] } | { ok: false; reason: string };

const JSON_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
/** Bare words that mean a JSON literal (Python's spelling included); other bare values must stay as written. */
const LITERAL_WORDS: Record<string, string> = { True: 'true', False: 'false', None: 'null' };

type Token = { kind: 'string' | 'word' | 'punct'; text: string };

/**
 * Splits near-JSON into tokens. Strings may be double or single quoted and hold raw newlines; a backslash must
 * be a JSON escape (or `\'` inside single quotes): any other backslash (`"\d+"`, `"C:\path"`) has two readings
 * (dropped, as jsonrepair does, or kept), so the text is refused. Comments are refused too.
 */
function tokenize(text: string): { ok: true; tokens: Token[] } | { ok: false; reason: string } {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (/\s/.test(char)) {
      index++;
    } else if (char === '/' && (text[index + 1] === '/' || text[index + 1] === '*')) {
      return { ok: false, reason: 'it holds comments (// or /* */); not repaired' };
    } else if ('{}[]:,'.includes(char)) {
      tokens.push({ kind: 'punct', text: char });
      index++;
    } else if (char === '"' || char === "'") {
      const parts: string[] = [];
      let from = ++index;
      for (;;) {
        if (index >= text.length)
          return { ok: false, reason: 'it looks cut off (a string never closes); not completed' };
        const current = text[index] as string;
        if (current === char) break;
        if (current !== '\\') {
          index++;
          continue;
        }
        parts.push(text.slice(from, index));
        const next = text[index + 1];
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) {
          parts.push(String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 6), 16)));
          index += 6;
        } else if (next === "'" && char === "'") {
          parts.push("'");
          index += 2;
        } else if (next !== undefined && JSON_ESCAPES[next] !== undefined) {
          parts.push(JSON_ESCAPES[next] as string);
          index += 2;
        } else if (next === undefined) {
          return { ok: false, reason: 'it looks cut off (a string never closes); not completed' };
        } else {
          return {
            ok: false,
            reason: `a string holds a backslash that is not a JSON escape (\\${next}): kept or dropped are two readings; not repaired`,
          };
        }
        from = index;
      }
      parts.push(text.slice(from, index));
      index++;
      tokens.push({ kind: 'string', text: parts.join('') });
    } else {
      let end = index + 1;
      while (end < text.length && !/[\s{}[\]:,"']/.test(text[end] as string)) end++;
      tokens.push({ kind: 'word', text: text.slice(index, end) });
      index = end;
    }
  }
  return { ok: true, tokens };
}

/**
 * Reads `text` as exactly one object with the JSON grammar, allowing only the near-JSON liberties (either quote,
 * bare keys, raw newlines in strings, trailing commas, Python literals): no missing comma, no stray word between
 * strings (a quote inside a single-quoted value, as in `'echo 'x' y'`, leaves one), no repeated key, nothing after
 * the object. Returns what it says as a flat list, so two texts can be compared for meaning.
 */
export function readNearJson(text: string): Reading {
  const scanned = tokenize(text);
  if (!scanned.ok) return scanned;
  const { tokens } = scanned;
  const items: string[] = [];
  let position = 0;
  const cutOff = { ok: false as const, reason: 'it looks cut off (an object or list never closes); not completed' };
  const secondReading = (token: Token) => ({
    ok: false as const,
    reason: `it has a second reading at ${token.kind === 'string' ? 'a string' : `"${token.text.slice(0, 20)}"`} (a quote inside a value, a missing comma or a stray word); not repaired`,
  });
  const isPunct = (token: Token | undefined, text: string) => token?.kind === 'punct' && token.text === text;

  function value(depth: number): Reading | undefined {
    const token = tokens[position];
    if (token === undefined) return cutOff;
    if (depth > MAX_NEAR_JSON_DEPTH) return { ok: false, reason: 'it nests too deeply; not repaired' };
    position++;
    if (token.kind === 'string') items.push(`s${token.text}`);
    else if (token.kind === 'word') items.push(`w${LITERAL_WORDS[token.text] ?? token.text}`);
    else if (token.text === '{' || token.text === '[') return container(token.text, depth);
    else return secondReading(token);
    return undefined;
  }

  function container(open: string, depth: number): Reading | undefined {
    const close = open === '{' ? '}' : ']';
    const keys = new Set<string>();
    items.push(open);
    for (let first = true; ; first = false) {
      if (isPunct(tokens[position], close)) break;
      if (!first) {
        if (tokens[position] === undefined) return cutOff;
        if (!isPunct(tokens[position], ',')) return secondReading(tokens[position] as Token);
        position++;
        if (isPunct(tokens[position], close)) break;
      }
      if (open === '{') {
        const key = tokens[position];
        if (key === undefined) return cutOff;
        if (key.kind === 'punct') return secondReading(key);
        if (keys.has(key.text))
          return { ok: false, reason: `the key "${key.text.slice(0, 40)}" appears twice; not repaired` };
        keys.add(key.text);
        items.push(`s${key.text}`);
        position++;
        if (tokens[position] === undefined) return cutOff;
        if (!isPunct(tokens[position], ':')) return secondReading(tokens[position] as Token);
        position++;
      }
      const failed = value(depth + 1);
      if (failed) return failed;
    }
    position++;
    items.push(close);
    return undefined;
  }

  if (!isPunct(tokens[0], '{')) return { ok: false, reason: 'it is not an object' };
  const failed = value(0);
  if (failed) return failed;
  if (position < tokens.length) return { ok: false, reason: 'text follows the object; not repaired' };
  return { ok: true, items };
}

/**
 * The object a near-JSON text stands for. `jsonrepair` writes the JSON; the result is used only when it says
 * token for token what the source says (every string keeps its exact characters, every bare value its text,
 * Python's `True`/`False`/`None` aside), so a repair can change the spelling of the arguments, never their
 * meaning.
 */
function repairNearJson(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  if (text.length > MAX_NEAR_JSON_CHARS)
    return { ok: false, reason: `near-JSON text over ${MAX_NEAR_JSON_CHARS / 1024} KB is not repaired` };
  const source = readNearJson(text);
  if (!source.ok) return source;
  let repaired: string;
  try {
    repaired = jsonrepair(text);
  } catch {
    return { ok: false, reason: 'jsonrepair could not read it' };
  }
  const result = readNearJson(repaired);
  const parsed = parseJson(repaired);
  if (!result.ok || !parsed.ok || !isRecord(parsed.value))
    return { ok: false, reason: 'jsonrepair did not produce one object' };
  const same =
    result.items.length === source.items.length && result.items.every((item, index) => item === source.items[index]);
  if (!same) return { ok: false, reason: 'the repaired text would not say exactly what the source says; not repaired' };
  return { ok: true, value: parsed.value };
}

/**
 * Argument text that is not JSON because DSML markup leaked into it: DSML parameters only, or one JSON object with
 * stray DSML tags around or inside it (`{"command": "pwd"}</｜DSML｜parameter>`). Undefined otherwise.
 */
function dsmlArguments(raw: string): Record<string, unknown> | undefined {
  if (!raw.includes(DSML) || raw.length > MAX_NEAR_JSON_CHARS) return undefined;
  const parameters = dsmlParameters(raw);
  if (parameters) return parameters;
  const stripped = withoutDsmlTags(raw);
  if (stripped === undefined) return undefined;
  const parsed = parseJson(stripped.trim());
  return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
}

/** Turns `arguments` into an object, or says why it cannot. Never throws. */
export function decodeArguments(raw: unknown): DecodedArguments {
  if (isRecord(raw)) return { ok: true, value: raw };
  if (typeof raw !== 'string') {
    return {
      ok: false,
      reason: `arguments are ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}, not an object`,
    };
  }
  if (raw.trim() === '') return { ok: true, value: {} };
  const direct = parseJson(raw);
  if (direct.ok) {
    if (isRecord(direct.value)) return { ok: true, value: direct.value };
    let inner = direct.value;
    for (let layer = 2; layer <= MAX_LAYERS && typeof inner === 'string' && inner.length <= UNWRAP_LIMIT; layer++) {
      const next = parseJson(inner);
      if (!next.ok) break;
      if (isRecord(next.value)) return { ok: true, value: next.value, unwrapped: 'double-encoded', layers: layer };
      inner = next.value;
    }
    return { ok: false, reason: 'arguments JSON is not an object' };
  }
  if (raw.length > UNWRAP_LIMIT) return { ok: false, reason: 'arguments are not valid JSON' };
  const dsml = dsmlArguments(raw);
  if (dsml) return { ok: true, value: dsml, unwrapped: 'dsml-markup' };
  const body = fencedBody(raw);
  if (body !== undefined) {
    const fenced = parseJson(body);
    if (fenced.ok && isRecord(fenced.value)) return { ok: true, value: fenced.value, unwrapped: 'fenced-json' };
  }
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{')) return { ok: false, reason: 'arguments are not valid JSON' };
  const near = repairNearJson(trimmed);
  if (near.ok) return { ok: true, value: near.value, unwrapped: 'near-json' };
  return { ok: false, reason: `arguments are not valid JSON and not repaired as near-JSON: ${near.reason}` };
}
