/**
 * The part of the stats feed the dashboard renders, as the element accepts it: the feed contract's payload
 * (`FeedPayload` of `./feed`) with every field the dashboard can live without made optional, so an older server
 * or a hand-built `data` object still renders. The compile-time check at the end of this file fails the build
 * when the feed's type stops being assignable to this one; `tests/payload.test.ts` runs the real store's output
 * through the runtime check.
 */
import type { FeedAdditions, FeedPayload, Outcome, RuleState } from './feed.js';

export { OUTCOMES, type Outcome } from './feed.js';

/** A ratio in [0, 1], or null when its denominator is zero. */
export type Rate = number | null;

export interface Totals {
  calls: number;
  healedSuccess: number;
  healedFailed: number;
  passThrough: number;
  passThroughFailed: number;
  tokensSaved: number;
  /** Identical failures the loop breaker caught and hinted (absent from servers older than the counter). */
  repeatsCaught?: number;
}

/** One row of the per-tool or per-category table. */
export interface RateRow {
  name: string;
  calls: number;
  failures: number;
  healedSuccess: number;
  healedFailed: number;
  tokensSaved: number;
  failureRate: Rate;
  counterfactualFailureRate: Rate;
  healingSuccessRate: Rate;
  /** false when `calls` is below the minimum-calls floor: listed, never ranked. */
  ranked: boolean;
}

/** One intercepted call; every text field was redacted by the store before it was served. */
export interface DashboardEvent {
  /** Schema version of the stored event. */
  v?: number;
  id: string;
  at: number;
  callId?: string;
  tool: string;
  category: string;
  outcome: Outcome;
  ruleIds: string[];
  before?: string;
  after?: string;
  changes: string[];
  error?: string;
  tokensSaved: number;
  model?: string;
  /** The DSH profile the call was recorded in (stores with per-profile receipts). */
  profile?: string;
  /** The harness that recorded the call when it was not DSH itself (`mcp`: the MCP healing proxy); DSH's have none. */
  harness?: string;
}

/** One rule card: core-rules' catalogue row with its state, as the adapter serves it. */
export type RuleCard = RuleState;

export interface DashboardPayload extends FeedAdditions {
  v: number;
  generatedAt: number;
  since: number;
  totals: Totals;
  rates: {
    healingSuccessRate: Rate;
    surfacedErrorRate: Rate;
    counterfactualErrorRate: Rate;
  };
  minCalls: number;
  tools: RateRow[];
  categories: RateRow[];
  rankings: {
    toolsByFailureRate: string[];
    categoriesByFailureRate: string[];
  };
  recent: DashboardEvent[];
  recentMatched: number;
  /** Health of the server's storage; every field is optional so an older or newer server still renders. */
  storage?: {
    logging?: boolean;
    persistPassthrough?: boolean;
    rejectedInputs?: number;
    skippedLines?: number;
    /** Calls of rarely seen tool names counted together under one row (the store caps its maps). */
    foldedToolCalls?: number;
    /** Events dropped from a full write queue (their calls are still counted). */
    dropped?: number;
    /** The store's last clear (kept through the clear: a clear is a receipt): when, and how many calls it erased. */
    lastClear?: { at: number; erasedCalls: number };
  };
}

export type Theme = 'light' | 'dark' | 'auto';

/** Compile-time contract: whatever the feed serves must be renderable by this dashboard. */
type Renderable<T extends DashboardPayload> = T;
export type FeedPayloadIsRenderable = Renderable<FeedPayload>;
