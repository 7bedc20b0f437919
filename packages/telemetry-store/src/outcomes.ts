/**
 * Browser-safe entry (`@dsh-tool-normalizer/telemetry-store/outcomes`): the four call outcomes, defined once.
 * The store's schema validates against this list and the dashboard lists and filters by it. It imports
 * nothing, so a page that needs only these names does not load the store's schema library.
 */

/** What happened to a model-visible call: healed or passed through, and whether the model saw a success. */
export const OUTCOMES = Object.freeze([
  'healed-success',
  'healed-failed',
  'passthrough',
  'passthrough-failed',
] as const);

export type Outcome = (typeof OUTCOMES)[number];

/**
 * The one definition of "tokens saved", shown by the dashboard (measured), the demo (measured) and the session
 * analyzer (predicted): per healed call, the request size DSH's token meter reports at that call, i.e. the context
 * the model would have re-read in the round-trip the failure would have cost. Counted only for a call that would
 * have failed and then succeeded; 0 where no token meter runs.
 */
export const TOKENS_SAVED_DEFINITION = Object.freeze({
  en: "per healed call, the request size DSH's token meter reports at that call (the context the model would have re-read in the round-trip the failure would have cost)",
  zh: '每个被修复的调用在该调用时由 DSH 的 token 计量器测得的请求大小（即这次失败本会多花的一轮中模型要重新读取的上下文）',
});
