/**
 * Pure aggregation: turns counters and recent events into the stats payload the HTTP route and the dashboard
 * serve, and parses stats queries. The rates are defined here once (see README "Stats definitions"). Pure module.
 */
import { QueryError, eventMatches, profileFromSearchParams } from './feed.js';
import {
  SCHEMA_VERSION,
  isRepeatCaught,
  statsQueryValidator,
  type Bucket,
  type RateRow,
  type StatsPayload,
  type StatsQuery,
  type TelemetryEvent,
} from './schema.js';
import { Counters, type CappedBuckets, type CounterOptions } from './counters.js';
import { redact } from './redact.js';

/** Rows below this many calls are listed but never ranked (a tool seen twice does not top a ranking). */
export const DEFAULT_MIN_CALLS = 5;
/** Recent events returned when the query sets no limit. */
export const DEFAULT_RECENT_LIMIT = 50;

/** `numerator / denominator`, or null when there is nothing to divide by. */
export function rate(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

/** Storage facts shown next to the numbers. */
export interface StorageInfo {
  logging: boolean;
  persistPassthrough: boolean;
  rejectedInputs: number;
  skippedLines: number;
  dropped: number;
  prunedEvents: number;
  storedEvents: number;
  storedBytes?: number;
  memoryOnly?: boolean;
  writeEpisodes?: number;
  lastWriteError?: string;
  unsavedEvents?: number;
  error?: string;
  /** When the store was last cleared and how many counted calls (all profiles) that clear erased. */
  lastClear?: { at: number; erasedCalls: number };
}

export { QueryError };

/** The former name of QueryError (the same class). */
export const StatsQueryError = QueryError;
export type StatsQueryError = QueryError;

/** Returns the query when it matches the schema; throws a StatsQueryError naming the first bad field otherwise. */
export function validateStatsQuery(query: unknown): StatsQuery {
  if (query === undefined) return {};
  if (statsQueryValidator.Check(query)) return query;
  const [first] = statsQueryValidator.Errors(query);
  const where = first?.instancePath || '(query)';
  throw new QueryError(`invalid stats query at ${where}: ${first?.message ?? 'does not match the StatsQuery schema'}`);
}

/**
 * Builds a StatsQuery from URL search parameters (the stats route's query string). Empty values are ignored;
 * numbers are parsed; the result is validated, so a bad value is a StatsQueryError, never a silent default.
 */
export function statsQueryFromSearchParams(params: URLSearchParams): StatsQuery {
  const query: Record<string, unknown> = {};
  const profile = profileFromSearchParams(params);
  if (profile !== undefined) query['profile'] = profile;
  for (const key of ['tool', 'category', 'outcome', 'text'] as const) {
    const value = params.get(key);
    if (value !== null && value !== '') query[key] = value;
  }
  for (const key of ['limit', 'minCalls'] as const) {
    const value = params.get(key);
    if (value !== null && value !== '') query[key] = /^\d+$/.test(value) ? Number(value) : value;
  }
  return validateStatsQuery(query);
}

function rowOf(name: string, bucket: Bucket, minCalls: number): RateRow {
  return {
    name: redact(name),
    calls: bucket.calls,
    failures: bucket.failures,
    healedSuccess: bucket.healedSuccess,
    healedFailed: bucket.healedFailed,
    tokensSaved: bucket.tokensSaved,
    failureRate: rate(bucket.failures, bucket.calls),
    counterfactualFailureRate: rate(bucket.failures + bucket.healedSuccess, bucket.calls),
    healingSuccessRate: rate(bucket.healedSuccess, bucket.healedSuccess + bucket.healedFailed),
    ranked: bucket.calls >= minCalls,
  };
}

function rowsOf(buckets: CappedBuckets, minCalls: number): RateRow[] {
  const rows: RateRow[] = [];
  for (const [name, bucket] of buckets.buckets) rows.push(rowOf(name, bucket, minCalls));
  return rows.sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
}

/** Names of ranked rows with at least one failure, highest failure rate first (ties: more calls first). */
function ranking(rows: readonly RateRow[]): string[] {
  return rows
    .filter((row) => row.ranked && row.failures > 0)
    .sort((a, b) => (b.failureRate ?? 0) - (a.failureRate ?? 0) || b.calls - a.calls || a.name.localeCompare(b.name))
    .map((row) => row.name);
}

export interface ComputeStatsInput {
  counters: Counters;
  /** Recent events, newest first (e.g. a RingBuffer's `newestFirst()`). */
  recent: Iterable<TelemetryEvent>;
  query?: StatsQuery;
  now: number;
  defaultMinCalls?: number;
  storage: StorageInfo;
  /** The profile the counters and events are of (`*`: all). */
  profile?: string;
  /** Every profile known to the database. */
  profiles?: string[];
}

/** The stats payload. Work is proportional to the number of distinct tools/categories and recent events, not to calls. */
export function computeStats(input: ComputeStatsInput): StatsPayload {
  const query = validateStatsQuery(input.query);
  const { counters } = input;
  const totals = { ...counters.totals };
  const minCalls = query.minCalls ?? input.defaultMinCalls ?? DEFAULT_MIN_CALLS;
  const limit = query.limit ?? DEFAULT_RECENT_LIMIT;
  const surfaced = totals.healedFailed + totals.passThroughFailed;
  const tools = rowsOf(counters.tools, minCalls);
  const categories = rowsOf(counters.categories, minCalls);
  const recent: TelemetryEvent[] = [];
  let recentMatched = 0;
  const lowerText = query.text?.toLowerCase();
  for (const event of input.recent) {
    if (!eventMatches(event, query, lowerText)) continue;
    recentMatched += 1;
    if (recent.length < limit) recent.push(event);
  }
  return {
    v: SCHEMA_VERSION,
    generatedAt: input.now,
    since: counters.since,
    ...(input.profile === undefined ? {} : { profile: input.profile }),
    ...(input.profiles === undefined ? {} : { profiles: input.profiles }),
    totals,
    rates: {
      healingSuccessRate: rate(totals.healedSuccess, totals.healedSuccess + totals.healedFailed),
      surfacedErrorRate: rate(surfaced, totals.calls),
      counterfactualErrorRate: rate(surfaced + totals.healedSuccess, totals.calls),
    },
    minCalls,
    tools,
    categories,
    rankings: { toolsByFailureRate: ranking(tools), categoriesByFailureRate: ranking(categories) },
    recent,
    recentMatched,
    storage: {
      ...input.storage,
      foldedToolCalls: counters.tools.foldedCalls,
    },
  };
}

/**
 * Counters rebuilt from stored events (what the log alone can tell when the summary is lost). They start at the
 * earliest event, or at `sinceWhenEmpty` when there are no events.
 */
export function countersFromEvents(
  events: Iterable<TelemetryEvent>,
  sinceWhenEmpty: number,
  options?: CounterOptions,
): Counters {
  const counters = new Counters(Number.POSITIVE_INFINITY, options);
  for (const event of events) {
    counters.add(event.tool, event.category, event.outcome, event.tokensSaved, isRepeatCaught(event));
    if (event.at < counters.since) counters.since = event.at;
  }
  if (counters.since === Number.POSITIVE_INFINITY) counters.since = sinceWhenEmpty;
  return counters;
}
