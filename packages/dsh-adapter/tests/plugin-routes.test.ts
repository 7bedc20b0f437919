/**
 * The web profile's routes on the real `@deepseek-ai/dsh-host-webserver` (listening on 127.0.0.1, an OS port):
 * the stats feed is same-origin JSON that is never cached; the clear action cannot be triggered by a cross-site
 * page (no custom header possible without a preflight; a form or body-less POST is refused); bodies are capped;
 * disposing the plugin removes both routes. DNS rebinding: a request whose `Host` is not an IP literal, localhost
 * or a name in `allowedHosts` is refused (fetch cannot set `Host`, so those requests go through node:http).
 */
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION_HEADER, CLEAR_PATH, MAX_BODY_BYTES, STATS_PATH } from '../src/index.js';
import { bootHost, type Host } from './support/composition.js';

let host: Host;
let base: string;

beforeEach(async () => {
  host = await bootHost({ web: true });
  base = `http://127.0.0.1:${host.ctx.webServer.port}`;
});

afterEach(async () => {
  await host.dispose();
});

const clearInit = (overrides: RequestInit & { headers?: Record<string, string> } = {}): RequestInit => ({
  method: 'POST',
  ...overrides,
  headers: { 'content-type': 'application/json', [ACTION_HEADER]: 'clear', ...overrides.headers },
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

const clearRequest = (origin: string) => ({
  method: 'POST' as const,
  path: CLEAR_PATH,
  headers: { origin, 'content-type': 'application/json', [ACTION_HEADER]: 'clear', 'sec-fetch-site': 'same-origin' },
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
    expect(stats.body).toEqual({ error: expect.stringContaining('allowedHosts') });
    expect(stats.body).not.toHaveProperty('totals');
    const clear = await requestWithHost(port, 'attacker.example', clearRequest(origin));
    expect(clear.status).toBe(403);
    expect(clear.body).toEqual({ error: expect.stringContaining('allowedHosts') });
    const withPort = await requestWithHost(
      port,
      `attacker.example:${port}`,
      clearRequest(`http://attacker.example:${port}`),
    );
    expect(withPort.status).toBe(403);
    expect(await callCount()).toBe(1);
  });

  it.each(['127.0.0.1', 'localhost', '[::1]'])('answers a %s Host for stats and clear', async (name) => {
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
  });
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
    const clear = await requestWithHost(port, `DSH.LAN:${port}`, clearRequest(`http://DSH.LAN:${port}`));
    expect(clear.status).toBe(200);
    expect((await listed.stats()).totals.calls).toBe(0);
  });
});

describe('dispose', () => {
  it('removes both routes', async () => {
    await host.pluginFiber?.dispose();
    host.pluginFiber = undefined;
    expect((await fetch(`${base}${STATS_PATH}`)).status).toBe(404);
    expect((await fetch(`${base}${CLEAR_PATH}`, clearInit())).status).toBe(404);
  });
});
