/**
 * Public API of dsh-lab: provisioning, the scripted model, the session runner, the scenario catalogue and the
 * headless-Chromium helpers of the web tests.
 */
export { LabStepError } from './child-process.js';
export { cacheRoot, labPaths, repoRoot, DSH_VERSION, HMR_PIN, type DshProfile, type RunKind } from './lab-paths.js';
export {
  ensureDshInstalled,
  ensureProfile,
  ensureBuiltPlugin,
  installPlugin,
  installPluginTarball,
  pluginStatus,
  dshEnvironment,
  HMR_ROW_PATCH,
  type DshInstall,
  type InstallPluginOptions,
} from './provision.js';
export {
  startScriptedModel,
  rawArguments,
  isErrorText,
  toolMessageText,
  type ScriptStep,
  type ToolCallStep,
  type TextStep,
  type ScriptedToolCall,
  type ScriptedModel,
  type RecordedRequest,
  type ChatMessage,
} from './scripted-model.js';
export {
  runSession,
  toolMessagesOf,
  type RunSessionOptions,
  type SessionRun,
  type ToolMessage,
  type ToolsMode,
} from './run-session.js';
export { codeModeSetting, toolsModePatch, type CodeModeSetting, type CodeModeVia } from './code-mode.js';
export {
  nativeScenarios,
  codeScenarios,
  scenariosFor,
  scenarioScript,
  scenarioFixtures,
  checkModelSees,
  capturedErrorCodes,
  type Scenario,
  type ModelSees,
  type PluginOutcome,
} from './scenarios.js';
export {
  readSessionLog,
  findSessionLogs,
  sessionToolResults,
  type SessionEvent,
  type SessionToolResult,
} from './session-log.js';
export { startWebProfile, type StartWebProfileOptions, type WebProfile } from './web-profile.js';
export {
  CHROMIUM_PATH,
  hasChromium,
  STATS_ROUTE,
  warnIfNoChromium,
  openChromiumPage,
  launchChromium,
  openDshWebUi,
  openSettings,
  readStats,
  routeToken,
  clearStats,
  statsLines,
  TOKEN_HEADER,
  TOKEN_ROUTE,
  type ChromiumPage,
  type OpenWebUiOptions,
} from './web-browser.js';
