/** Public entry of @dsh-tool-normalizer/session-analyzer (pure: no Node I/O): re-exports only. */
export type * from './types.js';
export { COUNTERFACTUAL_OUTCOMES } from './types.js';
export { ANONYMOUS_RECEIPTS, SessionParser, SkipSession, analyzeSessionText, type Receipt } from './session-parser.js';
export { replayFailure, codeFromMessage, resultOf, type FailedSubCall, type Replay } from './counterfactual.js';
export { schemasFromSdk } from './sdk-schemas.js';
export { ReportBuilder } from './census.js';
export { formatReport } from './format-text.js';
export { renderHtml } from './format-html.js';
