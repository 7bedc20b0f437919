/**
 * The route handlers on their own, over real HTTP on 127.0.0.1 (a node:http server per test), with a backend that
 * records what it was asked and fails on demand: the status a request gets for the backend's answers (a store's
 * query error is the caller's 400, any other failure a 503, a clear the store could not finish a 503), which
 * profile reaches the backend, and that a refused request never reaches it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StatsQueryError } from '@dsh-tool-normalizer/telemetry-store';
import type { EventsPage, EventsQuery, FeedPayload } from '@dsh-tool-normalizer/telemetry-store/feed';
import { createRouteGuard } from '../src/route-guard.js';
import {
  ACTION_HEADER,
  TOKEN_HEADER,
  createClearHandler,
  createEventsHandler,
  createStatsHandler,
  type ProfileStatsQuery,
  type RouteBackend,
} from '../src/routes.js';

const TOKEN = 't'.repeat(43);

interface Recorder {
  backend: RouteBackend;
  stats: ProfileStatsQuery[];
  events: EventsQuery[];
  clears: number;
}

function recorder(fail: { stats?: Error; events?: Error; clear?: Error | false } = {}): Recorder {
  const seen: Recorder = { stats: [], events: [], clears: 0, backend: undefined as never };
  seen.backend = {
    async stats(query) {
      seen.stats.push(query);
      if (fail.stats) throw fail.stats;
      return { v: 1 } as unknown as FeedPayload;
    },
    async events(query) {
      seen.events.push(query);
      if (fail.events) throw fail.events;
      return { v: 1, events: [], total: 0, offset: 0, limit: 25, source: 'store' } as EventsPage;
    },
    async clear() {
      seen.clears += 1;
      if (fail.clear instanceof Error) throw fail.clear;
      return fail.clear !== false;
    },
  };
  return seen;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<string> {
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const routes = (seen: Recorder) => ({
  backend: seen.backend,
  guard: createRouteGuard({ allowedHosts: [], token: TOKEN, bindHost: () => '127.0.0.1' }),
  profile: 'web',
});

describe('stats and events handlers', () => {
  it.each([
    ['', 'web'],
    ['?profile=all', '*'],
    ['?profile=*', '*'],
    ['?profile=ci', 'ci'],
  ])('%s asks the backend for profile %s', async (query, profile) => {
    const seen = recorder();
    const stats = await serve(createStatsHandler(routes(seen)));
    expect((await fetch(`${stats}/${query}`)).status).toBe(200);
    expect(seen.stats.at(-1)?.profile).toBe(profile);
    await close?.();
    const events = await serve(createEventsHandler(routes(seen)));
    expect((await fetch(`${events}/${query}`)).status).toBe(200);
    expect(seen.events.at(-1)?.profile).toBe(profile);
  });

  it.each([
    ['a query error from the store', new StatsQueryError('invalid events query at /offset'), 400],
    [
      'a QueryError by name (the store renames its class)',
      Object.assign(new TypeError('bad'), { name: 'QueryError' }),
      400,
    ],
    ['any other failure', new Error('SQLITE_CORRUPT'), 503],
  ])('%s -> %i', async (_, error, status) => {
    for (const create of [createStatsHandler, createEventsHandler]) {
      const seen = recorder({ stats: error, events: error });
      const base = await serve(create(routes(seen)));
      const response = await fetch(`${base}/`);
      expect(response.status).toBe(status);
      const body = (await response.json()) as { error: string };
      expect(body.error).not.toContain('SQLITE'); // a store failure is not described to the caller
      await close?.();
      close = undefined;
    }
  });

  it('never reaches the backend for a bad query or a refused request', async () => {
    const seen = recorder();
    const base = await serve(createEventsHandler(routes(seen)));
    for (const query of ['?text=%00', '?offset=100000001', '?limit=x', '?outcome=nope'])
      expect((await fetch(`${base}/${query}`)).status).toBe(400);
    expect((await fetch(`${base}/`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect(seen.events).toEqual([]);
  });
});

describe('clear handler', () => {
  const clear = (base: string, token = TOKEN) =>
    fetch(`${base}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [ACTION_HEADER]: 'clear',
        origin: base,
        'sec-fetch-site': 'same-origin',
        [TOKEN_HEADER]: token,
      },
      body: '{"confirm":"clear"}',
    });

  it('answers 200 when the store erased, 503 when it says it could not, 503 when it failed', async () => {
    for (const [fail, status] of [
      [undefined, 200],
      [false, 503],
      [new Error('disk I/O error'), 503],
    ] as const) {
      const seen = recorder({ clear: fail });
      const base = await serve(createClearHandler(routes(seen)));
      expect((await clear(base)).status).toBe(status);
      expect(seen.clears).toBe(1);
      await close?.();
      close = undefined;
    }
  });

  it('never reaches the backend without the token', async () => {
    const seen = recorder();
    const base = await serve(createClearHandler(routes(seen)));
    const refused = await clear(base, 'x'.repeat(43));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ reason: 'token' });
    expect(seen.clears).toBe(0);
  });
});
