/**
 * Turns what the adapter reports into a stored event: every text redacted and bounded, numbers made finite.
 * Kept apart from the store so the same rules apply wherever an event is built. Pure module.
 */
import {
  EVENT_LIMITS,
  OUTCOMES,
  SCHEMA_VERSION,
  isRepeatCaught,
  type TelemetryEvent,
  type TelemetryEventInput,
} from './schema.js';
import { clipText, previewText, redactStructure, stringifyForPreview } from './redact.js';
import { MAX_KEY_CHARS } from './counters.js';

/** Why an input cannot be recorded, or undefined when it can. Checked on the caller's path, so it stays cheap. */
export function inputProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return 'event input must be an object';
  const event = input as Partial<TelemetryEventInput>;
  if (typeof event.tool !== 'string') return 'event input needs a string `tool`';
  if (typeof event.category !== 'string') return 'event input needs a string `category`';
  if (!OUTCOMES.includes(event.outcome as never))
    return `event input has an unknown outcome ${JSON.stringify(String(event.outcome)).slice(0, 60)}`;
  if (!Array.isArray(event.ruleIds)) return 'event input needs a `ruleIds` array';
  return undefined;
}

/** A non-negative finite number, or 0. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Longest text redacted whole before it is cut to its field's bound (longer texts keep a head and a tail). */
const REDACT_WHOLE_CHARS = 64 * 1024;

/**
 * Every text of an event, redacted (structure, then patterns) but not yet cut to the stored bounds: the text fields
 * of the stored event's definition (`TelemetryEvent` in schema.ts), with their types.
 */
export type RedactedTexts = Pick<
  TelemetryEvent,
  'tool' | 'category' | 'ruleIds' | 'changes' | 'callId' | 'model' | 'before' | 'after' | 'error'
>;

function redactedText(text: string): string {
  return previewText(text, REDACT_WHOLE_CHARS);
}

/** Redacts every text of an input. Names are redacted whole, before anything cuts them. */
export function redactTexts(input: TelemetryEventInput): RedactedTexts {
  const texts: RedactedTexts = {
    tool: redactedText(input.tool),
    category: redactedText(input.category),
    ruleIds: input.ruleIds.slice(0, EVENT_LIMITS.ruleIds).map((ruleId) => redactedText(String(ruleId))),
    changes: (Array.isArray(input.changes) ? input.changes : [])
      .slice(0, EVENT_LIMITS.changes)
      .map((change) => redactedText(String(change))),
  };
  if (typeof input.callId === 'string') texts.callId = redactedText(input.callId);
  if (typeof input.model === 'string') texts.model = redactedText(input.model);
  if (input.before !== undefined) texts.before = redactedText(stringifyForPreview(redactStructure(input.before)));
  if (input.after !== undefined) texts.after = redactedText(stringifyForPreview(redactStructure(input.after)));
  if (typeof input.error === 'string') texts.error = redactedText(input.error);
  return texts;
}

/** A short label (tool, category, model, rule id): cut to `maxChars` with a trailing ellipsis. */
export function cutLabel(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}...` : text;
}

/** The name a tool or category is shown, counted and filtered under: redacted whole, then cut. */
export function displayName(name: string): string {
  return cutLabel(redactedText(name), MAX_KEY_CHARS);
}

/** An identifier-like name: a letter, then letters, digits and `_ . : / -`, at most 128 characters. */
const IDENTIFIER_NAME = /^[A-Za-z][A-Za-z0-9_.:/-]{0,127}$/;
/** A run between separators long enough, and mixed enough, to be a key or a token rather than a word. */
const TOKEN_LIKE_PART = /^(?=.*[0-9])(?=.*[A-Za-z])[A-Za-z0-9]{16,}$|^[A-Za-z0-9]{32,}$/;

/**
 * The name itself when it is a plausible tool, model or category name (identifier-like, no token-like part, left
 * unchanged by redaction), otherwise `undefined`. Used where the asynchronous secret scan cannot run: the caller
 * shows anything else under a fold such as "other".
 */
export function plainName(name: string): string | undefined {
  if (!IDENTIFIER_NAME.test(name)) return undefined;
  if (name.split(/[_.:/-]+/).some((part) => TOKEN_LIKE_PART.test(part))) return undefined;
  return redactedText(name) === name ? name : undefined;
}

/** The stored event from already redacted texts: every field cut to its bound. */
export function boundEvent(texts: RedactedTexts, input: TelemetryEventInput, id: string, at: number): TelemetryEvent {
  const event: TelemetryEvent = {
    v: SCHEMA_VERSION,
    id: id.slice(0, EVENT_LIMITS.idChars),
    at,
    tool: cutLabel(texts.tool, MAX_KEY_CHARS),
    category: cutLabel(texts.category, MAX_KEY_CHARS),
    outcome: input.outcome,
    ruleIds: texts.ruleIds.map((ruleId) => cutLabel(ruleId, EVENT_LIMITS.ruleIdChars)),
    changes: texts.changes.map((change) => clipText(change, EVENT_LIMITS.changeChars)),
    tokensSaved: tokenCount(input.tokensSaved),
  };
  if (texts.callId !== undefined) event.callId = cutLabel(texts.callId, EVENT_LIMITS.idChars);
  if (texts.before !== undefined) event.before = clipText(texts.before, EVENT_LIMITS.previewChars);
  if (texts.after !== undefined) event.after = clipText(texts.after, EVENT_LIMITS.previewChars);
  if (texts.error !== undefined) event.error = clipText(texts.error, EVENT_LIMITS.errorChars);
  if (texts.model !== undefined) event.model = cutLabel(texts.model, EVENT_LIMITS.modelChars);
  if (isRepeatCaught(input)) event.repeat = input.repeat as number;
  return event;
}

/** Builds the stored form of an input that passed `inputProblem` (redaction by this package's own rules). */
export function buildEvent(input: TelemetryEventInput, id: string, at: number): TelemetryEvent {
  return boundEvent(redactTexts(input), input, id, at);
}
