/**
 * Bounded, redacted previews. Every text the store keeps passes through here first: the shared secret
 * redaction (`@dsh-tool-normalizer/core-rules/secrets`), then a head-and-tail cut. Pure module: safe in browsers.
 */
import { REDACTED, isSecretKeyName, redact, redactStructure } from '@dsh-tool-normalizer/core-rules/secrets';

export { REDACTED, isSecretKeyName, redact, redactStructure };

/** Longest text redacted in one piece; longer texts are cut to a head and a tail window first. */
const WHOLE_TEXT_LIMIT = 64 * 1024;

/**
 * A redacted preview of at most about `maxChars` characters that keeps the head and the tail of a long text,
 * with the number of characters left out in the middle. Redaction runs before cutting (on windows with slack
 * around the cut), so a secret straddling the cut is never half kept.
 */
export function previewText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return clipText(redact(text), maxChars);
  const half = Math.max(1, Math.floor(maxChars / 2));
  let redacted: string;
  const window = Math.max(4 * maxChars, 4096);
  if (text.length <= Math.max(WHOLE_TEXT_LIMIT, window)) {
    redacted = redact(text);
  } else {
    const head = redact(text.slice(0, window)).slice(0, half);
    const tail = redact(tailWindow(text, window)).slice(-half);
    return joinHeadTail(head, tail, text.length - head.length - tail.length);
  }
  return clipText(redacted, maxChars);
}

/** Characters that can continue a token, key or encoded blob. */
const TOKEN_CHAR = /[A-Za-z0-9_+/=.-]/;

/**
 * The last `window` characters, minus a token cut by the window's start: its prefix (the `sk-`, the key name)
 * lies before the window, so no rule could recognise what remains of it.
 */
function tailWindow(text: string, window: number): string {
  const start = text.length - window;
  const tail = text.slice(start);
  if (!TOKEN_CHAR.test(text[start - 1] ?? '')) return tail;
  let skip = 0;
  while (skip < tail.length && TOKEN_CHAR.test(tail[skip] as string)) skip += 1;
  return tail.slice(skip);
}

/** Cuts an already redacted text to about `maxChars`, keeping its head and tail. */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.max(1, Math.floor(maxChars / 2));
  return joinHeadTail(text.slice(0, half), text.slice(-half), text.length - 2 * half);
}

function joinHeadTail(head: string, tail: string, omitted: number): string {
  return `${head}...[${omitted} chars omitted]...${tail}`;
}

/** JSON text of any value (strings stay as they are); values JSON cannot express become a short description. */
export function stringifyForPreview(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json;
  } catch {
    return `[unserializable ${typeof value}]`;
  }
}

/** Redacted, bounded preview of an argument object or any other value: structural redaction, then text patterns. */
export function previewValue(value: unknown, maxChars: number): string {
  return previewText(stringifyForPreview(redactStructure(value)), maxChars);
}
