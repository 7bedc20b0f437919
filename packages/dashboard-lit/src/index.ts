/** Public entry: the element class, its dictionaries and payload types; importing it registers nothing (see `./define`). */
export {
  TnDashboard,
  DEFAULT_STATS_URL,
  DEFAULT_EVENTS_URL,
  DEFAULT_CLEAR_URL,
  DEFAULT_TOKEN_URL,
  CLEAR_HEADER,
  CLEAR_BODY,
  DEFAULT_REFRESH_SECONDS,
  MIN_REFRESH_SECONDS,
} from './dashboard-element.js';
export {
  checkPayload,
  checkEventsPage,
  SUPPORTED_VERSION,
  type PayloadCheck,
  type EventsPageCheck,
} from './payload.js';
export {
  en,
  zh,
  createTranslate,
  supportedLocale,
  type MessageKey,
  type Messages,
  type SupportedLocale,
  type Translate,
} from './messages.js';
export {
  readableChange,
  decodeArguments,
  lineDiff,
  type Readable,
  type DiffLine,
  type KeyChange,
  type Span,
} from './before-after.js';
export type { DashboardPayload, DashboardEvent, RateRow, RuleCard, Totals, Outcome, Rate, Theme } from './types.js';
export type { FeedPayload, EventsPage, EventsQuery, RuleState, OptionState } from './feed.js';
export { opensOnAllProfiles, otherProfilesWhenOwnIsEmpty, type ProfileScopeInput } from './profile-scope.js';
