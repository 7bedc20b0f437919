/**
 * What the web routes serve, assembled from the running plugin: the store's stats plus the feed contract's
 * additions (contained plugin errors, core-rules' rule catalogue with each rule's effective on/off state from the
 * config and how often it fired, the effective configuration) and pages of the whole stored history, filtered and
 * paged by the store's database query.
 */
import { ruleCatalogue } from '@dsh-tool-normalizer/core-rules';
import {
  DEFAULT_EVENTS_LIMIT,
  FEED_VERSION,
  MAX_EVENTS_LIMIT,
  type EventsPage,
  type EventsQuery,
  type FeedEvent,
  type FeedPayload,
  type OptionState,
  type RuleState,
} from '@dsh-tool-normalizer/telemetry-store/feed';
import { redact, type StatsQuery, type TelemetryStore } from '@dsh-tool-normalizer/telemetry-store';
import { ConfigSchema, type ToolNormalizerConfig } from './config.js';
import { LIVE_OPTIONS } from './live-options.js';
import type { OtlpPushStatus } from './metrics.js';
import type { ProfileStatsQuery, RouteBackend } from './routes.js';

/** How many of the newest stored events the rule firing counts cover (bounded, so a stats poll stays cheap). */
export const RULE_COUNT_WINDOW = 1000;

/**
 * The newest `RULE_COUNT_WINDOW` stored events of a profile, read in pages of the contract's `MAX_EVENTS_LIMIT`
 * (an event that arrives meanwhile shifts the pages by one: the repeated event is counted once), and whether they
 * are every stored event of the profile.
 */
async function newestEvents(store: TelemetryStore, profile: string): Promise<{ events: FeedEvent[]; all: boolean }> {
  const byId = new Map<string, FeedEvent>();
  let offset = 0;
  let total = 0;
  while (offset < RULE_COUNT_WINDOW) {
    const limit = Math.min(MAX_EVENTS_LIMIT, RULE_COUNT_WINDOW - offset);
    const page = await store.queryEvents({ profile, offset, limit });
    for (const event of page.events) byId.set(event.id, event);
    total = page.total;
    offset += limit;
    if (page.events.length < limit) break;
  }
  const events = [...byId.values()];
  return { events, all: events.length >= total };
}

export interface FeedBackendInput {
  config: ToolNormalizerConfig;
  store(): TelemetryStore | undefined;
  pluginErrors(): number;
  /** This process's OTLP push health, when a push is configured. */
  otlp?(): OtlpPushStatus | undefined;
  /** The DSH profile this process runs in (the payload says which profile it counts). */
  profile: string;
}

/**
 * An option's value as the dashboard may show it: strings pass through the store's redaction (a URL with
 * credentials, a token), and a map (such as request headers) shows its keys only, never its values.
 */
export function shownOptionValue(value: unknown): OptionState['value'] {
  if (typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redact(String(item)));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.keys(value).map((key) => [redact(key), HIDDEN_VALUE]));
  return String(value);
}

/** What stands for a map value the dashboard never shows. */
export const HIDDEN_VALUE = '(hidden)';

/** The effective configuration, option by option, with the built-in default next to each value. */
export function optionStates(config: ToolNormalizerConfig): OptionState[] {
  const properties = ConfigSchema.properties as Record<string, { default?: unknown; description?: string }>;
  return Object.entries(properties).map(([name, property]) => ({
    name,
    value: shownOptionValue(config[name as keyof ToolNormalizerConfig]),
    defaultValue: shownOptionValue(property.default),
    ...(property.description ? { description: property.description } : {}),
    live: (LIVE_OPTIONS as readonly string[]).includes(name),
  }));
}

/** The rule catalogue with each rule's state in `config` and its firing count over `events`. */
export function ruleStates(config: ToolNormalizerConfig, events: readonly FeedEvent[]): RuleState[] {
  // Every rule switch defaults to on; a switch the config does not know yet counts as its default.
  const switches = config as unknown as Record<string, unknown>;
  const fired = new Map<string, number>();
  for (const event of events) for (const id of new Set(event.ruleIds)) fired.set(id, (fired.get(id) ?? 0) + 1);
  return ruleCatalogue.map((rule) => ({
    id: rule.id,
    stage: rule.stage,
    category: rule.category,
    title: rule.title,
    description: rule.description,
    option: rule.option,
    enabled: switches[rule.option] !== false,
    fired: fired.get(rule.id) ?? 0,
  }));
}

function otlpField(input: FeedBackendInput): { otlp?: OtlpPushStatus } {
  const otlp = input.otlp?.();
  return otlp === undefined ? {} : { otlp };
}

function requireStore(input: FeedBackendInput): TelemetryStore {
  const store = input.store();
  if (!store) throw new Error('telemetry store unavailable');
  return store;
}

export function createFeedBackend(input: FeedBackendInput): RouteBackend {
  return {
    async stats(query: ProfileStatsQuery): Promise<FeedPayload> {
      const store = requireStore(input);
      const shown = query.profile ?? input.profile;
      const payload = store.stats({ ...query, profile: shown } as StatsQuery);
      // Rule counts cover the newest stored events of the profile shown, whatever else the query filtered.
      const newest = await newestEvents(store, shown);
      return {
        ...payload,
        pluginErrors: input.pluginErrors(),
        ...otlpField(input),
        rules: ruleStates(input.config, newest.events),
        ruleUsage: { counted: newest.events.length, complete: newest.all },
        // Read per request: options changed live in Plugins > Plugin configuration update this same config object.
        options: optionStates(input.config),
        ownProfile: input.profile,
        profile: (payload as { profile?: string }).profile ?? shown,
      };
    },
    async events(query: EventsQuery): Promise<EventsPage> {
      const store = requireStore(input);
      const found = await store.queryEvents({
        ...query,
        profile: query.profile ?? input.profile,
        offset: query.offset ?? 0,
        limit: query.limit ?? DEFAULT_EVENTS_LIMIT,
      });
      return {
        v: FEED_VERSION,
        events: found.events,
        total: found.total,
        ...(found.totalCapped ? { totalCapped: true } : {}),
        offset: found.offset,
        limit: found.limit,
        source: 'store',
      };
    },
    async clear() {
      // telemetry-store's clear() resolves to false when it could not erase everything (older stores: undefined).
      const result: unknown = await input.store()?.clear();
      return result !== false;
    },
  };
}
