/**
 * The shapes this package stores and serves, written once as typebox schemas so that every read of the log,
 * the summary file or a stats query is validated against the same definition the TypeScript types come from.
 * Pure module: safe in browsers (no Node, no DOM).
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { ALL_PROFILES, MAX_FILTER_CHARS } from './feed.js';
import { OUTCOMES } from './outcomes.js';

/** Version tag written into every stored record; records with another version are treated as foreign. */
export const SCHEMA_VERSION = 1;

export const Outcome = Type.Enum(OUTCOMES);
export type Outcome = Static<typeof Outcome>;

export { ALL_PROFILES, OUTCOMES };

/** Size bounds of a stored event; the event builder enforces them and the schema re-checks them on read. */
export const EVENT_LIMITS = {
  idChars: 80,
  /** Tool and category names are cut to this many characters after redaction (see `displayName`). */
  nameChars: 64,
  ruleIdChars: 64,
  ruleIds: 16,
  changeChars: 160,
  changes: 10,
  modelChars: 80,
  previewChars: 600,
  errorChars: 1200,
} as const;

/** One intercepted call as stored in the JSONL log and served in `recent`. Everything textual is redacted. */
export const TelemetryEvent = Type.Object({
  v: Type.Literal(SCHEMA_VERSION),
  id: Type.String({ minLength: 1, maxLength: EVENT_LIMITS.idChars }),
  at: Type.Number({ minimum: 0 }),
  callId: Type.Optional(Type.String({ maxLength: EVENT_LIMITS.idChars + 3 })),
  tool: Type.String({ maxLength: EVENT_LIMITS.nameChars + 64 }),
  category: Type.String({ maxLength: EVENT_LIMITS.nameChars + 64 }),
  outcome: Outcome,
  ruleIds: Type.Array(Type.String({ maxLength: EVENT_LIMITS.ruleIdChars + 3 }), { maxItems: EVENT_LIMITS.ruleIds }),
  before: Type.Optional(Type.String({ maxLength: EVENT_LIMITS.previewChars + 64 })),
  after: Type.Optional(Type.String({ maxLength: EVENT_LIMITS.previewChars + 64 })),
  changes: Type.Array(Type.String({ maxLength: EVENT_LIMITS.changeChars + 64 }), { maxItems: EVENT_LIMITS.changes }),
  error: Type.Optional(Type.String({ maxLength: EVENT_LIMITS.errorChars + 64 })),
  tokensSaved: Type.Number({ minimum: 0 }),
  model: Type.Optional(Type.String({ maxLength: EVENT_LIMITS.modelChars + 64 })),
  /** Set when the call was a repeat caught: the Nth (>= 2) identical failure in its session (see `isRepeatCaught`). */
  repeat: Type.Optional(Type.Integer({ minimum: 2 })),
  /** The DSH profile the call was recorded under (events written before profiles existed have none: `default`). */
  profile: Type.Optional(Type.String({ maxLength: 128 })),
  /**
   * The harness that recorded the call when it was not DSH itself, e.g. `mcp` for the MCP healing proxy (see
   * `TelemetryStoreOptions.harness`). DSH's own events have none.
   */
  harness: Type.Optional(Type.String({ maxLength: 32 })),
});
export type TelemetryEvent = Static<typeof TelemetryEvent>;

/**
 * What the adapter hands to `record()`; the store redacts and bounds every field itself. The fields are the stored
 * event's (`TelemetryEvent` above), except that `before`/`after` take any value (the store previews them) and what
 * the store fills in itself (`v`, `id`, `profile`) is not given.
 */
export interface TelemetryEventInput
  extends Pick<TelemetryEvent, 'callId' | 'tool' | 'category' | 'outcome' | 'ruleIds' | 'error' | 'model'>,
    Partial<Pick<TelemetryEvent, 'changes' | 'tokensSaved' | 'at'>> {
  before?: unknown;
  after?: unknown;
  /**
   * The loop breaker's count when this call was the Nth identical failure of its session (N >= 2, hinted as a
   * repeat); leave it out otherwise. Such a call is a "repeat caught" (`isRepeatCaught`).
   */
  repeat?: number;
}

/** The rule id the adapter lists on a call whose failure was caught as a repeat (its `repeat` says which one). */
export const REPEAT_RULE_ID = 'hint.repeat-failure';

/**
 * The one definition of a "repeat caught": a recorded call whose input says it was the 2nd or later identical
 * failure (same tool, arguments and error code) in its session. O(1), so the store and the fleet metrics count it
 * on the caller's path from the same input.
 */
export function isRepeatCaught(input: { repeat?: unknown }): boolean {
  const repeat = input.repeat;
  return typeof repeat === 'number' && Number.isInteger(repeat) && repeat >= 2;
}

const Count = Type.Integer({ minimum: 0 });

/** A query's text: any characters but NUL (refused as a bad query, never sent to SQLite). */
const QueryText = Type.String({ maxLength: MAX_FILTER_CHARS, pattern: '^[^\\u0000]*$' });

/**
 * A query's profile: a profile name, or `*` for every profile (the URL parsers also read `all` as `*`). Left out,
 * the store answers for its own profile.
 */
export const ProfileSelector = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f]*$' });

/**
 * What `clear()` erases and keeps, in one sentence the dashboard shows next to its Clear button (one definition: the
 * store's behaviour and this text change together).
 */
export const CLEAR_SCOPE =
  "Clear erases every stored event and every counter of all profiles and of every DSH process sharing this folder, from the database, its write-ahead log, its free pages and the journal; nothing of them stays on disk. It keeps only this process's own count of dropped events (a metric that never goes down) and what other processes have not written yet.";

/** Counters of one tool or one category. `failures` = failures the model saw (healed-failed + passthrough-failed). */
export const Bucket = Type.Object({
  calls: Count,
  failures: Count,
  healedSuccess: Count,
  healedFailed: Count,
  tokensSaved: Type.Number({ minimum: 0 }),
});
export type Bucket = Static<typeof Bucket>;

export const Totals = Type.Object({
  calls: Count,
  healedSuccess: Count,
  healedFailed: Count,
  passThrough: Count,
  passThroughFailed: Count,
  tokensSaved: Type.Number({ minimum: 0 }),
  /** Calls caught as repeats (`isRepeatCaught`), counted like the others: exact across processes, kept by retention. */
  repeatsCaught: Count,
});
export type Totals = Static<typeof Totals>;

/** The compact counters file (`tool-normalizer-summary.json`), replaced atomically. */
export const Summary = Type.Object({
  v: Type.Literal(SCHEMA_VERSION),
  kind: Type.Literal('tool-normalizer-summary'),
  since: Type.Number({ minimum: 0 }),
  updatedAt: Type.Number({ minimum: 0 }),
  totals: Totals,
  tools: Type.Record(Type.String(), Bucket),
  categories: Type.Record(Type.String(), Bucket),
});
export type Summary = Static<typeof Summary>;

/** Filters of a stats request. Every field is optional; `text` matches tool, category, rule ids, previews and error. */
export const StatsQuery = Type.Object({
  profile: Type.Optional(ProfileSelector),
  tool: Type.Optional(QueryText),
  category: Type.Optional(QueryText),
  outcome: Type.Optional(Outcome),
  text: Type.Optional(QueryText),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  minCalls: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
});
export type StatsQuery = Static<typeof StatsQuery>;

/**
 * One page of stored events: `events` holds at most `limit` from `offset`; `total` counts the matches up to 10,000,
 * and `totalCapped` is true when there are more (show "10,000+"; paging past it still works).
 */
export const StoredEventsPage = Type.Object({
  events: Type.Array(TelemetryEvent),
  total: Count,
  totalCapped: Type.Optional(Type.Boolean()),
  offset: Count,
  limit: Count,
});
export type StoredEventsPage = Static<typeof StoredEventsPage>;

const Rate = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]);

/** One row of the per-tool or per-category table. Rates are `null` when there is no denominator. */
export const RateRow = Type.Object({
  name: Type.String(),
  calls: Count,
  failures: Count,
  healedSuccess: Count,
  healedFailed: Count,
  tokensSaved: Type.Number({ minimum: 0 }),
  failureRate: Rate,
  counterfactualFailureRate: Rate,
  healingSuccessRate: Rate,
  /** false when `calls` is below the minimum-calls floor: such a row is listed but never ranked. */
  ranked: Type.Boolean(),
});
export type RateRow = Static<typeof RateRow>;

/** The payload of the stats route and the dashboard feed. */
export const StatsPayload = Type.Object({
  v: Type.Literal(SCHEMA_VERSION),
  generatedAt: Type.Number(),
  since: Type.Number(),
  /** The profile these numbers are of (`*`: every profile added up). */
  profile: Type.Optional(Type.String()),
  /** Every profile with counters in the database (to offer as choices). */
  profiles: Type.Optional(Type.Array(Type.String())),
  totals: Totals,
  rates: Type.Object({
    healingSuccessRate: Rate,
    surfacedErrorRate: Rate,
    counterfactualErrorRate: Rate,
  }),
  minCalls: Type.Integer({ minimum: 1 }),
  tools: Type.Array(RateRow),
  categories: Type.Array(RateRow),
  rankings: Type.Object({
    toolsByFailureRate: Type.Array(Type.String()),
    categoriesByFailureRate: Type.Array(Type.String()),
  }),
  recent: Type.Array(TelemetryEvent),
  recentMatched: Count,
  storage: Type.Object({
    logging: Type.Boolean(),
    persistPassthrough: Type.Boolean(),
    rejectedInputs: Count,
    skippedLines: Count,
    foldedToolCalls: Count,
    /** Events dropped from a full queue before they were written (their calls are still counted). */
    dropped: Count,
    /** Event rows deleted by retention (counters keep them). */
    prunedEvents: Count,
    /** Event rows in the database now (of the payload's profile). */
    storedEvents: Count,
    /** Bytes the database takes on disk (file pages plus WAL; what `maxStoredBytes` bounds), all profiles. */
    storedBytes: Type.Optional(Count),
    /** True while nothing this process records reaches the file (a write episode, or a foreign file in the way). */
    memoryOnly: Type.Optional(Type.Boolean()),
    /** Episodes of this process in which the file could not be written (disk full, removed, permissions). */
    writeEpisodes: Type.Optional(Count),
    /** The error of the last such episode. */
    lastWriteError: Type.Optional(Type.String()),
    /** Events kept in memory during the current episode, saved when the file can be written again. */
    unsavedEvents: Type.Optional(Count),
    /** Set when the numbers could not be read (e.g. `the store is closed`): the payload is then empty. */
    error: Type.Optional(Type.String()),
    /**
     * The store's last clear, kept through the clear itself (a clear is a receipt): when it happened (ms since the
     * epoch) and how many counted calls it erased (all profiles). Absent when the store was never cleared.
     */
    lastClear: Type.Optional(Type.Object({ at: Type.Number(), erasedCalls: Count })),
  }),
});
export type StatsPayload = Static<typeof StatsPayload>;

export const telemetryEventValidator = Compile(TelemetryEvent);
export const summaryValidator = Compile(Summary);
export const statsQueryValidator = Compile(StatsQuery);
export const statsPayloadValidator = Compile(StatsPayload);
export const eventsPageValidator = Compile(StoredEventsPage);

/** True when `value` is a stored event this version understands. */
export function isTelemetryEvent(value: unknown): value is TelemetryEvent {
  return telemetryEventValidator.Check(value);
}
