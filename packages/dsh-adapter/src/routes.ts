/**
 * Seam 6, the web profile's HTTP routes under `/plugin-api/tool-normalizer`: `GET stats` (the dashboard's feed),
 * `GET events` (pages of the stored history), `POST clear` and `GET token` (`GET metrics` is metrics-prometheus.ts's). Who may call them is route-guard.ts's
 * job (loopback or listed Host, same-origin, the token); this file parses the request, answers 400 for input no
 * query may hold (control characters, values past the store's bounds) and 503 only when the store fails. Responses
 * are never cached; the clear action also needs a JSON body plus a custom header (no CORS preflight is ever
 * approved) and its body is capped. A request without `?profile=` sees the receipts of this process's DSH profile.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statsQueryFromSearchParams, type StatsQuery } from '@dsh-tool-normalizer/telemetry-store';
import {
  CLEAR_HEADER,
  CLEAR_HEADER_VALUE,
  QueryError,
  eventsQueryFromSearchParams,
  hasControlCharacter,
  profileFromSearchParams,
  type EventsPage,
  type EventsQuery,
  type FeedPayload,
} from '@dsh-tool-normalizer/telemetry-store/feed';
import type { Refusal, RouteGuard } from './route-guard.js';

// Paths and headers come from the feed contract (telemetry-store's `./feed`), which the store and the dashboard read too.
export {
  CLEAR_PATH,
  EVENTS_PATH,
  ROUTE_PREFIX,
  STATS_PATH,
  TOKEN_HEADER,
  TOKEN_PATH,
} from '@dsh-tool-normalizer/telemetry-store/feed';
/** The header the clear action requires; its value must be `clear`. */
export const ACTION_HEADER = CLEAR_HEADER;
/** Largest request body accepted (the clear action's body is `{"confirm":"clear"}`). */
export const MAX_BODY_BYTES = 1024;

/**
 * A stats query with the profile to count (a name, or `*` for every profile). telemetry-store's `StatsQuery` gains
 * `profile` with per-profile receipts; until then the field is passed through and ignored by the store.
 */
export type ProfileStatsQuery = StatsQuery & { profile?: string };

/** What the routes need from the plugin. */
export interface RouteBackend {
  stats(query: ProfileStatsQuery): FeedPayload | Promise<FeedPayload>;
  /** One page of stored events matching the query, newest first. */
  events(query: EventsQuery): EventsPage | Promise<EventsPage>;
  /** Clears the store; resolves to false when it could not erase everything (the store's own report). */
  clear(): Promise<boolean | void>;
  /** Writes the store's queued events, so `stats` includes the calls just made (optional). */
  flush?(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A 403 from the guard: the reason's message, and the reason so the page can tell a stale token apart. */
function sendRefusal(res: ServerResponse, refusal: Refusal): void {
  send(res, refusal.status, { error: refusal.error, reason: refusal.reason });
}

/**
 * True for an error the store throws for a query it cannot accept (a value past a schema bound): the caller's
 * mistake, answered 400 rather than 503.
 */
export function isQueryError(error: unknown): boolean {
  return error instanceof QueryError || (error as Error)?.name === 'QueryError';
}

/** The search parameters of a route's URL, or a 400 message for what no query may hold (control characters). */
function searchParamsOf(req: IncomingMessage): URLSearchParams | string {
  let params: URLSearchParams;
  try {
    params = new URL(req.url ?? '/', 'http://localhost').searchParams;
  } catch {
    return 'malformed query string';
  }
  return hasControlCharacter(params) ? 'query parameters must not contain control characters' : params;
}

/** Reads at most `limit` bytes of body; resolves undefined when the body is larger. */
function readCappedBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      resolve(undefined);
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        resolve(undefined);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** What every route handler is built from. */
export interface RouteOptions {
  backend: RouteBackend;
  guard: RouteGuard;
  /** The DSH profile this process runs in: the receipts a request without `?profile=` sees. */
  profile: string;
}

/** The profile a request asks for (`?profile=`, `all`/`*` = every profile), else the process's own. */
function profileOf(params: URLSearchParams, own: string): string {
  return profileFromSearchParams(params) ?? own;
}

export function createStatsHandler(options: RouteOptions) {
  const { backend, guard } = options;
  return async function handleStats(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return send(res, 405, { error: 'use GET' });
    const refused = guard.read(req);
    if (refused) return sendRefusal(res, refused);
    const params = searchParamsOf(req);
    if (typeof params === 'string') return send(res, 400, { error: params });
    let query: ProfileStatsQuery;
    try {
      query = { ...statsQueryFromSearchParams(params), profile: profileOf(params, options.profile) };
    } catch (error) {
      return send(res, 400, { error: error instanceof Error ? error.message : 'invalid stats query' });
    }
    let payload: unknown;
    try {
      await backend.flush?.();
      payload = await backend.stats(query);
    } catch (error) {
      if (isQueryError(error)) return send(res, 400, { error: (error as Error).message });
      return send(res, 503, { error: 'statistics are unavailable' });
    }
    send(res, 200, payload);
  };
}

/** `GET /events`: filters and paging in the query string (`EventsQuery`), applied on the server. */
export function createEventsHandler(options: RouteOptions) {
  const { backend, guard } = options;
  return async function handleEvents(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return send(res, 405, { error: 'use GET' });
    const refused = guard.read(req);
    if (refused) return sendRefusal(res, refused);
    const params = searchParamsOf(req);
    if (typeof params === 'string') return send(res, 400, { error: params });
    let query: EventsQuery;
    try {
      query = { ...eventsQueryFromSearchParams(params), profile: profileOf(params, options.profile) };
    } catch (error) {
      return send(res, 400, { error: error instanceof Error ? error.message : 'invalid events query' });
    }
    let page: EventsPage;
    try {
      page = await backend.events(query);
    } catch (error) {
      if (isQueryError(error)) return send(res, 400, { error: (error as Error).message });
      return send(res, 503, { error: 'events are unavailable' });
    }
    send(res, 200, page);
  };
}

export function createClearHandler(options: RouteOptions) {
  const { backend, guard } = options;
  return async function handleClear(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
    const refused = guard.write(req);
    if (refused) return sendRefusal(res, refused);
    if (req.headers[ACTION_HEADER] !== CLEAR_HEADER_VALUE)
      return send(res, 403, { error: `the ${ACTION_HEADER}: ${CLEAR_HEADER_VALUE} header is required` });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return send(res, 415, { error: 'send application/json' });
    const body = await readCappedBody(req, MAX_BODY_BYTES);
    if (body === undefined) return send(res, 413, { error: `body larger than ${MAX_BODY_BYTES} bytes` });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    if ((parsed as { confirm?: unknown } | null)?.confirm !== 'clear')
      return send(res, 400, { error: 'body must be {"confirm":"clear"}' });
    let erased: boolean | void;
    try {
      erased = await backend.clear();
    } catch {
      return send(res, 503, { error: 'statistics could not be cleared' });
    }
    if (erased === false) return send(res, 503, { error: 'statistics could not be fully erased; try again' });
    send(res, 200, { cleared: true });
  };
}

/** `GET /token`: the guard's token, for the page that passes `guard.tokenRequest`. */
export function createTokenHandler(guard: RouteGuard) {
  return async function handleToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return send(res, 405, { error: 'use GET' });
    const refused = guard.tokenRequest(req);
    if (refused) return sendRefusal(res, refused);
    send(res, 200, { token: guard.token });
  };
}
