/**
 * Checks a stats payload before the dashboard renders it, so a wrong URL, an older server or a hand-built
 * `data` object produces one clear error message instead of a half-drawn page or an exception in render.
 * Only the fields the dashboard reads are checked; unknown extra fields are ignored.
 */
import type { EventsPage } from './feed.js';
import type { DashboardPayload } from './types.js';

export const SUPPORTED_VERSION = 1;

export type PayloadCheck = { ok: true; payload: DashboardPayload } | { ok: false; message: string };

/** Returns undefined when `value` fits, else the problem as `<relative path> must ...` (paths are built only on failure). */
type Checker = (value: unknown) => string | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const number: Checker = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? undefined : ' must be a finite number';
const string: Checker = (value) => (typeof value === 'string' ? undefined : ' must be a string');
const boolean: Checker = (value) => (typeof value === 'boolean' ? undefined : ' must be a boolean');
const rate: Checker = (value) =>
  value === null || (typeof value === 'number' && value >= 0 && value <= 1)
    ? undefined
    : ' must be a number between 0 and 1, or null';
const optional =
  (inner: Checker): Checker =>
  (value) =>
    value === undefined ? undefined : inner(value);
const arrayOf =
  (inner: Checker): Checker =>
  (value) => {
    if (!Array.isArray(value)) return ' must be an array';
    for (let index = 0; index < value.length; index++) {
      const problem = inner(value[index]);
      if (problem) return `[${index}]${problem}`;
    }
    return undefined;
  };
const object = (shape: Record<string, Checker>): Checker => {
  const entries = Object.entries(shape);
  return (value) => {
    if (!isRecord(value)) return ' must be an object';
    for (const [key, check] of entries) {
      const problem = check(value[key]);
      if (problem) return `.${key}${problem}`;
    }
    return undefined;
  };
};

const rateRow = object({
  name: string,
  calls: number,
  failures: number,
  healedSuccess: number,
  healedFailed: number,
  tokensSaved: number,
  failureRate: rate,
  counterfactualFailureRate: rate,
  healingSuccessRate: rate,
  ranked: boolean,
});

const event = object({
  id: string,
  at: number,
  tool: string,
  category: string,
  outcome: string,
  ruleIds: arrayOf(string),
  before: optional(string),
  after: optional(string),
  changes: arrayOf(string),
  error: optional(string),
  tokensSaved: number,
  model: optional(string),
  profile: optional(string),
  harness: optional(string),
});

const rule = object({
  id: string,
  stage: optional(string),
  category: string,
  title: string,
  description: string,
  option: optional(string),
  enabled: optional(boolean),
  fired: optional(number),
});

const optionValue: Checker = (value) =>
  typeof value === 'boolean' ||
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  (Array.isArray(value) && value.every((item) => typeof item === 'string')) ||
  (typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string'))
    ? undefined
    : ' must be a boolean, number, string, list of strings or map of strings';

const option = object({
  name: string,
  value: optionValue,
  defaultValue: optionValue,
  description: optional(string),
  live: optional(boolean),
});

const payloadShape = object({
  generatedAt: number,
  since: number,
  totals: object({
    calls: number,
    healedSuccess: number,
    healedFailed: number,
    passThrough: number,
    passThroughFailed: number,
    tokensSaved: number,
    repeatsCaught: optional(number),
  }),
  rates: object({ healingSuccessRate: rate, surfacedErrorRate: rate, counterfactualErrorRate: rate }),
  minCalls: number,
  tools: arrayOf(rateRow),
  categories: arrayOf(rateRow),
  rankings: object({ toolsByFailureRate: arrayOf(string), categoriesByFailureRate: arrayOf(string) }),
  recent: arrayOf(event),
  recentMatched: number,
  storage: optional(
    object({
      logging: optional(boolean),
      persistPassthrough: optional(boolean),
      rejectedInputs: optional(number),
      skippedLines: optional(number),
      foldedToolCalls: optional(number),
      dropped: optional(number),
      lastClear: optional(object({ at: number, erasedCalls: number })),
    }),
  ),
  pluginErrors: optional(number),
  rules: optional(arrayOf(rule)),
  ruleUsage: optional(object({ counted: number, complete: boolean })),
  options: optional(arrayOf(option)),
  ownProfile: optional(string),
  profile: optional(string),
  profiles: optional(arrayOf(string)),
});

const eventsPageShape = object({
  events: arrayOf(event),
  total: number,
  totalCapped: optional(boolean),
  offset: number,
  limit: number,
  source: string,
});

export type EventsPageCheck = { ok: true; page: EventsPage } | { ok: false; message: string };

/** Accepts a parsed JSON value as a page of the events route, or says what is wrong with it. */
export function checkEventsPage(value: unknown): EventsPageCheck {
  if (!isRecord(value)) return { ok: false, message: 'the events page is not a JSON object' };
  if (value.v !== SUPPORTED_VERSION)
    return { ok: false, message: `unsupported events page version ${JSON.stringify(value.v) ?? 'undefined'}` };
  const problem = eventsPageShape(value);
  if (problem) return { ok: false, message: `invalid events page: page${problem}` };
  return { ok: true, page: value as unknown as EventsPage };
}

/** Accepts a parsed JSON value as a stats payload of the supported version, or says what is wrong with it. */
export function checkPayload(value: unknown): PayloadCheck {
  if (!isRecord(value)) return { ok: false, message: 'the stats payload is not a JSON object' };
  if (value.v !== SUPPORTED_VERSION) {
    return {
      ok: false,
      message: `unsupported stats payload version ${JSON.stringify(value.v) ?? 'undefined'} (this dashboard reads version ${SUPPORTED_VERSION})`,
    };
  }
  const problem = payloadShape(value);
  if (problem) return { ok: false, message: `invalid stats payload: payload${problem}` };
  return { ok: true, payload: value as unknown as DashboardPayload };
}
