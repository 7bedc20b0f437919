/**
 * The real-host web profile with the plugin: `dsh --profile web` (rc.8) boots with the meta-package installed,
 * and the plugin's routes answer on the host's own web server: the stats feed is same-origin JSON that is never
 * cached, a cross-site reader is refused, and the clear action cannot be triggered by what a cross-site page can
 * send (a body-less or form POST); the host composes the plugin's web client (the Settings page) into the page and
 * serves its bundle. The headless tier (plugin-scenarios.test.ts) shows the same plugin without a
 * web server: no routes, no error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltPlugin, routeToken, startWebProfile, TOKEN_HEADER, type WebProfile } from '../src/index.js';

const STATS = '/plugin-api/tool-normalizer/stats';
const CLEAR = '/plugin-api/tool-normalizer/clear';

let web: WebProfile | undefined;
let base: string;

beforeAll(async () => {
  await ensureBuiltPlugin();
  web = await startWebProfile({ kind: 'plugin', steps: [{ text: 'web profile probe' }], maxRequests: 10 });
  base = web.url;
});

afterAll(async () => {
  await web?.stop();
});

describe('real DSH web profile with the plugin', () => {
  it('composes the plugin web client (dsh.client) into the page and serves its bundle', async () => {
    const bundle = await fetch(`${base}/plugins/dsh-tool-normalizer/client.js`);
    expect(bundle.status, web!.stderr()).toBe(200);
    expect(await bundle.text()).toContain('id: "dsh-tool-normalizer"');
    const index = await (await fetch(`${base}/`)).text();
    expect(index).toContain('dsh-tool-normalizer');
  });

  it('serves the stats feed as no-store JSON with the plugin-error count', async () => {
    const response = await fetch(`${base}${STATS}`);
    expect(response.status, web!.stderr()).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { v: number; totals: { calls: number }; pluginErrors: number };
    expect(body.v).toBe(1);
    expect(typeof body.totals.calls).toBe('number');
    expect(body.pluginErrors).toBe(0);
    // The plugin found the DSH profile it runs in (its receipts and /metrics carry it).
    expect((body as { ownProfile?: string }).ownProfile).toBe('web');
  });

  it('refuses a cross-site reader', async () => {
    expect((await fetch(`${base}${STATS}`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(`${base}${STATS}`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
  });

  it('refuses a clear a cross-site page could send or a request without the page token, and accepts the real one', async () => {
    expect((await fetch(`${base}${CLEAR}`, { method: 'POST' })).status).toBe(403);
    const clearHeaders = { 'content-type': 'application/json', 'x-tool-normalizer-action': 'clear', origin: base };
    const untokened = await fetch(`${base}${CLEAR}`, {
      method: 'POST',
      headers: clearHeaders,
      body: JSON.stringify({ confirm: 'clear' }),
    });
    expect(untokened.status).toBe(403);
    const form = await fetch(`${base}${CLEAR}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'confirm=clear',
    });
    expect(form.status).toBe(403);
    const ok = await fetch(`${base}${CLEAR}`, {
      method: 'POST',
      headers: { ...clearHeaders, [TOKEN_HEADER]: await routeToken(base) },
      body: JSON.stringify({ confirm: 'clear' }),
    });
    expect(ok.status).toBe(200);
    const after = (await (await fetch(`${base}${STATS}`)).json()) as { totals: { calls: number } };
    expect(after.totals.calls).toBe(0);
  });
});
