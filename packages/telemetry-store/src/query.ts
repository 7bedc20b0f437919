/**
 * Browser-safe entry (`@dsh-tool-normalizer/telemetry-store/query`): schemas, stats payload types, redaction, the
 * event builder and the pure aggregation functions, for tools that build or check payloads themselves (the
 * dashboard's fixtures, the session analyzer). Imports nothing from Node or the DOM. The events query and the feed
 * contract are the `./feed` entry's.
 */
export {
  ALL_PROFILES,
  Bucket,
  CLEAR_SCOPE,
  ProfileSelector,
  EVENT_LIMITS,
  StoredEventsPage,
  eventsPageValidator,
  OUTCOMES,
  Outcome,
  REPEAT_RULE_ID,
  RateRow,
  SCHEMA_VERSION,
  StatsPayload,
  StatsQuery,
  Summary,
  TelemetryEvent,
  Totals,
  isRepeatCaught,
  isTelemetryEvent,
  statsPayloadValidator,
  statsQueryValidator,
  summaryValidator,
  telemetryEventValidator,
} from './schema.js';
export type { TelemetryEventInput } from './schema.js';
export {
  REDACTED,
  clipText,
  isSecretKeyName,
  previewText,
  previewValue,
  redact,
  redactStructure,
  stringifyForPreview,
} from './redact.js';
export { CAPTURE_WINDOW_CHARS, captureArguments, captureInput, captureString } from './capture.js';
export {
  boundEvent,
  buildEvent,
  displayName,
  inputProblem,
  plainName,
  redactTexts,
  type RedactedTexts,
} from './event.js';
export { CappedBuckets, Counters, MAX_KEY_CHARS, isSurfacedFailure, type CounterOptions } from './counters.js';
export { OTHER, rowWithinCap } from './fold.js';
export { RingBuffer } from './ring-buffer.js';
export {
  DEFAULT_MIN_CALLS,
  DEFAULT_RECENT_LIMIT,
  QueryError,
  StatsQueryError,
  computeStats,
  countersFromEvents,
  rate,
  statsQueryFromSearchParams,
  validateStatsQuery,
  type ComputeStatsInput,
  type StorageInfo,
} from './stats.js';
export { parseLogText, serializeEvent, type ParsedLog } from './log-format.js';
export { HARNESSES } from './store-options.js';
