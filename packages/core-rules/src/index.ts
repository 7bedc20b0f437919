/** Public entry of @dsh-tool-normalizer/core-rules: re-exports only. */
export type * from './types.js';
export { normalizeCall, hostViolations } from './normalize.js';
export { resolveToolAlias } from './tool-names.js';
export { RUN_CODE } from './tools.js';
export { planRecovery, repairedRetry, showsObservedContent, type RecoveryOptions } from './recovery.js';
export { classifyResult, categories } from './classify.js';
export { hintFor, appendHint } from './hints.js';
export { callIdentity, failureFingerprint, repeatHint, STOP_RETRYING_AT } from './repeats.js';
export { trimStackTrace } from './stack-trace.js';
export {
  ruleCatalogue,
  categoryCatalogue,
  switchCatalogue,
  receipt,
  categoryOf,
  switchOf,
  ruleOn,
} from './catalogue.js';
export { validateArguments } from './validate.js';
export { MAX_INPUT_CHARS } from './bounds.js';
export { DSML, dsmlToolCalls, type DsmlBlock, type DsmlCall } from './dsml.js';
export { dsmlTextCalls, repairCall, type TextCall, type TextCallsResult } from './text-calls.js';
export { healerLoaded, useHealer, type Healer } from './healer.js';
export { checksBeyondSchema } from './host-checks.js';
export { defaultToggles, TOGGLE_KEYS } from './toggles.js';
export {
  createRepairKit,
  type KitAnswer,
  type KitCall,
  type KitOptions,
  type KitTextAnswer,
  type KitTextCall,
  type KitTool,
  type RepairKit,
} from './kit.js';
export { dshHostChecks } from './kit-profiles.js';
export type { KitPrograms } from './kit-programs.js';
