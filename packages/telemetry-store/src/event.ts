/**
 * Turns what the adapter reports into a stored event: every text redacted and bounded, numbers made finite.
 * Kept apart from the store so the same rules apply wherever an event is built. Pure module.
 */
import { EVENT_LIMITS, OUTCOMES, SCHEMA_VERSION, type TelemetryEvent, type TelemetryEventInput } from './schema.js';
import { previewText, previewValue, redact } from './redact.js';
import { MAX_KEY_CHARS } from './counters.js';

/** Why an input cannot be recorded, or undefined when it can. Checked on the caller's path, so it stays cheap. */
export function inputProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return 'event input must be an object';
  const event = input as Partial<TelemetryEventInput>;
  if (typeof event.tool !== 'string') return 'event input needs a string `tool`';
  if (typeof event.category !== 'string') return 'event input needs a string `category`';
  if (!OUTCOMES.includes(event.outcome as never)) return `event input has an unknown outcome ${JSON.stringify(String(event.outcome)).slice(0, 60)}`;
  if (!Array.isArray(event.ruleIds)) return 'event input needs a `ruleIds` array';
  return undefined;
}

/** A non-negative finite number, or 0. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** A short label (tool, category, model): redacted, then cut to `maxChars` with a trailing ellipsis. */
export function boundedLabel(text: string, maxChars: number): string {
  const safe = previewText(text.length > 4 * maxChars ? text.slice(0, 4 * maxChars) : text, Number.MAX_SAFE_INTEGER);
  return safe.length > maxChars ? `${safe.slice(0, maxChars)}...` : safe;
}

/**
 * The name a tool or category is shown and filtered under: cut to the counter key length, then redacted, so an
 * event's `tool` equals the name of its row in the stats tables.
 */
export function displayName(name: string): string {
  return redact(name.length > MAX_KEY_CHARS ? name.slice(0, MAX_KEY_CHARS) : name);
}

/** Builds the stored form of an input that passed `inputProblem`. */
export function buildEvent(input: TelemetryEventInput, id: string, at: number): TelemetryEvent {
  const event: TelemetryEvent = {
    v: SCHEMA_VERSION,
    id: id.slice(0, EVENT_LIMITS.idChars),
    at,
    tool: displayName(input.tool),
    category: displayName(input.category),
    outcome: input.outcome,
    ruleIds: input.ruleIds
      .slice(0, EVENT_LIMITS.ruleIds)
      .map((ruleId) => boundedLabel(String(ruleId), EVENT_LIMITS.ruleIdChars)),
    changes: (Array.isArray(input.changes) ? input.changes : [])
      .slice(0, EVENT_LIMITS.changes)
      .map((change) => previewText(String(change), EVENT_LIMITS.changeChars)),
    tokensSaved: tokenCount(input.tokensSaved),
  };
  if (typeof input.callId === 'string') event.callId = boundedLabel(input.callId, EVENT_LIMITS.idChars);
  if (input.before !== undefined) event.before = previewValue(input.before, EVENT_LIMITS.previewChars);
  if (input.after !== undefined) event.after = previewValue(input.after, EVENT_LIMITS.previewChars);
  if (typeof input.error === 'string') event.error = previewText(input.error, EVENT_LIMITS.errorChars);
  if (typeof input.model === 'string') event.model = boundedLabel(input.model, EVENT_LIMITS.modelChars);
  return event;
}
