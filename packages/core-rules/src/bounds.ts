/**
 * The engine's input bound (issue 21: "finish any input up to 1 MB within 50 ms; larger input is left untouched fast
 * with a reason"). `inputChars` measures a call's arguments without copying them: strings and keys by length, a
 * walk that stops as soon as the limit is passed, so a 50 MB argument costs microseconds to refuse. The healer's own
 * bounds (a program over 256 KiB is left to the host) live in syntax-healer's limits.ts.
 */

/** Largest call (argument characters, keys included; an error message counts too for a recovery) the engine works on. */
export const MAX_INPUT_CHARS = 1024 * 1024;

/** Deepest nesting followed while measuring (deeper input is treated as too large). */
const MAX_DEPTH = 256;

/**
 * The size of `value` in characters (string lengths, keys, about 8 per number or literal), counted up to just past
 * `limit`: a result above `limit` means "too large", nothing more precise. Cycles and hostile getters are the
 * caller's to catch (normalizeCall and planRecovery answer "unchanged" on any throw).
 */
export function inputChars(value: unknown, limit: number = MAX_INPUT_CHARS): number {
  let total = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0 && total <= limit) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current === 'string') total += current.length;
    else if (typeof current !== 'object' || current === null) total += 8;
    else if (depth >= MAX_DEPTH) return limit + 1;
    else if (Array.isArray(current)) {
      total += current.length;
      if (current.length > limit) return limit + 1;
      for (let index = 0; index < current.length; index++) stack.push([current[index], depth + 1]);
    } else {
      const keys = Object.keys(current);
      if (keys.length > limit) return limit + 1;
      for (const key of keys) {
        total += key.length + 2;
        stack.push([(current as Record<string, unknown>)[key], depth + 1]);
      }
    }
  }
  return total;
}

/** The reason a call over the bound is left untouched, or undefined when it is within it. */
export function tooLarge(what: string, value: unknown): string | undefined {
  const size = inputChars(value);
  return size > MAX_INPUT_CHARS
    ? `left unchanged: ${what} larger than ${MAX_INPUT_CHARS / 1024} KiB are left to the host (the engine's bound)`
    : undefined;
}
