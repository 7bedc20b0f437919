/**
 * What `record()` keeps of an input until the writer turns it into an event. It runs on the caller's path, so
 * its cost is bounded by constants, never by the size of the arguments: huge strings become a head and a tail
 * window (copied, so the caller's megabytes are not kept alive by a slice), and a walk over argument objects
 * stops after a fixed number of nodes. Nothing is serialised or redacted here. Pure module.
 */
import type { TelemetryEventInput } from './schema.js';

/** Characters kept at each end of a long string (well beyond every preview, so redaction sees real context). */
export const CAPTURE_WINDOW_CHARS = 4096;
/** Characters of all strings of one input together, beyond which strings are cut to a short window. */
const CAPTURE_BUDGET_CHARS = 64 * 1024;
/** Objects, arrays and values visited in one argument value; the rest is summarised. */
const CAPTURE_MAX_NODES = 512;
const CAPTURE_MAX_DEPTH = 24;
const SMALL_WINDOW_CHARS = 256;
const TOKEN_CHAR = /[A-Za-z0-9_+/=.-]/;

/** A copied string (not a V8 slice that would keep the whole original alive). */
function detached(text: string): string {
  return text.length === 0 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/**
 * Head and tail windows of a long string with the omitted count between them. A token cut by a window edge is
 * dropped whole: what is left of a half-cut secret could not be recognised by any redaction rule.
 */
export function captureString(text: string, window = CAPTURE_WINDOW_CHARS): string {
  if (text.length <= 2 * window + 64) return text;
  let headEnd = window;
  while (headEnd > 0 && TOKEN_CHAR.test(text[headEnd] ?? '') && TOKEN_CHAR.test(text[headEnd - 1] as string)) headEnd -= 1;
  let tailStart = text.length - window;
  while (tailStart < text.length && TOKEN_CHAR.test(text[tailStart - 1] as string) && TOKEN_CHAR.test(text[tailStart] as string)) tailStart += 1;
  return detached(`${text.slice(0, headEnd)}...[${tailStart - headEnd} chars omitted]...${text.slice(tailStart)}`);
}

interface Budget {
  nodes: number;
  chars: number;
}

function captureValue(value: unknown, depth: number, budget: Budget): unknown {
  budget.nodes += 1;
  if (typeof value === 'string') {
    const window = budget.chars > CAPTURE_BUDGET_CHARS ? SMALL_WINDOW_CHARS : CAPTURE_WINDOW_CHARS;
    const kept = captureString(value, window);
    budget.chars += kept.length;
    return kept;
  }
  if (typeof value !== 'object' || value === null) return typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol' ? `[${typeof value}]` : value;
  if (depth >= CAPTURE_MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i += 1) {
      if (budget.nodes >= CAPTURE_MAX_NODES) {
        out.push(`[${value.length - i} more items]`);
        break;
      }
      out.push(captureValue(value[i], depth + 1, budget));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  let seen = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (budget.nodes >= CAPTURE_MAX_NODES) {
      out['[more keys]'] = '[omitted]';
      break;
    }
    seen += 1;
    out[key.length > 200 ? captureString(key, 64) : key] = captureValue((value as Record<string, unknown>)[key], depth + 1, budget);
  }
  return seen === 0 && typeof (value as { toJSON?: unknown }).toJSON === 'function' ? String(value) : out;
}

/** A bounded copy of an argument value (any type). */
export function captureArguments(value: unknown): unknown {
  return captureValue(value, 0, { nodes: 0, chars: 0 });
}

const LABEL_WINDOW = 1024;

/** The bounded snapshot of an input that passed `inputProblem`: safe to hold in a queue. */
export function captureInput(input: TelemetryEventInput): TelemetryEventInput {
  const captured: TelemetryEventInput = {
    tool: captureString(input.tool, LABEL_WINDOW),
    category: captureString(input.category, LABEL_WINDOW),
    outcome: input.outcome,
    ruleIds: input.ruleIds.slice(0, 16).map((ruleId) => captureString(String(ruleId), 256)),
  };
  if (typeof input.callId === 'string') captured.callId = captureString(input.callId, 256);
  if (input.before !== undefined) captured.before = captureArguments(input.before);
  if (input.after !== undefined) captured.after = captureArguments(input.after);
  if (Array.isArray(input.changes)) captured.changes = input.changes.slice(0, 10).map((change) => captureString(String(change), 1024));
  if (typeof input.error === 'string') captured.error = captureString(input.error);
  if (input.tokensSaved !== undefined) captured.tokensSaved = input.tokensSaved;
  if (typeof input.model === 'string') captured.model = captureString(input.model, 256);
  return captured;
}
