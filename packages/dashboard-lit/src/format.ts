/**
 * Number, rate and time formatting plus the pure view logic of the dashboard (ranking order, event filtering),
 * kept out of the element so it can be read and tested without a DOM.
 */
import type { DashboardEvent, Outcome, RateRow } from './types.js';

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const formatInteger = (value: number): string => integerFormat.format(value);

/** Token counts: compact above ten thousand (`153.3M`), exact below. */
export const formatTokens = (value: number): string =>
  value >= 10_000 ? compactFormat.format(value) : integerFormat.format(value);

/** A ratio as a percentage with one decimal (`2.2%`); null has no denominator and is rendered by the caller. */
export function formatRate(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

export function formatTime(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}

export const OUTCOME_LABELS: Record<Outcome, string> = {
  'healed-success': 'healed',
  'healed-failed': 'heal failed',
  passthrough: 'pass-through',
  'passthrough-failed': 'pass-through failed',
};

/** Rows in ranking order: the server's order for ranked rows, then the rows below the floor by call count. */
export function orderRows(rows: readonly RateRow[], ranking: readonly string[]): { ranked: RateRow[]; belowFloor: RateRow[] } {
  const byName = new Map(rows.map((row) => [row.name, row]));
  const ranked: RateRow[] = [];
  for (const name of ranking) {
    const row = byName.get(name);
    if (row && row.ranked && !ranked.includes(row)) ranked.push(row);
  }
  // A server that left out the ranking list still gets its ranked rows shown, ordered by failure rate.
  const missing = rows
    .filter((row) => row.ranked && !ranked.includes(row))
    .sort((a, b) => (b.failureRate ?? 0) - (a.failureRate ?? 0) || b.calls - a.calls);
  const belowFloor = rows.filter((row) => !row.ranked).sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
  return { ranked: [...ranked, ...missing], belowFloor };
}

export interface EventFilter {
  tool: string;
  category: string;
  outcome: string;
  text: string;
}

export const EMPTY_FILTER: EventFilter = { tool: '', category: '', outcome: '', text: '' };

/** Lower-cased searchable text of each event, computed once per event object (events are never mutated). */
const searchText = new WeakMap<DashboardEvent, string>();

function searchTextOf(event: DashboardEvent): string {
  let text = searchText.get(event);
  if (text === undefined) {
    const fields = [event.tool, event.category, event.outcome, event.before, event.after, event.error, event.model, ...event.ruleIds, ...event.changes];
    // A separator no field can contain keeps a search from matching across two fields.
    text = fields.filter((field): field is string => typeof field === 'string').join('\u0000').toLowerCase();
    searchText.set(event, text);
  }
  return text;
}

/** Events matching every non-empty filter; `text` is a case-insensitive substring of any textual field. */
export function filterEvents(events: readonly DashboardEvent[], filter: EventFilter): DashboardEvent[] {
  const needle = filter.text.trim().toLowerCase();
  return events.filter((event) => {
    if (filter.tool && event.tool !== filter.tool) return false;
    if (filter.category && event.category !== filter.category) return false;
    if (filter.outcome && event.outcome !== filter.outcome) return false;
    return !needle || searchTextOf(event).includes(needle);
  });
}

/** Sorted distinct values, for the filter drop-downs. */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}
