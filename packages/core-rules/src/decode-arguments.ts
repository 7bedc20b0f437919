/**
 * Decoding a call's `arguments` into an object. Models and transports deliver them as an object, as a JSON
 * string (the wire form: not a repair), as empty text (the host reads it as `{}`: not a repair either), as a
 * JSON string of a JSON string (encoded twice or more), wrapped in a Markdown ```json fence, or as near-JSON
 * (trailing commas, single quotes, unquoted keys, a raw newline inside a string). The last three are repairs
 * and get a receipt when the result is used. Near-JSON is repaired with `jsonrepair` only when the text is
 * complete: a cut-off text is refused, as a cut-off program is, because closing it would invent its end.
 */
import { jsonrepair } from 'jsonrepair';
import { isRecord } from './tools.js';

export type Unwrapped = 'double-encoded' | 'fenced-json' | 'near-json';

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

/**
 * True when `text` is one complete object literal in near-JSON: it opens with `{`, every string (double or
 * single quoted) closes, the brackets balance, and the object closes at the very end. A text cut off by an
 * output limit fails here; so does a single-quoted string broken by an apostrophe (two readings).
 */
export function isCompleteObjectText(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return false;
  const stack: string[] = [];
  let quote: string | undefined;
  for (let index = 0; index < trimmed.length; index++) {
    const char = trimmed[index] as string;
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '{' || char === '[') stack.push(char === '{' ? '}' : ']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return false;
      if (stack.length === 0 && index !== trimmed.length - 1) return false;
    } else if (char === '/' && (trimmed[index + 1] === '/' || trimmed[index + 1] === '*')) return false;
  }
  return quote === undefined && stack.length === 0;
}

/** The object a near-JSON text stands for, when `jsonrepair` reads it and the text is complete. */
function repairNearJson(text: string): Record<string, unknown> | undefined {
  if (!isCompleteObjectText(text)) return undefined;
  let repaired: string;
  try {
    repaired = jsonrepair(text);
  } catch {
    return undefined;
  }
  const parsed = parseJson(repaired);
  return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
}

/** Turns `arguments` into an object, or says why it cannot. Never throws. */
export function decodeArguments(raw: unknown): DecodedArguments {
  if (isRecord(raw)) return { ok: true, value: raw };
  if (typeof raw !== 'string') {
    return { ok: false, reason: `arguments are ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}, not an object` };
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
  const body = fencedBody(raw);
  if (body !== undefined) {
    const fenced = parseJson(body);
    if (fenced.ok && isRecord(fenced.value)) return { ok: true, value: fenced.value, unwrapped: 'fenced-json' };
  }
  const trimmed = raw.trim();
  if (trimmed.startsWith('{') && !isCompleteObjectText(trimmed)) return { ok: false, reason: 'arguments are not valid JSON and look cut off; not completed' };
  const near = repairNearJson(trimmed);
  if (near) return { ok: true, value: near, unwrapped: 'near-json' };
  return { ok: false, reason: 'arguments are not valid JSON' };
}
