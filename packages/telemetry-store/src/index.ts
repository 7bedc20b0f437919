/** Node entry of @dsh-tool-normalizer/telemetry-store: the file-backed store plus everything the browser-safe entry has. */
export * from './query.js';
export {
  DEFAULT_MAX_LOG_BYTES,
  LOG_FILE_NAME,
  SUMMARY_FILE_NAME,
  createTelemetryStore,
  type TelemetryStore,
  type TelemetryStoreOptions,
} from './store.js';
