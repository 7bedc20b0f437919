/**
 * Node entry of @dsh-tool-normalizer/telemetry-store: the file-backed store and what its callers pass and read.
 * The browser-safe parts live behind explicit subpaths: `./feed` (the events/feed contract), `./query` (schemas,
 * redaction, the event builder and the pure aggregation) and `./outcomes` (the outcome names).
 */
export {
  DATABASE_FILE_NAME,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_STORED_EVENTS,
  DEFAULT_PROFILE,
  LOG_FILE_NAME,
  createTelemetryStore,
  type HarnessCalls,
  type TelemetryStore,
  type TelemetryStoreOptions,
} from './store.js';
export { HARNESSES } from './store-options.js';
export { ForeignDatabaseError } from './database.js';
export { SqliteUnavailableError } from './sqlite.js';
export {
  ALL_PROFILES,
  CLEAR_SCOPE,
  OUTCOMES,
  REPEAT_RULE_ID,
  isRepeatCaught,
  type Outcome,
  type StatsPayload,
  type StatsQuery,
  type StoredEventsPage,
  type TelemetryEvent,
  type TelemetryEventInput,
} from './schema.js';
export { QueryError, type EventsQuery } from './feed.js';
export { StatsQueryError, statsQueryFromSearchParams } from './stats.js';
export { REDACTED, redact } from './redact.js';
export { inputProblem, plainName } from './event.js';
export { OTHER, rowWithinCap } from './fold.js';
