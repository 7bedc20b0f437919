/**
 * The plugin's routes on a real `dsh --profile web` that listens on every interface (a `--patch` for the webserver
 * row, which a user writes because rc.8 refuses `--host 0.0.0.0`), attacked from a SECOND ADDRESS: a network
 * namespace this test creates (a veth pair, 10.231.<n>.1 on this side, .2 inside), from which a plain Node client
 * sends what curl on a LAN peer would: forged `Host` (loopback names, DSH's own LAN literal), `Origin` and
 * `Sec-Fetch-Site`, a guessed token. DSH serves its page to that peer (the path works), the plugin's routes refuse it
 * everything, and the recorded calls are still there. The browser path on loopback still works on that bind:
 * real Chromium opens Settings > Tool Normalizer, the dashboard fetches the token, shows the real figures and
 * clears. Skipped with the reason when `ip netns` is unavailable (needs root and iproute2) or there is no Chromium.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { FeedPayload } from '@dsh-tool-normalizer/telemetry-store/feed';
import {
  ensureBuiltPlugin,
  hasChromium,
  nativeScenarios,
  openChromiumPage,
  openSettings,
  readStats,
  runSession,
  scenarioFixtures,
  scenarioScript,
  startWebProfile,
  warnIfNoChromium,
  type WebProfile,
} from '../src/index.js';

const ROUTES = '/plugin-api/tool-normalizer';

/** Why network namespaces cannot be used here, or undefined when they can. */
function netnsUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root';
  const probe = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return `ip netns list failed: ${probe.error?.message ?? probe.stderr.trim()}`;
  return undefined;
}

const unavailable = netnsUnavailable();
if (unavailable) console.warn(`[dsh-lab] plugin-web-lan skipped: ip netns unavailable (${unavailable})`);
warnIfNoChromium('plugin-web-lan (browser part)');

/** A network namespace joined to this one by a veth pair; `peer` is its address, `host` this side's. */
interface Lan {
  name: string;
  host: string;
  peer: string;
  remove(): void;
}

function createLan(): Lan {
  const id = `${process.pid % 10_000}${randomInt(100)}`;
  const name = `tn-routes-${id}`;
  const outer = `tnr${id}a`;
  const inner = `tnr${id}b`;
  const subnet = `10.231.${randomInt(1, 250)}`;
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  const remove = () => {
    spawnSync('ip', ['link', 'del', outer], { stdio: 'ignore' });
    spawnSync('ip', ['netns', 'del', name], { stdio: 'ignore' });
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', outer, 'type', 'veth', 'peer', 'name', inner);
    ip('link', 'set', inner, 'netns', name);
    ip('addr', 'add', `${subnet}.1/24`, 'dev', outer);
    ip('link', 'set', outer, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${subnet}.2/24`, 'dev', inner);
    ip('netns', 'exec', name, 'ip', 'link', 'set', inner, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    remove();
    throw error;
  }
  return { name, host: `${subnet}.1`, peer: `${subnet}.2`, remove };
}

interface PeerRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface PeerAnswer {
  status: number;
  body: string;
  /** The address the request left from, as the peer's socket saw it. */
  from: string;
}

/** The client the peer runs: node:http, every header as given (a browser would refuse to forge Host). */
const PEER_CLIENT = `
const http = require('node:http');
const [target, port, specs] = [process.argv[1], Number(process.argv[2]), JSON.parse(process.argv[3])];
(async () => {
  const answers = [];
  for (const spec of specs) {
    answers.push(await new Promise((resolve) => {
      const req = http.request({ host: target, port, method: spec.method, path: spec.path, headers: spec.headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8').slice(0, 2000), from: req.socket.localAddress }));
      });
      req.on('error', (e) => resolve({ status: 0, body: String(e), from: '' }));
      req.end(spec.body);
    }));
  }
  process.stdout.write(JSON.stringify(answers));
})();
`;

/** Sends the requests from inside the namespace to `target:port`, one after another. */
function fromPeer(lan: Lan, target: string, port: number, specs: PeerRequest[]): PeerAnswer[] {
  const output = execFileSync(
    'ip',
    ['netns', 'exec', lan.name, process.execPath, '-e', PEER_CLIENT, target, String(port), JSON.stringify(specs)],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(output) as PeerAnswer[];
}

describe.skipIf(unavailable !== undefined)('the plugin routes on DSH web bound to 0.0.0.0, from a LAN peer', () => {
  let lan: Lan | undefined;
  let web: WebProfile;
  let port: number;
  let before: FeedPayload;

  beforeAll(async () => {
    await ensureBuiltPlugin();
    // Calls to protect: a short headless session records them in the lab's plugin DSH_HOME.
    const scenarios = ['n_bash_ok', 'n_bash_no_description'].map((id) => nativeScenarios.find((s) => s.id === id)!);
    const session = await runSession({
      mode: 'native',
      plugin: true,
      label: 'web-lan',
      steps: scenarioScript(scenarios),
      workspaceFixtures: scenarioFixtures,
    });
    expect(session.exitCode, session.stderr).toBe(0);
    // The namespace first: DSH samples its LAN addresses (and trusts them as Host for its own /api) when it binds.
    lan = createLan();
    web = await startWebProfile({ kind: 'plugin', allInterfaces: true });
    port = Number(new URL(web.url).port);
    before = await readStats<FeedPayload>(web.url);
  });

  afterAll(async () => {
    await web?.stop();
    lan?.remove();
  });

  it('listens on the LAN address: DSH serves its page to the peer, from the peer address', () => {
    const [page] = fromPeer(lan!, lan!.host, port, [
      { method: 'GET', path: '/', headers: { host: `${lan!.host}:${port}` } },
    ]);
    expect(page!.status, web.stderr()).toBe(200);
    expect(page!.from).toBe(lan!.peer);
    expect(before.totals.calls).toBeGreaterThan(0);
    expect(before.ownProfile).toBe('web');
  });

  it('refuses the peer the token, the stats, the events, the metrics and the clear, whatever it forges', () => {
    const guessed = randomBytes(32).toString('base64url');
    const hosts = [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `dsh.localhost:${port}`,
      `${lan!.host}:${port}`,
    ];
    const specs: PeerRequest[] = [];
    for (const host of hosts) {
      const forged = {
        host,
        origin: `http://${host}`,
        'sec-fetch-site': 'same-origin',
        'x-tool-normalizer-token': guessed,
      };
      for (const route of ['token', 'stats', 'events', 'metrics', 'stats?profile=all'])
        specs.push({ method: 'GET', path: `${ROUTES}/${route}`, headers: forged });
      specs.push({
        method: 'POST',
        path: `${ROUTES}/clear`,
        headers: { ...forged, 'content-type': 'application/json', 'x-tool-normalizer-action': 'clear' },
        body: JSON.stringify({ confirm: 'clear' }),
      });
    }
    const answers = fromPeer(lan!, lan!.host, port, specs);
    expect(answers).toHaveLength(specs.length);
    answers.forEach((answer, index) => {
      const spec = specs[index]!;
      const what = `${spec.method} ${spec.path} Host ${spec.headers.host}`;
      expect(answer.status, `${what}: ${answer.body}`).toBe(403);
      expect(answer.from).toBe(lan!.peer);
      for (const leak of ['"token":', '"totals"', '"events"', 'tool_normalizer_calls_total', '"cleared"'])
        expect(answer.body, what).not.toContain(leak);
    });
  });

  it('the recorded calls are all still there, and loopback readers need the token on this bind', async () => {
    const after = await readStats<FeedPayload>(web.url);
    expect(after.totals.calls).toBe(before.totals.calls);
    expect((await fetch(`${web.url}${ROUTES}/stats`)).status).toBe(403);
    expect((await fetch(`${web.url}${ROUTES}/events`)).status).toBe(403);
  });

  describe.skipIf(!hasChromium)('the browser path on loopback', () => {
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      ({ browser, page } = await openChromiumPage(pageErrors));
    });

    afterAll(async () => {
      await browser?.close();
    });

    it('Settings > Tool Normalizer reads the figures with the token and clears them', async () => {
      const dashboard = page.locator('tn-dashboard');
      const kpiValue = () => dashboard.locator('[data-kpi="calls"] .value').textContent();
      await openSettings(page, web.url, 'Tool Normalizer', { allProfiles: true });
      const calls = new Intl.NumberFormat('en-US').format(before.totals.calls);
      await expect.poll(kpiValue, { timeout: 30_000 }).toBe(calls);
      await dashboard.getByRole('button', { name: 'Clear statistics…' }).click();
      expect(await dashboard.locator('[data-clear-scope]').textContent()).toContain('erases every stored event');
      await dashboard.getByRole('button', { name: 'Yes, clear' }).click();
      await expect.poll(kpiValue, { timeout: 30_000 }).toBe('0');
      expect((await readStats<FeedPayload>(web.url)).totals.calls).toBe(0);
      expect(await dashboard.getByRole('alert').count()).toBe(0);
      expect(pageErrors).toEqual([]);
    });
  });
});
