/**
 * The part of the stats feed the dashboard renders, written as plain TypeScript so the element compiles and
 * bundles without the typebox runtime. It mirrors `StatsPayload` of `@dsh-tool-normalizer/telemetry-store/query`
 * (schema version 1); the compile-time check at the end of this file fails the build when the store's type stops
 * being assignable to this one, and `tests/payload.test.ts` runs the real store's output through the runtime check.
 * `rules` is the one addition: the rule catalogue the server may attach.
 */
import type { StatsPayload } from '@dsh-tool-normalizer/telemetry-store/query';

export type Outcome = 'healed-success' | 'healed-failed' | 'passthrough' | 'passthrough-failed';

export const OUTCOMES: readonly Outcome[] = ['healed-success', 'healed-failed', 'passthrough', 'passthrough-failed'];

/** A ratio in [0, 1], or null when its denominator is zero. */
export type Rate = number | null;

export interface Totals {
  calls: number;
  healedSuccess: number;
  healedFailed: number;
  passThrough: number;
  passThroughFailed: number;
  tokensSaved: number;
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
}

/** One healing rule as described by core-rules' `ruleCatalogue` (the dashboard never imports core-rules). */
export interface RuleCard {
  id: string;
  category: string;
  title: string;
  description: string;
  option?: string;
  /** Whether the rule's option is on in the running configuration, when the server knows. */
  enabled?: boolean;
}

export interface DashboardPayload {
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
  };
  /** Exceptions the plugin caught and failed open on (served by dsh-adapter's stats route). */
  pluginErrors?: number;
  /** Optional rule catalogue; the element's `rules` property takes precedence. */
  rules?: RuleCard[];
}

export type Theme = 'light' | 'dark' | 'auto';

/** Compile-time contract: whatever the telemetry store serves must be renderable by this dashboard. */
type Renderable<T extends DashboardPayload> = T;
type StorePayloadIsRenderable = Renderable<StatsPayload>;
