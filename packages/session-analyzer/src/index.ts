/** Public entry of @dsh-tool-normalizer/session-analyzer (pure: no Node I/O): re-exports only. */
export type * from './types.js';
export { COUNTERFACTUAL_OUTCOMES } from './types.js';
export { ANONYMOUS_RECEIPTS, SessionParser, SkipSession, analyzeSessionText, type Receipt } from './session-parser.js';
export {
  replayFailure,
  repairAddressesError,
  rewriteOfSuccess,
  successRewrite,
  type SuccessRewrite,
  codeFromMessage,
  resultOf,
  type FailedSubCall,
  type Replay,
} from './counterfactual.js';
export { releaseOfFormat, isMockUsage } from './dsh-releases.js';
export { hostDecisionOf, HOST_DECISION_CLASSES, SUB_CALL_EVENTS } from '@dsh-tool-normalizer/dsh-profile';
export { schemasFromSdk } from './sdk-schemas.js';
export { ReportBuilder } from './census.js';
export { formatReport } from './format-text.js';
export { renderHtml } from './format-html.js';
