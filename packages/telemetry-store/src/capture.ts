/**
 * What `record()` keeps of an input until the writer turns it into an event. It runs on the caller's path, so
 * its cost is bounded by constants, never by the size of the arguments: huge strings become a head and a tail
 * window (copied, so the caller's megabytes are not kept alive by a slice), and a walk over argument objects
 * stops after a fixed number of nodes. Nothing is serialised or redacted here. Pure module.
 *
 * A huge string is not even read here: V8 keeps a string built by concatenation as a rope, and any read of its
 * characters (slice, index, regex) first copies the whole rope into one flat string, megabytes per call plus the
 * garbage collection that follows. So strings past `DEFER_MIN_CHARS` are kept by reference (`DeferredText`, up to a
 * budget of characters shared by everything queued) and cut by the writer (`resolveCapture`), off the caller's path.
 */
import { isRepeatCaught, type TelemetryEventInput } from './schema.js';

/** Characters kept at each end of a long string (well beyond every preview, so redaction sees real context). */
export const CAPTURE_WINDOW_CHARS = 4096;
/** Characters of all strings of one input together, beyond which strings are cut to a short window. */
const CAPTURE_BUDGET_CHARS = 64 * 1024;
/** Objects, arrays and values visited in one argument value; the rest is summarised. */
const CAPTURE_MAX_NODES = 512;
const CAPTURE_MAX_DEPTH = 24;
const SMALL_WINDOW_CHARS = 256;
/** True for the characters of a token (letters, digits, `_+/=.-`): compared by code, no regex per character. */
function isTokenChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 43 ||
    code === 47 ||
    code === 61 ||
    code === 46 ||
    code === 45
  );
}
/** Strings at least this long are kept by reference for the writer instead of being cut on the caller's path. */
export const DEFER_MIN_CHARS = 64 * 1024;

/** A huge string kept by reference, to be cut to `window` characters at each end by the writer. */
export class DeferredText {
  constructor(
    readonly text: string,
    readonly window: number,
  ) {}
}

/**
 * Characters that may still be kept by reference (shared by every queued input, so the caller's strings kept alive
 * until the next write are bounded); `used` is what this capture took from it. Without a budget nothing is deferred.
 */
export interface DeferBudget {
  remaining: number;
  used: number;
}

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
  while (headEnd > 0 && isTokenChar(text.charCodeAt(headEnd)) && isTokenChar(text.charCodeAt(headEnd - 1)))
    headEnd -= 1;
  let tailStart = text.length - window;
  while (
    tailStart < text.length &&
    isTokenChar(text.charCodeAt(tailStart - 1)) &&
    isTokenChar(text.charCodeAt(tailStart))
  )
    tailStart += 1;
  return detached(`${text.slice(0, headEnd)}...[${tailStart - headEnd} chars omitted]...${text.slice(tailStart)}`);
}

interface Budget {
  nodes: number;
  chars: number;
  defer: DeferBudget | undefined;
}

/** The string cut to its windows now, or kept by reference when it is huge and the defer budget allows. */
function captureOrDefer(text: string, window: number, defer: DeferBudget | undefined): string | DeferredText {
  if (defer !== undefined && text.length >= DEFER_MIN_CHARS && text.length <= defer.remaining) {
    defer.remaining -= text.length;
    defer.used += text.length;
    return new DeferredText(text, window);
  }
  return captureString(text, window);
}

function captureValue(value: unknown, depth: number, budget: Budget): unknown {
  budget.nodes += 1;
  if (typeof value === 'string') {
    const window = budget.chars > CAPTURE_BUDGET_CHARS ? SMALL_WINDOW_CHARS : CAPTURE_WINDOW_CHARS;
    const kept = captureOrDefer(value, window, budget.defer);
    budget.chars += typeof kept === 'string' ? kept.length : 2 * window;
    return kept;
  }
  if (typeof value !== 'object' || value === null)
    return typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol'
      ? `[${typeof value}]`
      : value;
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
    if (!Object.hasOwn(value, key)) continue;
    if (budget.nodes >= CAPTURE_MAX_NODES) {
      out['[more keys]'] = '[omitted]';
      break;
    }
    seen += 1;
    out[key.length > 200 ? captureString(key, 64) : key] = captureValue(
      (value as Record<string, unknown>)[key],
      depth + 1,
      budget,
    );
  }
  return seen === 0 && typeof (value as { toJSON?: unknown }).toJSON === 'function' ? String(value) : out;
}

/** A bounded copy of an argument value (any type); with a defer budget, huge strings may be `DeferredText`s. */
export function captureArguments(value: unknown, defer?: DeferBudget): unknown {
  return captureValue(value, 0, { nodes: 0, chars: 0, defer });
}

/**
 * Replaces every `DeferredText` in a captured value by its cut string (the writer's half of a capture). Cutting one
 * huge text first flattens it (a rope of concatenations: about 1 ms per MB, several times that on a loaded machine,
 * and more for ropes of many pieces), so `beforeEach` runs before each one: the writer yields there, and the host's
 * event loop waits for one such text at most, not for all the texts of an event together.
 */
async function resolveValue(value: unknown, beforeEach: () => Promise<void>): Promise<unknown> {
  if (value instanceof DeferredText) {
    await beforeEach();
    return captureString(value.text, value.window);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) out.push(await resolveValue(item, beforeEach));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    out[key] = await resolveValue((value as Record<string, unknown>)[key], beforeEach);
  return out;
}

/** A captured input with every deferred string cut (see `resolveValue`): what the writer turns into an event. */
export async function resolveCapture(
  captured: TelemetryEventInput,
  beforeEach: () => Promise<void>,
): Promise<TelemetryEventInput> {
  const resolved: TelemetryEventInput = { ...captured };
  if (captured.before !== undefined) resolved.before = await resolveValue(captured.before, beforeEach);
  if (captured.after !== undefined)
    resolved.after =
      captured.after === captured.before ? resolved.before : await resolveValue(captured.after, beforeEach);
  if ((captured.error as unknown) instanceof DeferredText)
    resolved.error = (await resolveValue(captured.error, beforeEach)) as string;
  return resolved;
}

const LABEL_WINDOW = 1024;

/**
 * The bounded snapshot of an input that passed `inputProblem`: safe to hold in a queue. With a defer budget, huge
 * argument and error strings are kept by reference: pass the result through `resolveCapture` before using it.
 */
export function captureInput(input: TelemetryEventInput, defer?: DeferBudget): TelemetryEventInput {
  const captured: TelemetryEventInput = {
    tool: captureString(input.tool, LABEL_WINDOW),
    category: captureString(input.category, LABEL_WINDOW),
    outcome: input.outcome,
    ruleIds: input.ruleIds.slice(0, 16).map((ruleId) => captureString(String(ruleId), 256)),
  };
  if (typeof input.callId === 'string') captured.callId = captureString(input.callId, 256);
  if (input.before !== undefined) captured.before = captureArguments(input.before, defer);
  if (input.after !== undefined)
    captured.after = input.after === input.before ? captured.before : captureArguments(input.after, defer);
  if (Array.isArray(input.changes))
    captured.changes = input.changes.slice(0, 10).map((change) => captureString(String(change), 1024));
  if (typeof input.error === 'string')
    captured.error = captureOrDefer(input.error, CAPTURE_WINDOW_CHARS, defer) as string;
  if (input.tokensSaved !== undefined) captured.tokensSaved = input.tokensSaved;
  if (typeof input.model === 'string') captured.model = captureString(input.model, 256);
  if (isRepeatCaught(input)) captured.repeat = input.repeat as number;
  return captured;
}
