/**
 * The web profile's routes on the real `@deepseek-ai/dsh-host-webserver` (listening on 127.0.0.1, an OS port):
 * the stats feed is same-origin JSON that is never cached; the clear action cannot be triggered by a cross-site
 * page (no custom header possible without a preflight; a form or body-less POST is refused) nor by a plain request
 * without the page's token; bodies are capped; disposing the plugin removes the routes. DNS rebinding and LAN
 * peers: a request whose `Host` is not a loopback name or a name in `allowedHosts` is refused (fetch cannot set
 * `Host`, so those requests go through node:http). Listening on 0.0.0.0, the reading routes need the token too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventsPage } from '@dsh-tool-normalizer/telemetry-store/feed';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ACTION_HEADER,
  CLEAR_PATH,
  EVENTS_PATH,
  MAX_BODY_BYTES,
  STATS_PATH,
  TOKEN_HEADER,
  TOKEN_PATH,
} from '../src/index.js';
import { bootHost, pageToken, type Host } from './support/composition.js';

let host: Host;
let base: string;
let token: string;

beforeEach(async () => {
  host = await bootHost({ web: true });
  base = `http://127.0.0.1:${host.ctx.webServer.port}`;
  token = await pageToken(base);
});

afterEach(async () => {
  await host.dispose();
});

/** The clear request the dashboard sends: same-origin POST, JSON body, the action header and the token. */
const clearInit = (overrides: RequestInit & { headers?: Record<string, string> } = {}): RequestInit => ({
  method: 'POST',
  ...overrides,
  headers: {
    'content-type': 'application/json',
    [ACTION_HEADER]: 'clear',
    origin: base,
    'sec-fetch-site': 'same-origin',
    [TOKEN_HEADER]: token,
    ...overrides.headers,
  },
  body: overrides.body === undefined ? JSON.stringify({ confirm: 'clear' }) : overrides.body,
});

describe('GET stats', () => {
  it('answers JSON with no-store and counts calls', async () => {
    const path = host.file('a.txt', 'alpha\n');
    await host.execute('read', { file_path: path });
    await host.execute('read', { file_path: `${path}.missing` });
    const response = await fetch(`${base}${STATS_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { totals: { calls: number }; pluginErrors: number };
    expect(body.totals.calls).toBe(2);
    expect(body.pluginErrors).toBe(0);
  });

  it('refuses cross-origin readers', async () => {
    const foreign = await fetch(`${base}${STATS_PATH}`, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    const crossSite = await fetch(`${base}${STATS_PATH}`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const same = await fetch(`${base}${STATS_PATH}`, { headers: { origin: base, 'sec-fetch-site': 'same-origin' } });
    expect(same.status).toBe(200);
  });

  it('rejects a bad query with 400 and another method with 405', async () => {
    expect((await fetch(`${base}${STATS_PATH}?outcome=nonsense`)).status).toBe(400);
    expect((await fetch(`${base}${STATS_PATH}`, { method: 'DELETE' })).status).toBe(405);
  });

  it.each([
    [STATS_PATH, 'text=a%00b'],
    [STATS_PATH, 'tool=%01'],
    [STATS_PATH, 'profile=%00'],
    [EVENTS_PATH, 'text=a%00b'],
    [EVENTS_PATH, 'category=x%1fy'],
    [EVENTS_PATH, 'offset=100000001'],
    [EVENTS_PATH, 'offset=99999999999999'],
    [EVENTS_PATH, 'limit=0'],
    [EVENTS_PATH, 'from=5&to=4'],
    [EVENTS_PATH, `text=${'x'.repeat(201)}`],
    [EVENTS_PATH, 'profile=%7f'],
  ])('answers 400 (not 503) to %s?%s', async (path, query) => {
    await host.execute('read', { file_path: `${host.dir}/missing.txt` });
    const response = await fetch(`${base}${path}?${query}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/.+/);
  });

  it("pages up to the store's largest offset", async () => {
    const response = await fetch(`${base}${EVENTS_PATH}?offset=100000000`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { events: unknown[] }).events).toEqual([]);
  });
});

describe('profiles', () => {
  it('shows its own profile by default and every profile for ?profile=all or *', async () => {
    await host.execute('read', { file_path: `${host.dir}/missing.txt` });
    const own = (await (await fetch(`${base}${STATS_PATH}`)).json()) as { profile: string; ownProfile: string };
    expect(own.ownProfile).toBe('default'); // the composition boots no profile folder
    expect(own.profile).toBe(own.ownProfile);
    for (const value of ['all', '*', '%2A']) {
      const all = (await (await fetch(`${base}${STATS_PATH}?profile=${value}`)).json()) as { profile: string };
      expect(all.profile).toBe('*');
    }
    const named = (await (await fetch(`${base}${STATS_PATH}?profile=ci`)).json()) as { profile: string };
    expect(named.profile).toBe('ci');
  });
});

describe('per-profile receipts in one shared store (needs telemetry-store with profiles)', () => {
  it('a profile sees its own calls by default, another profile by name and every profile with ?profile=all', async (context) => {
    const shared = mkdtempSync(join(tmpdir(), 'tn-profiles-'));
    const web = await bootHost({ web: true, profile: 'web', plugin: { logDir: shared } });
    const ci = await bootHost({ profile: 'ci', plugin: { logDir: shared } });
    try {
      await web.execute('read', { file_path: `${web.dir}/missing.txt` });
      for (const name of ['a', 'b']) await ci.execute('read', { file_path: `${ci.dir}/${name}.txt` });
      await ci.pluginFiber?.dispose(); // flushes ci's queue into the shared database
      ci.pluginFiber = undefined;
      const webBase = `http://127.0.0.1:${web.ctx.webServer.port}`;
      const page = async (query: string) =>
        (await (await fetch(`${webBase}${EVENTS_PATH}?${query}`)).json()) as EventsPage;
      const all = await page('profile=all');
      if (!all.events.every((event) => 'profile' in event)) {
        context.skip('this telemetry-store keeps no profile per event yet (H-store adds it; passes once merged)');
        return;
      }
      expect(all.total).toBe(3);
      const own = await page('');
      expect(own.events.map((event) => (event as { profile?: string }).profile)).toEqual(['web']);
      expect((await page('profile=ci')).total).toBe(2);
      const stats = async (query: string) =>
        (await (await fetch(`${webBase}${STATS_PATH}${query}`)).json()) as {
          totals: { calls: number };
          profile: string;
        };
      expect(await stats('')).toMatchObject({ totals: { calls: 1 }, profile: 'web' });
      expect(await stats('?profile=ci')).toMatchObject({ totals: { calls: 2 }, profile: 'ci' });
      expect(await stats('?profile=*')).toMatchObject({ totals: { calls: 3 }, profile: '*' });
    } finally {
      await ci.dispose();
      await web.dispose();
      rmSync(shared, { recursive: true, force: true });
    }
  });
});

describe('GET token', () => {
  it('hands the token only to a same-origin browser request with a loopback Host from this machine', async () => {
    const plain = await fetch(`${base}${TOKEN_PATH}`);
    expect(plain.status).toBe(403);
    expect(await plain.json()).toMatchObject({ reason: 'origin' });
    for (const site of ['cross-site', 'same-site', 'none']) {
      expect((await fetch(`${base}${TOKEN_PATH}`, { headers: { 'sec-fetch-site': site } })).status).toBe(403);
    }
    const foreign = await fetch(`${base}${TOKEN_PATH}`, {
      headers: { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const ok = await fetch(`${base}${TOKEN_PATH}`, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const body = (await ok.json()) as { token: string };
    expect(body.token).toBe(token);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    expect((await fetch(`${base}${TOKEN_PATH}`, { method: 'POST' })).status).toBe(405);
  });

  it('is a fresh random value per activation', async () => {
    const other = await bootHost({ web: true });
    try {
      expect(await pageToken(`http://127.0.0.1:${other.ctx.webServer.port}`)).not.toBe(token);
    } finally {
      await other.dispose();
    }
  });
});

describe('POST clear', () => {
  it('clears with the JSON body and the custom header', async () => {
    await host.execute('read', { file_path: `${host.dir}/missing.txt` });
    const cleared = await fetch(`${base}${CLEAR_PATH}`, clearInit());
    expect(cleared.status).toBe(200);
    expect(cleared.headers.get('cache-control')).toBe('no-store');
    const body = (await (await fetch(`${base}${STATS_PATH}`)).json()) as { totals: { calls: number } };
    expect(body.totals.calls).toBe(0);
  });

  it('refuses a clear without the token, with a wrong one, or without an Origin', async () => {
    await host.execute('read', { file_path: `${host.dir}/missing.txt` });
    for (const value of ['', 'x', token.slice(1), `${token}x`, token.toUpperCase()]) {
      const refused = await fetch(`${base}${CLEAR_PATH}`, clearInit({ headers: { [TOKEN_HEADER]: value } }));
      expect(refused.status, value).toBe(403);
      expect(await refused.json()).toMatchObject({ reason: 'token' });
    }
    const init = clearInit();
    const headers = { ...(init.headers as Record<string, string>) };
    delete headers.origin;
    expect((await fetch(`${base}${CLEAR_PATH}`, { ...init, headers })).status).toBe(403);
    expect((await host.stats()).totals.calls).toBe(1);
  });

  it('refuses what a cross-site page could send', async () => {
    await host.execute('read', { file_path: `${host.dir}/missing.txt` });
    const bodyless = await fetch(`${base}${CLEAR_PATH}`, { method: 'POST' });
    expect(bodyless.status).toBe(403);
    const form = await fetch(`${base}${CLEAR_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'confirm=clear',
    });
    expect(form.status).toBe(403);
    const noJson = await fetch(`${base}${CLEAR_PATH}`, clearInit({ headers: { 'content-type': 'text/plain' } }));
    expect(noJson.status).toBe(415);
    const foreign = await fetch(`${base}${CLEAR_PATH}`, clearInit({ headers: { origin: 'https://evil.example' } }));
    expect(foreign.status).toBe(403);
    const wrongBody = await fetch(`${base}${CLEAR_PATH}`, clearInit({ body: '{}' }));
    expect(wrongBody.status).toBe(400);
    const body = (await (await fetch(`${base}${STATS_PATH}`)).json()) as { totals: { calls: number } };
    expect(body.totals.calls).toBe(1);
  });

  it('caps the body size', async () => {
    const large = JSON.stringify({ confirm: 'clear', padding: 'x'.repeat(MAX_BODY_BYTES) });
    const response = await fetch(`${base}${CLEAR_PATH}`, clearInit({ body: large }));
    expect(response.status).toBe(413);
  });
});

/** One request to the real server on 127.0.0.1 with the given `Host` header (what a rebound browser page sends). */
function requestWithHost(
  port: number,
  host: string,
  init: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: init.method, path: init.path, headers: { ...init.headers, host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const clearRequest = (origin: string, withToken = token) => ({
  method: 'POST' as const,
  path: CLEAR_PATH,
  headers: {
    origin,
    'content-type': 'application/json',
    [ACTION_HEADER]: 'clear',
    'sec-fetch-site': 'same-origin',
    [TOKEN_HEADER]: withToken,
  },
  body: JSON.stringify({ confirm: 'clear' }),
});

const callCount = async () =>
  ((await (await fetch(`${base}${STATS_PATH}`)).json()) as { totals: { calls: number } }).totals.calls;

describe('DNS rebinding (Host check)', () => {
  it('refuses a rebound page for stats and clear, and names the option to set', async () => {
    await host.execute('read', { file_path: `${host.dir}/missing.txt` });
    const port = host.ctx.webServer.port;
    const origin = 'http://attacker.example';
    const stats = await requestWithHost(port, 'attacker.example', {
      method: 'GET',
      path: STATS_PATH,
      headers: { origin, 'sec-fetch-site': 'same-origin' },
    });
    expect(stats.status).toBe(403);
    expect(stats.body).toEqual({ error: expect.stringContaining('allowedHosts'), reason: 'host' });
    expect(stats.body).not.toHaveProperty('totals');
    const clear = await requestWithHost(port, 'attacker.example', clearRequest(origin));
    expect(clear.status).toBe(403);
    expect(clear.body).toEqual({ error: expect.stringContaining('allowedHosts'), reason: 'host' });
    const withPort = await requestWithHost(
      port,
      `attacker.example:${port}`,
      clearRequest(`http://attacker.example:${port}`),
    );
    expect(withPort.status).toBe(403);
    expect(await callCount()).toBe(1);
  });

  it.each(['192.168.1.50', '10.231.0.1', '0.0.0.0', '[fe80::1]'])(
    'refuses a non-loopback IP literal Host %s for stats, events and clear, even with the token',
    async (name) => {
      await host.execute('read', { file_path: `${host.dir}/missing.txt` });
      const port = host.ctx.webServer.port;
      const hostHeader = `${name}:${port}`;
      for (const path of [STATS_PATH, EVENTS_PATH, TOKEN_PATH]) {
        const read = await requestWithHost(port, hostHeader, {
          method: 'GET',
          path,
          headers: { 'sec-fetch-site': 'same-origin', [TOKEN_HEADER]: token },
        });
        expect(read.status, path).toBe(403);
        expect(read.body).toMatchObject({ reason: 'host' });
      }
      const clear = await requestWithHost(port, hostHeader, clearRequest(`http://${hostHeader}`));
      expect(clear.status).toBe(403);
      expect(await callCount()).toBe(1);
    },
  );

  it.each(['127.0.0.1', 'localhost', '[::1]', 'dsh.localhost'])(
    'answers a %s Host for stats and clear',
    async (name) => {
      await host.execute('read', { file_path: `${host.dir}/missing.txt` });
      const port = host.ctx.webServer.port;
      const hostHeader = `${name}:${port}`;
      const stats = await requestWithHost(port, hostHeader, {
        method: 'GET',
        path: STATS_PATH,
        headers: { origin: `http://${hostHeader}` },
      });
      expect(stats.status).toBe(200);
      expect(stats.body).toMatchObject({ totals: { calls: 1 } });
      const clear = await requestWithHost(port, hostHeader, clearRequest(`http://${hostHeader}`));
      expect(clear.status).toBe(200);
      expect(await callCount()).toBe(0);
    },
  );
});

describe('DNS rebinding with allowedHosts', () => {
  let listed: Host;
  beforeEach(async () => {
    listed = await bootHost({ web: true, plugin: { allowedHosts: ['dsh.lan'] } });
  });
  afterEach(async () => {
    await listed.dispose();
  });

  it('answers a listed name and still refuses others', async () => {
    const port = listed.ctx.webServer.port;
    await listed.execute('read', { file_path: `${listed.dir}/missing.txt` });
    const stats = await requestWithHost(port, `dsh.lan:${port}`, {
      method: 'GET',
      path: STATS_PATH,
      headers: { origin: `http://dsh.lan:${port}` },
    });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ totals: { calls: 1 } });
    const other = await requestWithHost(port, `attacker.example:${port}`, { method: 'GET', path: STATS_PATH });
    expect(other.status).toBe(403);
    const listedToken = await pageToken(`http://127.0.0.1:${port}`);
    const clear = await requestWithHost(port, `DSH.LAN:${port}`, clearRequest(`http://DSH.LAN:${port}`, listedToken));
    expect(clear.status).toBe(200);
    expect((await listed.stats()).totals.calls).toBe(0);
  });
});

/** A non-loopback IPv4 address of this machine, when it has one (the exposed bind is reachable on it). */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((iface) => iface !== undefined && iface.family === 'IPv4' && !iface.internal)?.address;

describe('listening on 0.0.0.0', () => {
  let exposed: Host;
  let exposedBase: string;
  beforeEach(async () => {
    exposed = await bootHost({ web: true, webHost: '0.0.0.0', plugin: { metrics: true } });
    exposedBase = `http://127.0.0.1:${exposed.ctx.webServer.port}`;
    await exposed.execute('read', { file_path: `${exposed.dir}/missing.txt` });
  });
  afterEach(async () => {
    await exposed.dispose();
  });

  it('the reading routes need the token, from loopback too', async () => {
    const exposedToken = await pageToken(exposedBase);
    for (const path of [STATS_PATH, EVENTS_PATH, `${STATS_PATH.replace(/stats$/, 'metrics')}`]) {
      const bare = await fetch(`${exposedBase}${path}`);
      expect(bare.status, path).toBe(403);
      const refusal = await bare.text();
      expect(refusal, path).toContain(TOKEN_HEADER);
      expect(refusal).not.toContain('"totals"');
      const wrong = await fetch(`${exposedBase}${path}`, { headers: { [TOKEN_HEADER]: token } });
      expect(wrong.status, path).toBe(403);
      const ok = await fetch(`${exposedBase}${path}`, { headers: { [TOKEN_HEADER]: exposedToken } });
      expect(ok.status, path).toBe(200);
    }
    expect((await exposed.stats()).totals.calls).toBe(1);
  });

  it.skipIf(lanAddress === undefined)(
    'a peer on a non-loopback address gets no token, whatever Host, Origin and Fetch-Metadata it forges',
    async () => {
      const port = exposed.ctx.webServer.port;
      const forged = (path: string, method: 'GET' | 'POST' = 'GET') =>
        new Promise<number>((resolve, reject) => {
          // Connect to this machine's LAN address, so the server sees a non-loopback peer.
          const req = request(
            {
              host: lanAddress,
              port,
              method,
              path,
              headers: {
                host: `127.0.0.1:${port}`,
                origin: `http://127.0.0.1:${port}`,
                'sec-fetch-site': 'same-origin',
                'content-type': 'application/json',
                [ACTION_HEADER]: 'clear',
              },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(method === 'POST' ? JSON.stringify({ confirm: 'clear' }) : undefined);
        });
      expect(await forged(TOKEN_PATH)).toBe(403);
      expect(await forged(STATS_PATH)).toBe(403);
      expect(await forged(EVENTS_PATH)).toBe(403);
      expect(await forged(CLEAR_PATH, 'POST')).toBe(403);
      expect((await exposed.stats()).totals.calls).toBe(1);
    },
  );
});

describe('dispose', () => {
  it('removes the routes', async () => {
    await host.pluginFiber?.dispose();
    host.pluginFiber = undefined;
    expect((await fetch(`${base}${STATS_PATH}`)).status).toBe(404);
    expect((await fetch(`${base}${CLEAR_PATH}`, clearInit())).status).toBe(404);
    expect((await fetch(`${base}${TOKEN_PATH}`)).status).toBe(404);
  });
});
