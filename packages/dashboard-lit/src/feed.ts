/**
 * The stats feed contract, written once and imported by both sides: `@dsh-tool-normalizer/dsh-adapter` serves it
 * (routes.ts, plugin.ts) and `<tn-dashboard>` reads it. It holds the route paths, the clear action's request, the
 * payloads (the store's stats plus what the adapter adds: `pluginErrors`, the rule catalogue with each rule's
 * effective state and firing count, the effective configuration) and the events page query with its URL form.
 *
 * It lives in dashboard-lit (entry `./feed`) because it must run in the browser bundle and in Node: it imports
 * nothing from Node, the DOM or DSH; from telemetry-store it takes types from the browser-safe `./query` entry and
 * the outcome list from the import-free `./outcomes` entry, so the page never pulls the store's runtime (typebox).
 */
import { OUTCOMES, type Outcome } from '@dsh-tool-normalizer/telemetry-store/outcomes';
import type { StatsPayload } from '@dsh-tool-normalizer/telemetry-store/query';

export const ROUTE_PREFIX = '/plugin-api/tool-normalizer';
/** `GET`: the stats payload (`FeedPayload`). */
export const STATS_PATH = `${ROUTE_PREFIX}/stats`;
/** `GET`: one page of stored events (`EventsPage`), filtered on the server (`EventsQuery` as search parameters). */
export const EVENTS_PATH = `${ROUTE_PREFIX}/events`;
/** `POST`: clears counters and stored events; needs `CLEAR_HEADER: CLEAR_HEADER_VALUE`, `CLEAR_BODY` and the token. */
export const CLEAR_PATH = `${ROUTE_PREFIX}/clear`;
/**
 * `GET`: `{ "token": "..." }`, the per-process secret the page sends back in `TOKEN_HEADER`. Handed out only to a
 * same-origin browser request (`Sec-Fetch-Site: same-origin`) with a loopback Host that reached the server from this
 * machine; the clear action always needs it, and every route needs it when DSH listens on a non-loopback address.
 */
export const TOKEN_PATH = `${ROUTE_PREFIX}/token`;
export const TOKEN_HEADER = 'x-tool-normalizer-token';
/** The `reason` of a 403 whose token was missing or stale: fetch the token again and retry once. */
export const TOKEN_REFUSAL = 'token';

/**
 * The clear action's request: a custom header and a JSON body, which a cross-site form or no-cors fetch cannot
 * send without a CORS preflight the server never approves.
 */
export const CLEAR_HEADER = 'x-tool-normalizer-action';
export const CLEAR_HEADER_VALUE = 'clear';
export const CLEAR_BODY = '{"confirm":"clear"}';

/** Schema version of the feed (the store's stats payload version). */
export const FEED_VERSION = 1;

/** The call outcomes, from the store's import-free `./outcomes` entry (one list for the store and the page). */
export { OUTCOMES, type Outcome } from '@dsh-tool-normalizer/telemetry-store/outcomes';

/** One healing rule of core-rules' `ruleCatalogue`, as the adapter serves it. */
export interface RuleState {
  id: string;
  /** `normalize`, `recover` or `hint`. */
  stage?: string;
  category: string;
  title: string;
  description: string;
  /** The configuration option that switches the rule on and off. */
  option?: string;
  /** Whether that option is on in the running configuration. */
  enabled?: boolean;
  /** Events that name this rule among the `firedOf` events the server counted. */
  fired?: number;
}

/** Rule firing counts and the number of stored events they were counted over. */
export interface RuleUsage {
  /** How many stored events the counts cover. */
  counted: number;
  /** True when `counted` is every stored event; false when it is only the newest ones. */
  complete: boolean;
}

/** An option's value as the feed shows it; a map (request headers) shows its keys, each value hidden. */
export type OptionValue = boolean | number | string | string[] | Record<string, string>;

/** One configuration option and its effective value, for the read-only options view. */
export interface OptionState {
  name: string;
  value: OptionValue;
  /** The built-in default; a value different from it was set by the user. */
  defaultValue: OptionValue;
  description?: string;
  /**
   * True for an option DSH applies live (edited in Plugins > Plugin configuration, read on every call); false for
   * one set in cordis.patch.yml and applied at the next start. Absent from older servers.
   */
  live?: boolean;
}

/** What the adapter adds to the store's stats payload. */
export interface FeedAdditions {
  /** Exceptions the plugin caught and failed open on. */
  pluginErrors?: number;
  /** The rule catalogue with each rule's effective state and firing count. */
  rules?: RuleState[];
  ruleUsage?: RuleUsage;
  /** The effective configuration (secrets never appear in it: the plugin has no secret options). */
  options?: OptionState[];
  /** This process's OTLP push health (only when a push is configured): pushes, failures, failure episodes. */
  otlp?: {
    pushes: number;
    failures: number;
    episodes: number;
    failing: boolean;
    lastError?: string;
    lastFailureAt?: number;
    lastSuccessAt?: number;
  };
  /** The DSH profile this process runs in: what the page shows unless every profile is asked for. */
  ownProfile?: string;
  /**
   * The profile the numbers are of (`ALL_PROFILES` = every profile). telemetry-store's per-profile payload has this
   * field; the adapter fills it in for a store without it.
   */
  profile?: string;
  /** Every profile with receipts in the store (telemetry-store's per-profile payload; absent from older stores). */
  profiles?: string[];
}

/** The stats route's body: the store's payload plus the adapter's additions. */
export type FeedPayload = StatsPayload & FeedAdditions;

/** A stored event as the feed serves it. */
export type FeedEvent = StatsPayload['recent'][number];

/** Filters and paging of the events route. Times are epoch milliseconds; `from` inclusive, `to` exclusive. */
export interface EventsQuery {
  /** A DSH profile name, or `ALL_PROFILES`; absent means the server's own profile. */
  profile?: string;
  tool?: string;
  category?: string;
  /** A rule id: events whose `ruleIds` hold it (what a rule card's click asks for). */
  rule?: string;
  outcome?: Outcome;
  text?: string;
  from?: number;
  to?: number;
  offset?: number;
  limit?: number;
}

export const DEFAULT_EVENTS_LIMIT = 25;
export const MAX_EVENTS_LIMIT = 200;
/** The largest `offset` the store pages to (telemetry-store's `EventsQuery` schema). */
export const MAX_EVENTS_OFFSET = 100_000_000;
const MAX_FILTER_CHARS = 200;
/** The `profile` value meaning every profile; the URL also accepts `all`. */
export const ALL_PROFILES = '*';
/** True for a C0 control or DEL: no tool, category, profile or search text holds one, and NUL breaks the store's search. */
function hasControl(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The events route's body: events newest first, and how many events match the filters in all. */
export interface EventsPage {
  v: number;
  events: FeedEvent[];
  /** Stored events matching the filters (all pages), counted up to a cap (the store's: 10,000). */
  total: number;
  /**
   * True when more events match than `total` counts (the server stopped counting at its cap): show "10,000+" and
   * keep paging older until a page comes back short, instead of a page count. Absent means `total` is exact.
   */
  totalCapped?: boolean;
  offset: number;
  limit: number;
  /**
   * `store`: the whole stored history was searched; `recent`: only the events the server keeps in memory (an
   * older store that cannot query its history), so `total` counts those.
   */
  source: 'store' | 'recent';
}

/** Thrown by `eventsQueryFromSearchParams` for a parameter it cannot accept; the message names it. */
export class EventsQueryError extends TypeError {
  override name = 'EventsQueryError';
}

const TEXT_KEYS = ['tool', 'category', 'rule', 'text'] as const;
const NUMBER_KEYS = ['from', 'to', 'offset', 'limit'] as const;

/** The query as URL search parameters (empty and undefined values left out). */
export function eventsQueryToSearchParams(query: EventsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['profile', ...TEXT_KEYS, 'outcome'] as const) {
    const value = query[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  for (const key of NUMBER_KEYS) {
    const value = query[key];
    if (value !== undefined) params.set(key, String(value));
  }
  return params;
}

/** Parses and checks the events route's search parameters; a bad value throws EventsQueryError, never a default. */
export function eventsQueryFromSearchParams(params: URLSearchParams): EventsQuery {
  const query: EventsQuery = {};
  for (const key of TEXT_KEYS) {
    const value = params.get(key);
    if (value === null || value === '') continue;
    if (value.length > MAX_FILTER_CHARS)
      throw new EventsQueryError(`${key} must be at most ${MAX_FILTER_CHARS} characters`);
    if (hasControl(value)) throw new EventsQueryError(`${key} must not contain control characters`);
    query[key] = value;
  }
  const profile = profileFromSearchParams(params);
  if (profile !== undefined) query.profile = profile;
  const outcome = params.get('outcome');
  if (outcome !== null && outcome !== '') {
    if (!(OUTCOMES as readonly string[]).includes(outcome))
      throw new EventsQueryError(`outcome must be one of ${OUTCOMES.join(', ')}`);
    query.outcome = outcome as Outcome;
  }
  for (const key of NUMBER_KEYS) {
    const value = params.get(key);
    if (value === null || value === '') continue;
    if (!/^\d{1,16}$/.test(value)) throw new EventsQueryError(`${key} must be a non-negative integer`);
    query[key] = Number(value);
  }
  if (query.limit !== undefined && (query.limit < 1 || query.limit > MAX_EVENTS_LIMIT)) {
    throw new EventsQueryError(`limit must be between 1 and ${MAX_EVENTS_LIMIT}`);
  }
  if (query.offset !== undefined && query.offset > MAX_EVENTS_OFFSET)
    throw new EventsQueryError(`offset must be at most ${MAX_EVENTS_OFFSET}`);
  if (query.from !== undefined && query.to !== undefined && query.from > query.to)
    throw new EventsQueryError('from must not be after to');
  return query;
}

/**
 * The `profile` search parameter of the stats and events routes: a profile name, `ALL_PROFILES` for `all` or `*`,
 * undefined when absent or empty. Throws EventsQueryError for a value no profile can have.
 */
export function profileFromSearchParams(params: URLSearchParams): string | undefined {
  const value = params.get('profile');
  if (value === null || value === '') return undefined;
  if (value.length > MAX_FILTER_CHARS)
    throw new EventsQueryError(`profile must be at most ${MAX_FILTER_CHARS} characters`);
  if (hasControl(value)) throw new EventsQueryError('profile must not contain control characters');
  return value === 'all' ? ALL_PROFILES : value;
}

/** True when a search parameter (name or value) holds a control character (answered 400 by every route). */
export function hasControlCharacter(params: URLSearchParams): boolean {
  for (const [name, value] of params) if (hasControl(name) || hasControl(value)) return true;
  return false;
}

/** The fields of an event the filters look at. */
export interface MatchableEvent {
  at: number;
  tool: string;
  category: string;
  outcome: string;
  model?: string;
  callId?: string;
  error?: string;
  before?: string;
  after?: string;
  ruleIds: readonly string[];
  changes: readonly string[];
}

/** True when an event passes the query's filters (the same rules as the store's `matchesQuery`, plus the time range). */
export function eventMatches(event: MatchableEvent, query: EventsQuery): boolean {
  if (query.from !== undefined && event.at < query.from) return false;
  if (query.to !== undefined && event.at >= query.to) return false;
  if (query.tool !== undefined && event.tool !== query.tool) return false;
  if (query.category !== undefined && event.category !== query.category) return false;
  if (query.outcome !== undefined && event.outcome !== query.outcome) return false;
  if (query.rule !== undefined && !event.ruleIds.includes(query.rule)) return false;
  if (query.text) {
    const needle = query.text.toLowerCase();
    const fields = [
      event.tool,
      event.category,
      event.outcome,
      event.model,
      event.callId,
      event.error,
      event.before,
      event.after,
      ...event.ruleIds,
      ...event.changes,
    ];
    if (!fields.some((field) => typeof field === 'string' && field.toLowerCase().includes(needle))) return false;
  }
  return true;
}
