/**
 * The stats feed contract as this package's `./feed` entry: a re-export of telemetry-store's browser-safe
 * `./feed` entry, where the contract is written once (the routes serve it, the store answers it, the element
 * reads it). Kept so pages and tests that import `@dsh-tool-normalizer/dashboard-lit/feed` keep working.
 */
export * from '@dsh-tool-normalizer/telemetry-store/feed';
