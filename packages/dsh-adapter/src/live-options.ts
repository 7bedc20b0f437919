/**
 * Names shared by the server half (the settings namespace) and the browser card of the plugin's live options.
 * No imports, so the client bundle can take it without the config schema.
 */

/** The settings namespace (a key of `$DSH_HOME/settings.yaml`), the same as the loader row's id. */
export const SETTINGS_NAMESPACE = 'tool-normalizer';

/** Options applied live (read by the seams on every call), in the order the card lists them. */
export const LIVE_OPTIONS = [
  'autoWrapRunCode',
  'autoBridgeDirectTools',
  'autoObserveFiles',
  'autoClampRanges',
  'errorHints',
  'breakLoops',
  'trimStackTraces',
] as const;

export type LiveOptionName = (typeof LIVE_OPTIONS)[number];
