/**
 * The dashboard's data: a reactive controller that owns fetching the stats feed, polling it, paging the events
 * route with the table's filters, and the clear action. Fetches run as `@lit/task` tasks, which re-run when their
 * arguments change, abort a superseded run and report pending/complete/error to the element; this file adds only
 * what the tasks do not: the poll timer, keeping the last good payload on screen when a poll fails, and falling
 * back to filtering the payload's recent events when a server has no events route (or `data` was handed in).
 */
import { Task, TaskStatus } from '@lit/task';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  ALL_PROFILES,
  CLEAR_BODY,
  CLEAR_HEADER,
  CLEAR_HEADER_VALUE,
  DEFAULT_EVENTS_LIMIT,
  TOKEN_HEADER,
  TOKEN_REFUSAL,
  eventsQueryToSearchParams,
} from './feed.js';
import { EMPTY_FILTER, eventsQueryOf, filterEvents, type EventFilter } from './format.js';
import { checkEventsPage, checkPayload } from './payload.js';
import { opensOnAllProfiles, otherProfilesWhenOwnIsEmpty } from './profile-scope.js';
import type { DashboardEvent, DashboardPayload } from './types.js';

/** Shortest polling interval honoured; a smaller positive `refresh` polls at this rate instead of hammering the server. */
export const MIN_REFRESH_SECONDS = 1;
const MAX_SERVER_MESSAGE_CHARS = 300;

/** What the controller reads from its element. */
export interface FeedSource extends ReactiveControllerHost {
  src: string;
  eventsSrc: string;
  clearSrc: string;
  /** The token route; empty means send no token. */
  tokenSrc: string;
  data: unknown;
  refresh: number;
  readonly isConnected: boolean;
}

/** One page of the events table. `payload`: filtered from the payload's recent events in the browser. */
export interface EventsView {
  events: DashboardEvent[];
  total: number;
  /** More events match than `total` counts: there is no last page number, only "older" until a short page. */
  totalCapped: boolean;
  offset: number;
  limit: number;
  source: 'store' | 'recent' | 'payload';
}

/** A failure whose message is meant for the page (an HTTP status, the server's reason, a bad payload). */
export class FeedError extends Error {
  override name = 'FeedError';
}

/** `HTTP <status> <text>`, plus the server's own `{ "error": "..." }` message when it sent one (shown as text). */
async function describeFailure(response: Response): Promise<string> {
  const status = `HTTP ${response.status} ${response.statusText}`.trim();
  try {
    const body = (await response.json()) as { error?: unknown } | null;
    if (typeof body?.error === 'string' && body.error)
      return `${status}: ${body.error.slice(0, MAX_SERVER_MESSAGE_CHARS)}`;
  } catch {
    // Not JSON: the status line says enough.
  }
  return status;
}

/** True when a 403 says the token was missing or stale (`{ "reason": "token" }`). */
async function isTokenRefusal(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  try {
    return ((await response.clone().json()) as { reason?: unknown } | null)?.reason === TOKEN_REFUSAL;
  } catch {
    return false;
  }
}

/** What the token route answered: the token, or why there is none (neither: the server has no token route). */
interface TokenAnswer {
  token?: string;
  /** The server's refusal (403), shown when a route then asks for the token. */
  refusal?: string;
}

async function fetchToken(url: string): Promise<TokenAnswer> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (response.status === 404) return {};
  // Refused (e.g. a page not loaded from the server's machine): reads may still work without it.
  if (response.status === 403) return { refusal: await describeFailure(response) };
  if (!response.ok) throw new FeedError(`the token request failed: ${await describeFailure(response)}`);
  const token = ((await response.json().catch(() => undefined)) as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string' || token === '') throw new FeedError('the token response has no token');
  return { token };
}

/**
 * Where the user's "All profiles" choice is kept for the browser tab (`1` every profile, `0` the own one), so a
 * reload or a re-opened page keeps it. No entry: no choice yet, and the page opens on what there is to see
 * (`./profile-scope.ts`).
 */
const ALL_PROFILES_KEY = 'tn-dashboard.all-profiles';

/** The user's profile choice: every profile, the server's own, or none made (the page decides). */
export type ProfileChoice = 'all' | 'own' | undefined;

function rememberedChoice(): ProfileChoice {
  try {
    const value = globalThis.sessionStorage?.getItem(ALL_PROFILES_KEY);
    return value === '1' ? 'all' : value === '0' ? 'own' : undefined;
  } catch {
    return undefined; // storage blocked (a sandboxed frame): no choice, as on a first visit
  }
}

function rememberChoice(all: boolean): void {
  try {
    globalThis.sessionStorage?.setItem(ALL_PROFILES_KEY, all ? '1' : '0');
  } catch {
    // not remembered: the choice still holds for this page
  }
}

/** `url` with `profile=*` added when every profile is shown. */
function withProfile(url: string, allProfiles: boolean): string {
  if (!allProfiles) return url;
  return `${url}${url.includes('?') ? '&' : '?'}profile=${encodeURIComponent(ALL_PROFILES)}`;
}

const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

function pageOf(events: readonly DashboardEvent[], offset: number, limit: number): EventsView {
  return {
    events: events.slice(offset, offset + limit),
    total: events.length,
    totalCapped: false,
    offset,
    limit,
    source: 'payload',
  };
}

export class FeedController implements ReactiveController {
  /** The last payload that passed the check; kept on screen while a later poll fails. */
  payload: DashboardPayload | undefined;
  filter: EventFilter = EMPTY_FILTER;
  offset = 0;
  readonly limit = DEFAULT_EVENTS_LIMIT;
  confirmingClear = false;
  clearing = false;
  clearError: string | undefined;

  /** Bumped by the poll timer, Refresh and a clear: a new value re-runs the tasks that take it. */
  private generation = 0;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  /** The server answered 404 for the events route: page the payload's recent events instead. */
  private noEventsRoute = false;
  /** The route token, fetched on first use and again after a stale-token refusal. */
  private token: Promise<TokenAnswer> | undefined;
  /** The user's profile choice (remembered for the browser tab); none: the page decides (`autoAllProfiles`). */
  private choice: ProfileChoice = rememberedChoice();
  /**
   * The page, with no choice made, opened on every profile because its own had no calls and others had some
   * (`opensOnAllProfiles`). It stays on them for the page's life, until the user chooses.
   */
  autoAllProfiles = false;
  /** The other profiles holding receipts while the own profile has none (what the notice names). */
  otherProfiles: string[] = [];

  /** Every DSH profile's receipts are shown instead of the server's own profile's. */
  get allProfiles(): boolean {
    return this.choice === 'all' || (this.choice === undefined && this.autoAllProfiles);
  }

  readonly stats: Task<[string, unknown, number, ProfileChoice], DashboardPayload>;
  readonly eventsPage: Task<[string, string, number, boolean], EventsView | undefined>;

  constructor(private readonly host: FeedSource) {
    host.addController(this);
    this.stats = new Task(host, {
      // The automatic scope is not an argument: deciding it inside a run must not start another run.
      args: () => [host.src, host.data, this.generation, this.choice] as [string, unknown, number, ProfileChoice],
      task: async ([src, data, , choice], { signal }) => {
        if (data !== undefined) return this.checked(data);
        const own = await this.fetchStats(
          src,
          choice === 'all' || (choice === undefined && this.autoAllProfiles),
          signal,
        );
        if (own.profile === ALL_PROFILES) return own;
        this.otherProfiles = otherProfilesWhenOwnIsEmpty(own);
        // No choice made and the own profile is empty: open on every profile when they hold calls.
        if (choice !== undefined || this.otherProfiles.length === 0) return own;
        const all = await this.fetchStats(src, true, signal);
        if (!opensOnAllProfiles(own, all)) {
          this.otherProfiles = []; // they are listed but hold no calls: nothing to point at
          return own;
        }
        this.autoAllProfiles = true;
        return all;
      },
      onComplete: (payload) => {
        this.payload = payload;
        this.schedulePoll();
      },
      onError: (error) => {
        if (!isAbort(error) && this.host.data !== undefined) this.payload = undefined;
        this.schedulePoll();
      },
    });
    this.eventsPage = new Task(host, {
      // Later pages are not refreshed by the poll, so rows do not shift under a reader.
      args: () =>
        [host.eventsSrc, this.queryKey(), this.offset === 0 ? this.generation : -1, host.data === undefined] as [
          string,
          string,
          number,
          boolean,
        ],
      task: async ([eventsSrc, key, , fromServer], { signal }) => {
        if (!fromServer || this.noEventsRoute || !eventsSrc) return undefined;
        try {
          const checked = checkEventsPage(await this.getJson(`${eventsSrc}?${key}`, signal, 'events'));
          if (!checked.ok) throw new FeedError(checked.message);
          const { events, total, totalCapped, offset, limit, source } = checked.page;
          return {
            events,
            total,
            totalCapped: totalCapped === true,
            offset,
            limit,
            source: source === 'store' ? 'store' : 'recent',
          };
        } catch (error) {
          if ((error as { status?: number }).status !== 404) throw error;
          this.noEventsRoute = true;
          return undefined;
        }
      },
    });
  }

  hostConnected(): void {
    // A re-attached element resumes polling (the first connection runs the tasks on its first update).
    if (this.payload !== undefined) this.reload();
  }

  hostDisconnected(): void {
    this.stopPolling();
    this.stats.abort();
    this.eventsPage.abort();
  }

  /** The events route's query string for the current filters, profile scope and page. */
  private queryKey(): string {
    return eventsQueryToSearchParams({
      ...eventsQueryOf(this.filter),
      ...(this.allProfiles ? { profile: ALL_PROFILES } : {}),
      offset: this.offset,
      limit: this.limit,
    }).toString();
  }

  /** `fetch` with the route token; a stale-token refusal fetches a new token and tries once more. */
  private async send(url: string, init: RequestInit): Promise<Response> {
    const src = this.host.tokenSrc;
    for (let attempt = 0; ; attempt += 1) {
      const headers = new Headers(init.headers);
      let answer: TokenAnswer = {};
      if (src) {
        this.token ??= fetchToken(src);
        try {
          answer = await this.token;
        } catch (error) {
          this.token = undefined;
          throw error;
        }
        if (answer.token !== undefined) headers.set(TOKEN_HEADER, answer.token);
      }
      const response = await fetch(url, { ...init, headers, credentials: 'same-origin', cache: 'no-store' });
      if (!src || !(await isTokenRefusal(response))) return response;
      // The route needs the token: ask again next time, and say why there was none.
      this.token = undefined;
      if (answer.refusal !== undefined) throw new FeedError(`the token request failed: ${answer.refusal}`);
      if (attempt > 0) return response;
    }
  }

  private async getJson(url: string, signal: AbortSignal, what: string): Promise<unknown> {
    const response = await this.send(url, { headers: { accept: 'application/json' }, signal });
    if (!response.ok)
      throw Object.assign(new FeedError(`the ${what} request failed: ${await describeFailure(response)}`), {
        status: response.status,
      });
    try {
      return await response.json();
    } catch {
      throw new FeedError(`the ${what} response is not valid JSON`);
    }
  }

  private checked(data: unknown): DashboardPayload {
    const checked = checkPayload(data);
    if (!checked.ok) throw new FeedError(checked.message);
    return checked.payload;
  }

  private async fetchStats(src: string, allProfiles: boolean, signal: AbortSignal): Promise<DashboardPayload> {
    return this.checked(await this.getJson(withProfile(src, allProfiles), signal, 'stats'));
  }

  /** Shows every profile's receipts (true) or the server's own profile's (false), from the first page; remembered. */
  setAllProfiles(all: boolean): void {
    const before = this.allProfiles;
    this.choice = all ? 'all' : 'own';
    rememberChoice(all);
    if (before === all) return;
    this.offset = 0;
    this.host.requestUpdate();
  }

  /** The page of events to show: the server's, or the payload's recent events filtered here. */
  get events(): EventsView | undefined {
    const served = this.eventsPage.value;
    if (served && this.host.data === undefined) return served;
    if (!this.payload) return undefined;
    // Waiting for the server's first page: show nothing rather than a page the server may contradict.
    if (this.host.data === undefined && !this.noEventsRoute && this.eventsPage.status !== TaskStatus.ERROR)
      return undefined;
    return pageOf(filterEvents(this.payload.recent, this.filter), this.offset, this.limit);
  }

  /** The events route's error, when it has one to show. */
  get eventsError(): string | undefined {
    const error = this.eventsPage.error;
    if (error === undefined || isAbort(error)) return undefined;
    return error instanceof Error ? error.message : String(error);
  }

  /** The stats error, when the last run failed. */
  get statsError(): string | undefined {
    const error = this.stats.error;
    if (error === undefined || isAbort(error)) return undefined;
    return error instanceof Error ? error.message : String(error);
  }

  /** Fetches the stats (and the first page of events) now. */
  reload(): void {
    this.generation += 1;
    this.host.requestUpdate();
  }

  /** Resolves when the tasks started by the current state have settled and the element has rendered them. */
  async settled(): Promise<void> {
    await this.host.updateComplete;
    await Promise.allSettled([this.stats.taskComplete, this.eventsPage.taskComplete]);
    await this.host.updateComplete;
  }

  setFilter(patch: Partial<EventFilter>, replace = false): void {
    this.filter = { ...(replace ? EMPTY_FILTER : this.filter), ...patch };
    this.offset = 0;
    this.host.requestUpdate();
  }

  resetFilter(): void {
    this.setFilter({}, true);
  }

  /**
   * Moves one page older (+1) or newer (-1) from the page asked for last, so clicks made while a page is still
   * loading add up; never before the first page or past the last one known.
   */
  step(direction: 1 | -1): void {
    const page = this.events;
    const total = page?.total ?? 0;
    // A capped total has no last page: older pages exist until one comes back short.
    const last = page?.totalCapped
      ? page.events.length < page.limit
        ? page.offset
        : Number.MAX_SAFE_INTEGER
      : Math.max(0, Math.ceil(total / this.limit) - 1) * this.limit;
    this.offset = Math.min(last, Math.max(0, this.offset + direction * this.limit));
    this.host.requestUpdate();
  }

  setConfirming(confirming: boolean): void {
    this.confirmingClear = confirming;
    this.host.requestUpdate();
  }

  /** Sends the clear action; on success resets the filters and reloads. Resolves true when the server cleared. */
  async clear(): Promise<boolean> {
    this.clearing = true;
    this.clearError = undefined;
    this.host.requestUpdate();
    try {
      const response = await this.send(this.host.clearSrc, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CLEAR_HEADER]: CLEAR_HEADER_VALUE },
        body: CLEAR_BODY,
      });
      if (!response.ok) throw new FeedError(`clearing failed: ${await describeFailure(response)}`);
      this.confirmingClear = false;
      this.filter = EMPTY_FILTER;
      this.offset = 0;
      this.reload();
      await this.settled();
      return true;
    } catch (error) {
      this.clearError = error instanceof Error ? error.message : String(error);
      return false;
    } finally {
      this.clearing = false;
      this.host.requestUpdate();
    }
  }

  private schedulePoll(): void {
    this.stopPolling();
    const host = this.host;
    if (host.data !== undefined || !host.isConnected || !(host.refresh > 0)) return;
    this.pollTimer = setTimeout(() => this.reload(), Math.max(MIN_REFRESH_SECONDS, host.refresh) * 1000);
  }

  /** Re-arms the poll timer after `refresh` changed. */
  refreshChanged(): void {
    this.schedulePoll();
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }
}
