/**
 * Splits a byte stream into lines with a bound on memory. Node's `readline` keeps a line in memory until its
 * newline arrives, so one huge line (hundreds of MB) costs that much before it can be refused. This reader keeps at
 * most `maxBytes` of a line; past that it drops what it holds, discards bytes until the next newline and reports the
 * line as too long. It imports nothing, so a child process can run it alone (the memory test does).
 */

/** Yielded in place of a line longer than the limit (its bytes were discarded, never held whole). */
export const LINE_TOO_LONG: unique symbol = Symbol('line too long');

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function decodeLine(parts: Uint8Array[], size: number): string {
  let end = size;
  const last = parts[parts.length - 1];
  // A CRLF line ending: drop the carriage return, as readline does.
  if (last && last.length > 0 && last[last.length - 1] === CARRIAGE_RETURN) end -= 1;
  return Buffer.concat(parts, size).toString('utf8', 0, end);
}

/**
 * The lines of `input` (UTF-8, `\n`-separated; a last line without a newline is yielded too), each decoded only once
 * whole, so a character split across chunks stays intact. A line of more than `maxBytes` bytes is yielded as
 * {@link LINE_TOO_LONG}; at most `maxBytes` of any line are held at a time.
 */
export async function* boundedLines(
  input: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): AsyncGenerator<string | typeof LINE_TOO_LONG> {
  let parts: Uint8Array[] = [];
  let size = 0;
  let discarding = false;
  for await (const item of input) {
    const chunk = typeof item === 'string' ? Buffer.from(item, 'utf8') : item;
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      if (!discarding && end > start) {
        if (size + (end - start) > maxBytes) {
          parts = [];
          size = 0;
          discarding = true;
        } else {
          parts.push(chunk.subarray(start, end));
          size += end - start;
        }
      }
      if (newline < 0) break;
      if (discarding) yield LINE_TOO_LONG;
      else yield decodeLine(parts, size);
      parts = [];
      size = 0;
      discarding = false;
      start = newline + 1;
    }
  }
  if (discarding) yield LINE_TOO_LONG;
  else if (size > 0) yield decodeLine(parts, size);
}
