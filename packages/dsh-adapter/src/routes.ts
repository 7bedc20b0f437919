/**
 * Seam 6, the web profile's HTTP routes: `GET /plugin-api/tool-normalizer/stats` (the dashboard's feed) and
 * `POST /plugin-api/tool-normalizer/clear`. Both answer same-origin requests only, never cache, and the clear
 * action needs a JSON body plus a custom header, which a cross-site page cannot send without a CORS preflight
 * this server never approves (a body-less or form POST is refused). Request bodies are capped.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statsQueryFromSearchParams, type StatsQuery, type StatsPayload } from '@dsh-tool-normalizer/telemetry-store';

export const ROUTE_PREFIX = '/plugin-api/tool-normalizer';
export const STATS_PATH = `${ROUTE_PREFIX}/stats`;
export const CLEAR_PATH = `${ROUTE_PREFIX}/clear`;
/** The header the clear action requires; its value must be `clear`. */
export const ACTION_HEADER = 'x-tool-normalizer-action';
/** Largest request body accepted (the clear action's body is `{"confirm":"clear"}`). */
export const MAX_BODY_BYTES = 1024;

/** What the routes need from the plugin. */
export interface RouteBackend {
  stats(query: StatsQuery): StatsPayload & { pluginErrors: number };
  clear(): Promise<void>;
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
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host;
  } catch {
    return false;
  }
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

export function createStatsHandler(backend: RouteBackend) {
  return function handleStats(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') return send(res, 405, { error: 'use GET' });
    if (!isSameOrigin(req)) return send(res, 403, { error: 'cross-origin requests are not allowed' });
    let query: StatsQuery;
    try {
      query = statsQueryFromSearchParams(new URL(req.url ?? '/', 'http://localhost').searchParams);
    } catch (error) {
      return send(res, 400, { error: error instanceof Error ? error.message : 'invalid stats query' });
    }
    let payload: unknown;
    try {
      payload = backend.stats(query);
    } catch {
      return send(res, 503, { error: 'statistics are unavailable' });
    }
    send(res, 200, payload);
  };
}

export function createClearHandler(backend: RouteBackend) {
  return async function handleClear(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
    if (!isSameOrigin(req)) return send(res, 403, { error: 'cross-origin requests are not allowed' });
    if (req.headers[ACTION_HEADER] !== 'clear') return send(res, 403, { error: `the ${ACTION_HEADER}: clear header is required` });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, { error: 'send application/json' });
    const body = await readCappedBody(req, MAX_BODY_BYTES);
    if (body === undefined) return send(res, 413, { error: `body larger than ${MAX_BODY_BYTES} bytes` });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    if ((parsed as { confirm?: unknown } | null)?.confirm !== 'clear') return send(res, 400, { error: 'body must be {"confirm":"clear"}' });
    try {
      await backend.clear();
    } catch {
      return send(res, 503, { error: 'statistics could not be cleared' });
    }
    send(res, 200, { cleared: true });
  };
}
