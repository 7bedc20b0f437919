/**
 * Browser-safe entry (`@dsh-tool-normalizer/telemetry-store/feed`): the events/feed contract, written once. The
 * store validates its events queries with it, `@dsh-tool-normalizer/dsh-adapter` serves it (routes, route guard,
 * feed backend) and `<tn-dashboard>` reads it. It holds the route paths, the token and clear requests, the payload
 * types, the events query (type, limits, default page size, URL parser) and the one in-memory matcher the store's
 * SQL is tested against. It imports nothing at run time but the outcome list, so a page loading it never pulls the
 * store's schema library (typebox), Node or the DOM.
 */
import { OUTCOMES, type Outcome } from './outcomes.js';
import type { StatsPayload, StoredEventsPage, TelemetryEvent } from './schema.js';

export { OUTCOMES, type Outcome } from './outcomes.js';

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

/** The query value that selects every profile; the URL also accepts `all`. */
export const ALL_PROFILES = '*';
/** The profile of an event stored before profiles existed (it has no `profile` field). */
export const DEFAULT_PROFILE = 'default';

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

/** OTLP push health, per process: failures, episodes (a run of failures ended by a success) and the last error. */
export interface OtlpPushStatus {
  /** Pushes attempted (each interval, plus the last one at stop). */
  pushes: number;
  failures: number;
  /** Runs of consecutive failures; one warning is logged per episode. */
  episodes: number;
  /** True while the newest push failed. */
  failing: boolean;
  lastError?: string;
  lastFailureAt?: number;
  lastSuccessAt?: number;
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
  otlp?: OtlpPushStatus;
  /** The DSH profile this process runs in: what the page shows unless every profile is asked for. */
  ownProfile?: string;
  /** The profile the numbers are of (`ALL_PROFILES` = every profile). */
  profile?: string;
  /** Every profile with receipts in the store. */
  profiles?: string[];
}

/** The stats route's body: the store's payload plus the adapter's additions. */
export type FeedPayload = StatsPayload & FeedAdditions;

/** A stored event as the feed serves it. */
export type FeedEvent = TelemetryEvent;

/**
 * Filters and paging of stored events: the store's `queryEvents` and the events route take the same query. Times
 * are epoch milliseconds, `from` inclusive, `to` exclusive; `profile` absent means the store's (the server's) own.
 */
export interface EventsQuery {
  /** A DSH profile name, or `ALL_PROFILES`. */
  profile?: string;
  tool?: string;
  category?: string;
  /** A rule id: events whose `ruleIds` hold it (what a rule card's click asks for). */
  rule?: string;
  outcome?: Outcome;
  /** A case-insensitive substring of an event's visible texts (`eventMatches` says which). */
  text?: string;
  from?: number;
  to?: number;
  offset?: number;
  limit?: number;
}

/** Events in a page whose query sets no limit. */
export const DEFAULT_EVENTS_LIMIT = 25;
/** The most events one page holds. */
export const MAX_EVENTS_LIMIT = 200;
/** The largest `offset` the store pages to. */
export const MAX_EVENTS_OFFSET = 100_000_000;
/** Matches counted for an events page's `total`; past it the page says `totalCapped` (counting stays cheap). */
export const EVENTS_TOTAL_CAP = 10_000;
/** The longest tool, category, rule, text or profile filter. */
export const MAX_FILTER_CHARS = 200;

/**
 * The events route's body: the store's page (events newest first, `total` counted up to `EVENTS_TOTAL_CAP`,
 * `totalCapped` when more match) plus the feed version and where the events came from.
 */
export interface EventsPage extends StoredEventsPage {
  v: number;
  /**
   * `store`: the whole stored history was searched; `recent`: only the events the server keeps in memory (an
   * older store that cannot query its history), so `total` counts those.
   */
  source: 'store' | 'recent';
}

/**
 * Thrown for a stats or events query the store cannot accept (the message names the field); a route answers 400
 * with its message. The store's queries throw nothing else for bad input.
 */
export class QueryError extends TypeError {
  override name = 'QueryError';
}

/** The former names of QueryError (the same class). */
export const EventsQueryError = QueryError;
export type EventsQueryError = QueryError;

/** True for a C0 control or DEL: no tool, category, profile or search text holds one, and NUL breaks SQLite's search. */
function hasControl(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const TEXT_KEYS = ['tool', 'category', 'rule', 'text'] as const;
const NUMBER_KEYS = ['from', 'to', 'offset', 'limit'] as const;

function checkText(key: string, value: unknown): string {
  if (typeof value !== 'string') throw new QueryError(`${key} must be a string`);
  if (value.length > MAX_FILTER_CHARS) throw new QueryError(`${key} must be at most ${MAX_FILTER_CHARS} characters`);
  if (hasControl(value)) throw new QueryError(`${key} must not contain control characters`);
  return value;
}

/**
 * The one check of an events query, for the store's API and (through `eventsQueryFromSearchParams`) the route:
 * returns a copy holding only the query's fields, or throws a QueryError naming the first bad one. Never a default.
 */
export function validateEventsQuery(input: unknown): EventsQuery {
  if (input === undefined) return {};
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new QueryError('the events query must be an object');
  const raw = input as Record<string, unknown>;
  const query: EventsQuery = {};
  for (const key of TEXT_KEYS) if (raw[key] !== undefined) query[key] = checkText(key, raw[key]);
  if (raw['profile'] !== undefined) {
    const profile = checkText('profile', raw['profile']);
    if (profile === '') throw new QueryError('profile must not be empty');
    query.profile = profile;
  }
  if (raw['outcome'] !== undefined) {
    if (!(OUTCOMES as readonly unknown[]).includes(raw['outcome']))
      throw new QueryError(`outcome must be one of ${OUTCOMES.join(', ')}`);
    query.outcome = raw['outcome'] as Outcome;
  }
  for (const key of NUMBER_KEYS) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      throw new QueryError(`${key} must be a non-negative integer`);
    query[key] = value;
  }
  if (query.limit !== undefined && (query.limit < 1 || query.limit > MAX_EVENTS_LIMIT))
    throw new QueryError(`limit must be between 1 and ${MAX_EVENTS_LIMIT}`);
  if (query.offset !== undefined && query.offset > MAX_EVENTS_OFFSET)
    throw new QueryError(`offset must be at most ${MAX_EVENTS_OFFSET}`);
  if (query.from !== undefined && query.to !== undefined && query.from > query.to)
    throw new QueryError('from must not be after to');
  return query;
}

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

/**
 * The one parser of the events route's search parameters: empty values are left out, numbers must be written as
 * plain digits, and the result goes through `validateEventsQuery`, so a bad value throws QueryError.
 */
export function eventsQueryFromSearchParams(params: URLSearchParams): EventsQuery {
  const raw: Record<string, unknown> = {};
  for (const key of TEXT_KEYS) {
    const value = params.get(key);
    if (value !== null && value !== '') raw[key] = value;
  }
  const profile = profileFromSearchParams(params);
  if (profile !== undefined) raw['profile'] = profile;
  const outcome = params.get('outcome');
  if (outcome !== null && outcome !== '') raw['outcome'] = outcome;
  for (const key of NUMBER_KEYS) {
    const value = params.get(key);
    if (value === null || value === '') continue;
    if (!/^\d{1,16}$/.test(value)) throw new QueryError(`${key} must be a non-negative integer`);
    raw[key] = Number(value);
  }
  return validateEventsQuery(raw);
}

/**
 * The `profile` search parameter of the stats and events routes: a profile name, `ALL_PROFILES` for `all` or `*`,
 * undefined when absent or empty. Throws QueryError for a value no profile can have.
 */
export function profileFromSearchParams(params: URLSearchParams): string | undefined {
  const value = params.get('profile');
  if (value === null || value === '') return undefined;
  checkText('profile', value);
  return value === 'all' ? ALL_PROFILES : value;
}

/** True when a search parameter (name or value) holds a control character (answered 400 by every route). */
export function hasControlCharacter(params: URLSearchParams): boolean {
  for (const [name, value] of params) if (hasControl(name) || hasControl(value)) return true;
  return false;
}

/** The fields of an event the filters look at (a stored event, or the dashboard's copy of one). */
export interface MatchableEvent {
  at: number;
  profile?: string;
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

/** The filters `eventMatches` applies (an events query's, or the stats query's subset of them). */
export type EventFilters = Pick<
  EventsQuery,
  'profile' | 'tool' | 'category' | 'rule' | 'outcome' | 'text' | 'from' | 'to'
>;

/** The texts a `text` filter searches, in the order the store writes them into its search column. */
export function searchedTexts(event: MatchableEvent): string[] {
  return [
    event.tool,
    event.category,
    event.outcome,
    event.model ?? '',
    event.callId ?? '',
    ...event.ruleIds,
    ...event.changes,
    event.before ?? '',
    event.after ?? '',
    event.error ?? '',
  ];
}

/**
 * The one definition of which events a query selects: every filter set must hold (`text`: a case-insensitive
 * substring of one of `searchedTexts`; `profile`: the event's, `default` when it has none, or any for `*`). The
 * store's SQL answers the same (tests/events-matcher.test.ts); the page filters what it holds with this function.
 * `lowerText` is `query.text.toLowerCase()`, passed by a caller testing many events.
 */
export function eventMatches(event: MatchableEvent, query: EventFilters, lowerText?: string): boolean {
  if (
    query.profile !== undefined &&
    query.profile !== ALL_PROFILES &&
    (event.profile ?? DEFAULT_PROFILE) !== query.profile
  )
    return false;
  if (query.from !== undefined && event.at < query.from) return false;
  if (query.to !== undefined && event.at >= query.to) return false;
  if (query.tool !== undefined && event.tool !== query.tool) return false;
  if (query.category !== undefined && event.category !== query.category) return false;
  if (query.outcome !== undefined && event.outcome !== query.outcome) return false;
  if (query.rule !== undefined && !event.ruleIds.includes(query.rule)) return false;
  if (query.text !== undefined && query.text !== '') {
    const needle = lowerText ?? query.text.toLowerCase();
    if (!searchedTexts(event).some((field) => field.toLowerCase().includes(needle))) return false;
  }
  return true;
}
