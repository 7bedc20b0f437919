/**
 * Decoding a call's `arguments` into an object. Models and transports deliver them as an object, as a JSON
 * string (the wire form: not a repair), as a JSON string of a JSON string (double-encoded), or wrapped in a
 * Markdown ```json fence. The last two are repairs and get a receipt when the result is used.
 */
import { isRecord } from './tools.js';

export type DecodedArguments =
  | { ok: true; value: Record<string, unknown>; unwrapped?: 'double-encoded' | 'fenced-json' }
  | { ok: false; reason: string };

/** Longest argument string the engine will unwrap (fenced or double-encoded); the plain wire form has no limit. */
const UNWRAP_LIMIT = 4 * 1024 * 1024;

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

/** Turns `arguments` into a plain object, or says why it cannot. Never throws. */
export function decodeArguments(raw: unknown): DecodedArguments {
  if (isRecord(raw)) return { ok: true, value: raw };
  if (typeof raw !== 'string') {
    return { ok: false, reason: `arguments are ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}, not an object` };
  }
  const direct = parseJson(raw);
  if (direct.ok) {
    if (isRecord(direct.value)) return { ok: true, value: direct.value };
    if (typeof direct.value === 'string' && direct.value.length <= UNWRAP_LIMIT) {
      const inner = parseJson(direct.value);
      if (inner.ok && isRecord(inner.value)) return { ok: true, value: inner.value, unwrapped: 'double-encoded' };
    }
    return { ok: false, reason: 'arguments JSON is not an object' };
  }
  if (raw.length > UNWRAP_LIMIT) return { ok: false, reason: 'arguments are not valid JSON' };
  const body = fencedBody(raw);
  if (body !== undefined) {
    const fenced = parseJson(body);
    if (fenced.ok && isRecord(fenced.value)) return { ok: true, value: fenced.value, unwrapped: 'fenced-json' };
  }
  return { ok: false, reason: 'arguments are not valid JSON' };
}
