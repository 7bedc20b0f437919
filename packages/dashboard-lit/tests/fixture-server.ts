/**
 * A tiny same-origin server for the browser tests: serves the built bundles from `dist/`, React's UMD files,
 * generated test pages, and a fake stats feed with the clear action, recording every request it gets.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import {
  DEFAULT_EVENTS_LIMIT,
  EVENTS_TOTAL_CAP,
  eventMatches,
  eventsQueryFromSearchParams,
  type EventsPage,
  type FeedEvent,
} from '../src/feed.js';
import { emptyPayload, fixturePayload } from './fixtures/stats-payload.js';
import { storePayload } from './fixtures/store-payload.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

export interface ClearRequest {
  header: string | undefined;
  contentType: string | undefined;
  body: string;
  /** The route token the page sent. */
  token: string | undefined;
}

export interface FixtureServer {
  url: string;
  payload: unknown;
  /** What `?profile=*` answers (stats, and the events route's rows); undefined: `payload` marked `profile: '*'`. */
  allPayload: unknown;
  statsRequests: number;
  clearRequests: ClearRequest[];
  /** Query strings of the events requests, in order. */
  eventsRequests: string[];
  /** Query strings of the stats requests, in order. */
  statsQueries: string[];
  /** The route token the token route hands out (the clear action needs it), and how often it was fetched. */
  token: string;
  tokenRequests: number;
  /** A new token, as after a plugin reload: a page holding the old one is refused until it fetches again. */
  rotateToken(): void;
  reset(): void;
  close(): Promise<void>;
}

const STATIC: Record<string, string> = {
  '/dist/tn-dashboard.js': `${packageDir}dist/tn-dashboard.js`,
  '/vendor/react.js': join(dirname(require.resolve('react/package.json')), 'umd/react.production.min.js'),
  '/vendor/react-dom.js': join(dirname(require.resolve('react-dom/package.json')), 'umd/react-dom.production.min.js'),
};

/**
 * A page with one `<tn-dashboard>`; attributes come from the query string. With `width=<px>` the element sits
 * in a `#frame` div of that width (a narrow host panel such as DSH's Settings dialog), whose own scroll width
 * shows any horizontal overflow.
 */
function dashboardPage(query: URLSearchParams): string {
  const attrs = ['src', 'events-src', 'theme', 'refresh', 'clear-src', 'token-src', 'locale']
    .filter((name) => query.has(name))
    .map((name) => ` ${name}="${(query.get(name) ?? '').replace(/[^\w\-/.:?=&]/g, '')}"`)
    .join('');
  const lang = (query.get('lang') ?? 'en').replace(/[^\w-]/g, '');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>tn-dashboard</title>
<link rel="stylesheet" href="/page.css">
<script type="module" src="/dist/tn-dashboard.js"></script></head>
<body>${frame(query, `<tn-dashboard${attrs}></tn-dashboard>`)}</body></html>`;
}

function frame(query: URLSearchParams, content: string): string {
  const width = query.get('width');
  if (width === null) return content;
  if (!/^\d{2,4}$/.test(width)) throw new Error(`bad width ${width}`);
  return `<div id="frame" style="width: ${width}px; overflow: auto">${content}</div>`;
}

/**
 * A page that runs the built `dist/dsh-settings.js` (the DSH Settings page logic) with React 18's UMD build and a
 * minimal slots/locale context, and mounts its section. (The module-loader bundle itself is the meta-package's
 * and is tested in the real DSH web client by apps/dsh-lab.)
 */
const CLIENT_PAGE = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>client bundle</title>
<script src="/vendor/react.js"></script>
<script src="/vendor/react-dom.js"></script>
<script src="/dist/dsh-settings.iife.js"></script>
</head><body><div id="root"></div>
<script>
  const dictionaries = {};
  const ctx = {
    effects: [],
    effect(setup, label) { this.effects.push(label); setup(); },
    locale: {
      register(ns, dicts) { dictionaries[ns] = dicts; return () => {}; },
      bind(ns) { return (key, params = {}) => dictionaries[ns].zh[key].replace(/{(w+)}/g, (m, name) => name in params ? String(params[name]) : m); },
    },
    slots: {
      injected: [],
      inject(name, setup) { this.injected.push(name); setup(); },
      register(options, component) { window.__section = { options, component }; return () => {}; },
    },
  };
  window.__ctx = ctx;
  window.__settings.apply(ctx);
  const { options, component } = window.__section;
  ReactDOM.createRoot(document.getElementById('root')).render(
    React.createElement(component, { ...options.inject(), close() {} }),
  );
</script></body></html>`;

/**
 * The events route as the adapter serves it, over a list of events: the same query parser and filter (the feed
 * contract's), newest first, paged.
 */
function eventsPage(
  events: readonly FeedEvent[],
  params: URLSearchParams,
  source: 'store' | 'recent',
  countCap = Number.POSITIVE_INFINITY,
): EventsPage {
  const query = eventsQueryFromSearchParams(params);
  const matching = events.filter((event) => eventMatches(event, query));
  const offset = query.offset ?? 0;
  const limit = query.limit ?? DEFAULT_EVENTS_LIMIT;
  const page: EventsPage = {
    v: 1,
    events: matching.slice(offset, offset + limit),
    total: Math.min(matching.length, countCap),
    offset,
    limit,
    source,
  };
  // like the store: past its count cap the total stops at the cap and says so
  if (matching.length > countCap) page.totalCapped = true;
  return page;
}

/** The store's count cap for an events page's total (the feed contract's). */
export const TOTAL_COUNT_CAP = EVENTS_TOTAL_CAP;

/** More events than the store counts for a total: 10,030 events (every fifth a bash call), newest first. */
let bigHistory: FeedEvent[] | undefined;
function bigHistoryEvents(): FeedEvent[] {
  bigHistory ??= Array.from({ length: TOTAL_COUNT_CAP + 30 }, (_, index) => ({
    v: 1,
    id: `b-${index}`,
    at: Date.UTC(2026, 0, 1) + (TOTAL_COUNT_CAP + 30 - index) * 1000,
    tool: index % 5 === 0 ? 'bash' : 'read',
    category: 'other',
    outcome: 'passthrough-failed' as const,
    ruleIds: [],
    changes: [],
    tokensSaved: 0,
    error: `no such file b-${index}.txt`,
  }));
  return bigHistory;
}

/** More stored events than any ring holds: 1,200 events, one a minute, every fifth one a bash call. */
export const HISTORY: FeedEvent[] = Array.from({ length: 1200 }, (_, index) => ({
  v: 1,
  id: `h-${index}`,
  at: Date.UTC(2026, 0, 1) + (1200 - index) * 60_000,
  tool: index % 5 === 0 ? 'bash' : 'read',
  category: index % 5 === 0 ? 'invalid-args' : 'other',
  outcome: index % 5 === 0 ? 'healed-success' : 'passthrough-failed',
  ruleIds: index % 5 === 0 ? ['args.fill-description'] : [],
  changes: [],
  tokensSaved: 0,
  ...(index % 5 === 0
    ? { before: `{"command":"echo ${index}"}`, after: `{"command":"echo ${index}","description":"echo ${index}"}` }
    : { error: `no such file h-${index}.txt` }),
}));

let settingsBundleText: Promise<string> | undefined;

/** The built `dist/dsh-settings.js` bundled (with lit and the element) into a script that sets `window.__settings`. */
function settingsBundle(): Promise<string> {
  settingsBundleText ??= build({
    stdin: {
      contents: `import { createSettingsPlugin } from './dist/dsh-settings.js'; window.__settings = createSettingsPlugin(window.React);`,
      resolveDir: packageDir,
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'warning',
  }).then((result) => result.outputFiles[0]!.text);
  return settingsBundleText;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

/** A policy that forbids inline scripts and inline styles, as a strict host page would. */
export const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'";

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(body);
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const state = {
    payload: fixturePayload() as unknown,
    allPayload: undefined as unknown,
    statsRequests: 0,
    clearRequests: [] as ClearRequest[],
    eventsRequests: [] as string[],
    statsQueries: [] as string[],
    token: randomUUID(),
    tokenRequests: 0,
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const file = STATIC[url.pathname];
      if (file) return send(res, 200, 'text/javascript; charset=utf-8', await readFile(file));
      switch (url.pathname) {
        case '/page':
          return send(
            res,
            200,
            'text/html; charset=utf-8',
            dashboardPage(url.searchParams),
            url.searchParams.get('csp') === 'strict' ? { 'content-security-policy': STRICT_CSP } : {},
          );
        case '/page.css':
          return send(res, 200, 'text/css', 'body { margin: 0; }');
        case '/client':
          return send(res, 200, 'text/html; charset=utf-8', CLIENT_PAGE);
        case '/plugin-api/tool-normalizer/stats':
          state.statsRequests++;
          state.statsQueries.push(url.search);
          return send(
            res,
            200,
            'application/json',
            JSON.stringify(
              url.searchParams.get('profile') === '*'
                ? (state.allPayload ?? { ...(state.payload as object), profile: '*' })
                : state.payload,
            ),
          );
        case '/plugin-api/tool-normalizer/token':
          // As the adapter: only a same-origin browser request gets the token (Chromium sends Sec-Fetch-Site here).
          if (req.headers['sec-fetch-site'] !== 'same-origin')
            return send(res, 403, 'application/json', JSON.stringify({ error: 'same-origin only', reason: 'origin' }));
          state.tokenRequests++;
          return send(res, 200, 'application/json', JSON.stringify({ token: state.token }));
        case '/plugin-api/tool-normalizer/events':
          state.eventsRequests.push(url.search);
          return send(
            res,
            200,
            'application/json',
            JSON.stringify(
              eventsPage(
                (
                  (url.searchParams.get('profile') === '*' ? (state.allPayload ?? state.payload) : state.payload) as {
                    recent?: FeedEvent[];
                  }
                ).recent ?? [],
                url.searchParams,
                'recent',
              ),
            ),
          );
        case '/history/stats':
          return send(
            res,
            200,
            'application/json',
            JSON.stringify({ ...fixturePayload(), recentMatched: HISTORY.length }),
          );
        case '/history/events':
          state.eventsRequests.push(url.search);
          return send(res, 200, 'application/json', JSON.stringify(eventsPage(HISTORY, url.searchParams, 'store')));
        case '/capped/events':
          state.eventsRequests.push(url.search);
          return send(
            res,
            200,
            'application/json',
            JSON.stringify(eventsPage(bigHistoryEvents(), url.searchParams, 'store', TOTAL_COUNT_CAP)),
          );
        case '/dist/dsh-settings.iife.js':
          return send(res, 200, 'text/javascript; charset=utf-8', await settingsBundle());
        case '/real/stats':
          return send(res, 200, 'application/json', JSON.stringify(storePayload()));
        case '/broken/clear-403':
          await readBody(req);
          return send(
            res,
            403,
            'application/json',
            JSON.stringify({ error: 'cross-origin requests are not allowed <b>' }),
          );
        case '/refused/token':
          return send(
            res,
            403,
            'application/json',
            JSON.stringify({
              error: 'the token is only handed to a same-origin page loaded from this machine',
              reason: 'peer',
            }),
          );
        case '/broken/stats-500':
          return send(res, 500, 'text/plain', 'boom');
        case '/broken/stats-v2':
          return send(res, 200, 'application/json', JSON.stringify({ ...fixturePayload(), v: 2 }));
        case '/broken/stats-html':
          return send(res, 200, 'text/html', '<html>login page</html>');
        case '/plugin-api/tool-normalizer/clear': {
          const body = await readBody(req);
          const header = req.headers['x-tool-normalizer-action'];
          if (req.method !== 'POST' || header !== 'clear' || body !== '{"confirm":"clear"}') {
            return send(
              res,
              403,
              'application/json',
              JSON.stringify({ error: 'the x-tool-normalizer-action: clear header is required' }),
            );
          }
          const token = req.headers['x-tool-normalizer-token'];
          if (token !== state.token)
            return send(res, 403, 'application/json', JSON.stringify({ error: 'token required', reason: 'token' }));
          state.clearRequests.push({ header, contentType: req.headers['content-type'], body, token });
          state.payload = emptyPayload();
          return send(res, 200, 'application/json', '{"ok":true}');
        }
        default:
          return send(res, 404, 'text/plain', 'not found');
      }
    })().catch((error: unknown) => send(res, 500, 'text/plain', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get payload() {
      return state.payload;
    },
    set payload(value: unknown) {
      state.payload = value;
    },
    get allPayload() {
      return state.allPayload;
    },
    set allPayload(value: unknown) {
      state.allPayload = value;
    },
    get statsRequests() {
      return state.statsRequests;
    },
    get clearRequests() {
      return state.clearRequests;
    },
    get eventsRequests() {
      return state.eventsRequests;
    },
    get statsQueries() {
      return state.statsQueries;
    },
    get token() {
      return state.token;
    },
    get tokenRequests() {
      return state.tokenRequests;
    },
    rotateToken() {
      state.token = randomUUID();
    },
    reset() {
      state.payload = fixturePayload();
      state.allPayload = undefined;
      state.statsRequests = 0;
      state.clearRequests = [];
      state.eventsRequests = [];
      state.statsQueries = [];
      state.tokenRequests = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
