/**
 * Seam 6, the web profile's HTTP routes: `GET /plugin-api/tool-normalizer/stats` (the dashboard's feed) and
 * `POST /plugin-api/tool-normalizer/clear`. Both answer same-origin requests only, never cache, and the clear
 * action needs a JSON body plus a custom header, which a cross-site page cannot send without a CORS preflight
 * this server never approves (a body-less or form POST is refused). Request bodies are capped.
 *
 * DSH's web server does not check `Host`, so a DNS-rebinding page (attacker.example resolving to 127.0.0.1) would be
 * "same-origin" with itself. Both routes therefore also check the `Host` header first, as dev servers do: an IP
 * literal, `localhost` / `*.localhost`, or a name listed in the `allowedHosts` option.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import { statsQueryFromSearchParams, type StatsQuery } from '@dsh-tool-normalizer/telemetry-store';
import {
  CLEAR_HEADER,
  CLEAR_HEADER_VALUE,
  eventsQueryFromSearchParams,
  type EventsPage,
  type EventsQuery,
  type FeedPayload,
} from '@dsh-tool-normalizer/dashboard-lit/feed';

// Paths and the clear header come from the feed contract (dashboard-lit's `./feed`), which the dashboard reads too.
export { CLEAR_PATH, EVENTS_PATH, ROUTE_PREFIX, STATS_PATH } from '@dsh-tool-normalizer/dashboard-lit/feed';
/** The header the clear action requires; its value must be `clear`. */
export const ACTION_HEADER = CLEAR_HEADER;
/** Largest request body accepted (the clear action's body is `{"confirm":"clear"}`). */
export const MAX_BODY_BYTES = 1024;

/** What the routes need from the plugin. */
export interface RouteBackend {
  stats(query: StatsQuery): FeedPayload | Promise<FeedPayload>;
  /** One page of stored events matching the query, newest first. */
  events(query: EventsQuery): EventsPage | Promise<EventsPage>;
  clear(): Promise<void>;
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

/**
 * True when the request comes from the page this server serves (or from no page at all, e.g. curl). A browser
 * sends `Origin` on every cross-origin request and on same-origin POSTs, and `Sec-Fetch-Site` on all requests.
 */
export function isSameOrigin(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const host = req.headers.host;
  if (host === undefined) return false;
  try {
    const url = new URL(origin);
    // URL lowercases the Origin's host; Host names are case-insensitive too.
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** `host[:port]` or `[ipv6][:port]`; anything else (userinfo, paths, spaces, empty) does not match. */
const HOST_HEADER = /^(?:\[([^\]]+)\]|([^\s:@/\\[\]]+))(?::\d{1,5})?$/;

/** A name compared case-insensitively and without one trailing dot (`Localhost.` is `localhost`). */
function canonicalName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * True when the `Host` header names this machine in a way a DNS-rebinding page cannot forge: an IPv4 literal, a
 * bracketed IPv6 literal, `localhost` or a `*.localhost` name (which resolve to loopback only), or a name the user
 * listed in `allowedHosts`. A missing or malformed header is refused.
 */
export function isAllowedHost(host: string | undefined, allowedHosts: readonly string[]): boolean {
  if (host === undefined) return false;
  const match = HOST_HEADER.exec(host);
  if (!match) return false;
  const [, bracketed, plain] = match;
  if (bracketed !== undefined) return isIPv6(bracketed);
  if (plain === undefined) return false;
  if (isIPv4(plain)) return true;
  const name = canonicalName(plain);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowedHosts.some((allowed) => canonicalName(allowed) === name);
}

/** The 403 for a host that is not allowed; it names the option to set. */
function refuseHost(res: ServerResponse): void {
  send(res, 403, { error: 'host not allowed: add this host name to the tool-normalizer option allowedHosts' });
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

export function createStatsHandler(backend: RouteBackend, allowedHosts: readonly string[] = []) {
  return async function handleStats(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return send(res, 405, { error: 'use GET' });
    if (!isAllowedHost(req.headers.host, allowedHosts)) return refuseHost(res);
    if (!isSameOrigin(req)) return send(res, 403, { error: 'cross-origin requests are not allowed' });
    let query: StatsQuery;
    try {
      query = statsQueryFromSearchParams(new URL(req.url ?? '/', 'http://localhost').searchParams);
    } catch (error) {
      return send(res, 400, { error: error instanceof Error ? error.message : 'invalid stats query' });
    }
    let payload: unknown;
    try {
      await backend.flush?.();
      payload = await backend.stats(query);
    } catch {
      return send(res, 503, { error: 'statistics are unavailable' });
    }
    send(res, 200, payload);
  };
}

/** `GET /events`: filters and paging in the query string (`EventsQuery`), applied on the server. */
export function createEventsHandler(backend: RouteBackend, allowedHosts: readonly string[] = []) {
  return async function handleEvents(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return send(res, 405, { error: 'use GET' });
    if (!isAllowedHost(req.headers.host, allowedHosts)) return refuseHost(res);
    if (!isSameOrigin(req)) return send(res, 403, { error: 'cross-origin requests are not allowed' });
    let query: EventsQuery;
    try {
      query = eventsQueryFromSearchParams(new URL(req.url ?? '/', 'http://localhost').searchParams);
    } catch (error) {
      return send(res, 400, { error: error instanceof Error ? error.message : 'invalid events query' });
    }
    let page: EventsPage;
    try {
      page = await backend.events(query);
    } catch {
      return send(res, 503, { error: 'events are unavailable' });
    }
    send(res, 200, page);
  };
}

export function createClearHandler(backend: RouteBackend, allowedHosts: readonly string[] = []) {
  return async function handleClear(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
    if (!isAllowedHost(req.headers.host, allowedHosts)) return refuseHost(res);
    if (!isSameOrigin(req)) return send(res, 403, { error: 'cross-origin requests are not allowed' });
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
    try {
      await backend.clear();
    } catch {
      return send(res, 503, { error: 'statistics could not be cleared' });
    }
    send(res, 200, { cleared: true });
  };
}
