/**
 * Browser-safe entry (`@dsh-tool-normalizer/telemetry-store/query`): schemas, stats payload types, redaction and
 * the pure aggregation functions. Imports nothing from Node or the DOM.
 */
export {
  Bucket,
  EVENT_LIMITS,
  OUTCOMES,
  Outcome,
  RateRow,
  SCHEMA_VERSION,
  StatsPayload,
  StatsQuery,
  Summary,
  TelemetryEvent,
  Totals,
  isTelemetryEvent,
  statsPayloadValidator,
  statsQueryValidator,
  summaryValidator,
  telemetryEventValidator,
} from './schema.js';
export type { TelemetryEventInput } from './schema.js';
export { REDACTED, previewText, previewValue, redact, stringifyForPreview } from './redact.js';
export { buildEvent, inputProblem } from './event.js';
export { CappedBuckets, Counters, MAX_KEY_CHARS, OTHER, isSurfacedFailure, type CounterOptions } from './counters.js';
export { RingBuffer } from './ring-buffer.js';
export {
  DEFAULT_MIN_CALLS,
  DEFAULT_RECENT_LIMIT,
  StatsQueryError,
  computeStats,
  countersFromEvents,
  matchesQuery,
  rate,
  statsQueryFromSearchParams,
  validateStatsQuery,
  type ComputeStatsInput,
  type StorageInfo,
} from './stats.js';
export { parseLogText, serializeEvent, type ParsedLog } from './log-format.js';
