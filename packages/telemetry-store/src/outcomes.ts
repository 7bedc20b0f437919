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
