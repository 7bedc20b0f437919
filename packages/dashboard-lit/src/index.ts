/** Public entry: the element class and its payload types; importing it registers nothing (see `./define`). */
export { TnDashboard, DEFAULT_STATS_URL, DEFAULT_CLEAR_URL, CLEAR_HEADER, CLEAR_BODY, DEFAULT_REFRESH_SECONDS, MIN_REFRESH_SECONDS } from './dashboard-element.js';
export { checkPayload, SUPPORTED_VERSION, type PayloadCheck } from './payload.js';
export type { DashboardPayload, DashboardEvent, RateRow, RuleCard, Totals, Outcome, Rate, Theme } from './types.js';
