/** Public entry of @dsh-tool-normalizer/dsh-adapter: the cordis plugin (`name`, `inject`, `Config`, `apply`). */
export { apply, Config, defaultLogDir, inject, name } from './plugin.js';
export {
  ConfigSchema,
  resolveConfig,
  validateConfig,
  type ConfigValidator,
  type ToolNormalizerConfig,
} from './config.js';
export {
  createHostConfig,
  splitLiveReferences,
  type HostConfigValidator,
  type HostConfigValue,
  type LiveReference,
} from './host-config.js';
export { runningDshVersion } from './host-release.js';
export { PROMPT_SECTION_NAME, PROMPT_SECTION_ORDER, PROMPT_SECTION_TEXT } from './prompt-section.js';
export {
  ACTION_HEADER,
  CLEAR_PATH,
  EVENTS_PATH,
  MAX_BODY_BYTES,
  STATS_PATH,
  TOKEN_HEADER,
  TOKEN_PATH,
} from './routes.js';
export { ROUND_TRIPS_AVOIDED_PER_HEAL } from './result-seam.js';
