/**
 * Number, rate and time formatting plus the pure view logic of the dashboard (ranking order, event filtering),
 * kept out of the element so it can be read and tested without a DOM.
 */
import { OUTCOMES, eventMatches, type EventsQuery, type Outcome } from './feed.js';
import type { DashboardEvent, RateRow } from './types.js';

/** Number and time formatting in one locale (Intl), so figures and dates follow the page's language. */
export interface Formatter {
  /** The BCP 47 tag the formatter uses. */
  readonly locale: string;
  integer(value: number): string;
  /** Token counts: compact above ten thousand (`12.2M`, `1217万`), exact below. */
  tokens(value: number): string;
  /** A ratio as a percentage with one decimal (`2.5%`); null has no denominator and is rendered by the caller. */
  rate(rate: number): string;
  /** Date and time of an epoch-milliseconds instant, in the browser's time zone; '' for an invalid one. */
  time(at: number): string;
}

const formatters = new Map<string, Formatter>();

/** The formatter for a BCP 47 tag (`en-US`, `zh-CN`); created once per tag. */
export function formatterFor(locale: string): Formatter {
  let formatter = formatters.get(locale);
  if (formatter) return formatter;
  const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  formatter = {
    locale,
    integer: (value) => integer.format(value),
    tokens: (value) => (value >= 10_000 ? compact.format(value) : integer.format(value)),
    rate: (rate) => percent.format(Math.round(rate * 1000) / 1000),
    time: (at) => {
      const date = new Date(at);
      return Number.isNaN(date.getTime()) ? '' : dateTime.format(date);
    },
  };
  formatters.set(locale, formatter);
  return formatter;
}

const english = formatterFor('en-US');
export const formatInteger = english.integer;
export const formatTokens = english.tokens;
export const formatRate = english.rate;

/** Rows in ranking order: the server's order for ranked rows, then the rows below the floor by call count. */
export function orderRows(
  rows: readonly RateRow[],
  ranking: readonly string[],
): { ranked: RateRow[]; belowFloor: RateRow[] } {
  const byName = new Map(rows.map((row) => [row.name, row]));
  const ranked: RateRow[] = [];
  for (const name of ranking) {
    const row = byName.get(name);
    if (row?.ranked && !ranked.includes(row)) ranked.push(row);
  }
  // A server that left out the ranking list still gets its ranked rows shown, ordered by failure rate.
  const missing = rows
    .filter((row) => row.ranked && !ranked.includes(row))
    .sort((a, b) => (b.failureRate ?? 0) - (a.failureRate ?? 0) || b.calls - a.calls);
  const belowFloor = rows
    .filter((row) => !row.ranked)
    .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
  return { ranked: [...ranked, ...missing], belowFloor };
}

/** The events table's filters as the form holds them (`from`/`to` are `datetime-local` values, local time). */
export interface EventFilter {
  tool: string;
  category: string;
  /** A rule id, set by clicking a rule card. */
  rule: string;
  outcome: string;
  text: string;
  from: string;
  to: string;
}

export const EMPTY_FILTER: EventFilter = { tool: '', category: '', rule: '', outcome: '', text: '', from: '', to: '' };

/** True when any filter is set. */
export const isFiltered = (filter: EventFilter): boolean => Object.values(filter).some((value) => value !== '');

function localTime(value: string): number | undefined {
  if (value === '') return undefined;
  const at = new Date(value).getTime();
  return Number.isNaN(at) ? undefined : at;
}

/** The filters as the events route's query (empty fields left out; an unparsable time is ignored). */
export function eventsQueryOf(filter: EventFilter): EventsQuery {
  const query: EventsQuery = {};
  if (filter.tool) query.tool = filter.tool;
  if (filter.category) query.category = filter.category;
  if (filter.rule) query.rule = filter.rule;
  if ((OUTCOMES as readonly string[]).includes(filter.outcome)) query.outcome = filter.outcome as Outcome;
  if (filter.text.trim()) query.text = filter.text.trim();
  const from = localTime(filter.from);
  const to = localTime(filter.to);
  if (from !== undefined) query.from = from;
  if (to !== undefined) query.to = to;
  return query;
}

/** Events matching every filter, with the same rules the server applies (`eventMatches` of the feed contract). */
export function filterEvents(events: readonly DashboardEvent[], filter: EventFilter): DashboardEvent[] {
  const query = eventsQueryOf(filter);
  return events.filter((event) => eventMatches(event, query));
}

/** Sorted distinct values, for the filter drop-downs. */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}
