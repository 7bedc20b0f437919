/**
 * Names shared by the server half (the settings namespace) and the browser card of the plugin's live options.
 * It imports only core-rules' catalogue (plain data), so the client bundle can take it without the config schema.
 */
import { type SwitchId, switchCatalogue } from '@dsh-tool-normalizer/core-rules/catalogue';

/** The settings namespace (a key of `$DSH_HOME/settings.yaml`), the same as the loader row's id. */
export const SETTINGS_NAMESPACE = 'tool-normalizer';

/** The plugin's own live options, besides the rule switches. */
const PLUGIN_LIVE_OPTIONS = ['trimStackTraces'] as const;

/** Options applied live (read by the seams on every call), in the order the card lists them: every rule switch of the catalogue, then the plugin's own. */
export const LIVE_OPTIONS: readonly LiveOptionName[] = Object.freeze([
  ...switchCatalogue.map((row) => row.id),
  ...PLUGIN_LIVE_OPTIONS,
]);

export type LiveOptionName = SwitchId | (typeof PLUGIN_LIVE_OPTIONS)[number];
