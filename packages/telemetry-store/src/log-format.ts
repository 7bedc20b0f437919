/**
 * The JSONL line format of the event log: one validated event per line. Parsing is forgiving by design:
 * a torn last line (a process killed mid-write), a corrupt or foreign line is skipped and counted, never fatal.
 * Pure module.
 */
import { isTelemetryEvent, type TelemetryEvent } from './schema.js';

/** One event as a log line, newline included. */
export function serializeEvent(event: TelemetryEvent): string {
  return `${JSON.stringify(event)}\n`;
}

export interface ParsedLog {
  events: TelemetryEvent[];
  /** Non-empty lines that were not valid events (corrupt, foreign, torn). */
  skipped: number;
}

/**
 * Parses log text. A final segment without a trailing newline is incomplete (torn or still being written)
 * and is skipped. With `startsMidLine` (text read from an offset inside the file) the first segment is a
 * fragment of a line and is skipped too, without counting it.
 */
export function parseLogText(text: string, options: { startsMidLine?: boolean } = {}): ParsedLog {
  const events: TelemetryEvent[] = [];
  let skipped = 0;
  let start = 0;
  if (options.startsMidLine) {
    const firstNewline = text.indexOf('\n');
    start = firstNewline === -1 ? text.length : firstNewline + 1;
  }
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      skipped += 1; // torn last line
      break;
    }
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped += 1;
      continue;
    }
    if (isTelemetryEvent(value)) events.push(value);
    else skipped += 1;
  }
  return { events, skipped };
}
