/** Node entry of @dsh-tool-normalizer/telemetry-store: the file-backed store plus everything the browser-safe entry has. */
export * from './query.js';
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
export { ForeignDatabaseError } from './database.js';
export { SqliteUnavailableError } from './sqlite.js';
