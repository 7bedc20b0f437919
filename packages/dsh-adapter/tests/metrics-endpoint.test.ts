/**
 * The fleet metrics endpoint on the real `@deepseek-ai/dsh-host-webserver`, with the plugin in a real cordis Context
 * and the real tool runtime: counters match what the stats route counted for the same calls, labels are bounded
 * and redacted, OpenMetrics is served when asked, the Host guard and the `metrics` option work, and a plugin
 * reload neither loses nor double counts (the counters are per process, not per activation). The process
 * counters are shared by every test in this worker, so each test compares values before and after its own calls.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as plugin from '../src/index.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARNESSES, type HarnessCalls, OUTCOMES, createTelemetryStore } from '@dsh-tool-normalizer/telemetry-store';
import {
  FleetCounters,
  LABEL_CAPS,
  MAX_SERIES,
  PLUGIN_VERSION,
  UNREGISTERED_LABEL,
  configForDisplay,
  harnessSeries,
  lastReadableHarnessCalls,
  meterStore,
  processFleetCounters,
  processIdentity,
  storeCountsDroppedEvents,
} from '../src/metrics.js';
import { METRICS_PATH, METRIC_NAMES, createMetricsHandler } from '../src/metrics-prometheus.js';
import { createRouteGuard } from '../src/route-guard.js';
import { bootHost, type Host } from './support/composition.js';
import { parseExposition, sumOf, type Sample } from './support/exposition.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

async function scrape(
  h: Host,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`http://127.0.0.1:${h.ctx.webServer.port}${METRICS_PATH}`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function samples(h: Host): Promise<Sample[]> {
  const got = await scrape(h);
  expect(got.status, got.text).toBe(200);
  return parseExposition(got.text);
}

function getWithHost(port: number, hostHeader: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: METRICS_PATH, headers: { host: hostHeader } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /plugin-api/tool-normalizer/metrics', () => {
  it('counts calls by tool, category, outcome and model, heals by rule, tokens saved and repeats: the same calls the stats route counts', async () => {
    host = await bootHost({ web: true, meteredTokens: 5000 });
    const before = await samples(host);
    const path = host.file('existing.txt', 'alpha\n');
    await host.execute('read', { file_path: path });
    const unread = host.file('unread.txt', 'beta\n');
    await host.execute('edit', { file_path: unread, old_string: 'beta', new_string: 'B' }); // healed: read first, then retry
    await host.execute('read', { file_path: `${path}.missing` });
    await host.execute('read', { file_path: `${path}.missing` }); // the same failure again: a repeat caught
    const after = await samples(host);
    const stats = await host.stats();
    const delta = (name: string, where: Record<string, string> = {}) =>
      sumOf(after, name, where) - sumOf(before, name, where);

    expect(stats.totals.calls).toBe(4);
    expect(delta(METRIC_NAMES.calls)).toBe(stats.totals.calls);
    expect(delta(METRIC_NAMES.calls, { outcome: 'healed-success' })).toBe(stats.totals.healedSuccess);
    expect(delta(METRIC_NAMES.calls, { outcome: 'passthrough-failed' })).toBe(stats.totals.passThroughFailed);
    expect(delta(METRIC_NAMES.calls, { tool: 'read' })).toBe(3);
    expect(delta(METRIC_NAMES.modelCalls, { model: 'scripted-model' })).toBe(stats.totals.calls);
    expect(delta(METRIC_NAMES.modelSavedTokens, { model: 'scripted-model' })).toBe(stats.totals.tokensSaved);
    expect(delta(METRIC_NAMES.calls, { tool: 'edit', category: 'fs-not-observed', outcome: 'healed-success' })).toBe(1);
    expect(delta(METRIC_NAMES.heals, { rule: 'recover.observe-then-retry', outcome: 'healed-success' })).toBe(1);
    expect(delta(METRIC_NAMES.savedTokens)).toBe(stats.totals.tokensSaved);
    expect(stats.totals.tokensSaved).toBe(5000);
    expect(delta(METRIC_NAMES.repeats, { tool: 'read' })).toBe(1);
    expect(stats.totals.repeatsCaught).toBe(1); // the store's counter, from the same input: one definition
    expect(delta(METRIC_NAMES.repeats)).toBe(stats.totals.repeatsCaught);
    expect(sumOf(after, METRIC_NAMES.pluginErrors)).toBe(0);
    const info = after.find((sample) => sample.name === METRIC_NAMES.info);
    expect(info?.labels).toMatchObject({ version: PLUGIN_VERSION, node_version: process.versions.node });
    expect(info?.labels.instance_name).toBe(`${info?.labels.host}/${info?.labels.profile}`);
    // Every series says which DSH profile counted it (the composition has no profile folder: "default").
    expect(after.length).toBeGreaterThan(5);
    for (const sample of after) expect(sample.labels.profile, sample.name).toBe('default');
  });

  it('serves every series it can know at 0 before the first call, so increase() loses no first value', async () => {
    host = await bootHost({ web: true });
    const before = await samples(host);
    const series = (name: string, where: Record<string, string>) =>
      before.find(
        (sample) => sample.name === name && Object.entries(where).every(([key, value]) => sample.labels[key] === value),
      );
    // The real tool runtime's registered tools, each under its first-call series, already there at 0 or above.
    for (const tool of ['read', 'edit', 'write']) {
      expect(series(METRIC_NAMES.calls, { tool, category: 'ok', outcome: 'passthrough' }), tool).toBeDefined();
      expect(
        series(METRIC_NAMES.calls, { tool, category: 'fs-not-observed', outcome: 'healed-success' }),
      ).toBeDefined();
      expect(series(METRIC_NAMES.savedTokens, { tool })).toBeDefined();
    }
    expect(series(METRIC_NAMES.heals, { rule: 'recover.observe-then-retry', outcome: 'healed-success' })).toBeDefined();
    // Other harnesses' calls in the shared store (none yet in this fresh folder): each known harness x outcome at 0.
    expect(Object.values(HARNESSES)).toContain('mcp');
    for (const harness of Object.values(HARNESSES)) {
      for (const outcome of OUTCOMES) {
        expect(series(METRIC_NAMES.harnessCalls, { harness, outcome })?.value, `${harness} ${outcome}`).toBe(0);
      }
    }
    const unread = host.file('seed-unread.txt', 'beta\n');
    await host.execute('edit', { file_path: unread, old_string: 'beta', new_string: 'B' });
    const after = await samples(host);
    // The healed edit moved a series that was already exposed: every increment is visible as a difference.
    const where = { tool: 'edit', category: 'fs-not-observed', outcome: 'healed-success' };
    expect(sumOf(after, METRIC_NAMES.calls, where) - sumOf(before, METRIC_NAMES.calls, where)).toBe(1);
    expect(sumOf(after, METRIC_NAMES.startTime)).toBeGreaterThan(1_600_000_000);
  });

  it('follows Prometheus conventions: HELP and TYPE for each metric, counters end in _total, no-store', async () => {
    host = await bootHost({ web: true });
    await host.execute('read', { file_path: `${host.dir}/nothing-here` });
    const got = await scrape(host);
    expect(got.type).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      METRIC_NAMES.calls,
      METRIC_NAMES.heals,
      METRIC_NAMES.savedTokens,
      METRIC_NAMES.repeats,
      METRIC_NAMES.pluginErrors,
    ]) {
      expect(got.text).toContain(`# TYPE ${name} counter`);
      expect(got.text).toMatch(new RegExp(`# HELP ${name} \\S`));
      expect(name.endsWith('_total')).toBe(true);
    }
    // The store reports its per-process dropped events, so the plugin exports them (none dropped here).
    expect(got.text).toContain(`# TYPE ${METRIC_NAMES.droppedEvents} counter`);
    expect(sumOf(parseExposition(got.text), METRIC_NAMES.droppedEvents)).toBe(0);
  });

  it('serves OpenMetrics when the scraper asks for it (what Prometheus sends by default)', async () => {
    host = await bootHost({ web: true });
    await host.execute('read', { file_path: `${host.dir}/nothing-here` });
    const got = await scrape(host, {
      accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5',
    });
    expect(got.status).toBe(200);
    expect(got.type).toMatch(/^application\/openmetrics-text/);
    expect(got.text.trimEnd().endsWith('# EOF')).toBe(true);
    expect(got.text).toContain('# TYPE tool_normalizer_calls counter');
    expect(got.text).toMatch(/^tool_normalizer_calls_total\{tool="read"/m);
  });

  it('answers only a Host naming this machine and no cross-site reader; HEAD works, other methods do not', async () => {
    host = await bootHost({ web: true });
    const port = host.ctx.webServer.port;
    expect(await getWithHost(port, 'attacker.example')).toBe(403);
    expect(await getWithHost(port, `127.0.0.1:${port}`)).toBe(200);
    expect(await getWithHost(port, `localhost:${port}`)).toBe(200);
    expect((await scrape(host, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await scrape(host, { origin: 'https://evil.example' })).status).toBe(403);
    const base = `http://127.0.0.1:${port}${METRICS_PATH}`;
    expect((await fetch(base, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(base, { method: 'POST' })).status).toBe(405);
  });

  it('is not served with metrics: false, and goes away when the plugin is disposed', async () => {
    host = await bootHost({ web: true, plugin: { metrics: false } });
    expect((await scrape(host)).status).toBe(404);
    await host.dispose();
    host = await bootHost({ web: true });
    expect((await scrape(host)).status).toBe(200);
    await host.pluginFiber?.dispose();
    expect((await scrape(host)).status).toBe(404);
  });

  it('keeps counting across a plugin reload without double counting', async () => {
    host = await bootHost({ web: true });
    const missing = `${host.dir}/nothing-here`;
    await host.execute('read', { file_path: missing });
    const first = sumOf(await samples(host), METRIC_NAMES.calls);
    await host.pluginFiber?.dispose();
    const reloaded = await host.ctx.plugin(plugin, { logDir: host.logDir });
    try {
      const afterReload = sumOf(await samples(host), METRIC_NAMES.calls);
      expect(afterReload).toBe(first); // nothing lost, nothing re-added from the store's totals
      await host.execute('read', { file_path: missing });
      expect(sumOf(await samples(host), METRIC_NAMES.calls)).toBe(first + 1); // one listener counts it once
    } finally {
      await reloaded.dispose();
    }
  });

  it('does not leak OTLP header values or URL credentials through the stats route', async () => {
    host = await bootHost({
      web: true,
      plugin: {
        otlpEndpoint: 'http://user:hunter2pass@127.0.0.1:9/v1/metrics',
        otlpHeaders: { authorization: 'Bearer sk-live-0123456789abcdef' },
        otlpIntervalMs: 600_000,
      },
    });
    const text = await (await fetch(`http://127.0.0.1:${host.ctx.webServer.port}${plugin.STATS_PATH}`)).text();
    expect(text).toContain('otlpHeaders');
    expect(text).not.toContain('sk-live-0123456789abcdef');
    expect(text).not.toContain('hunter2pass');
  });
});

describe('FleetCounters', () => {
  const call = (
    tool: string,
    category = 'ok',
    outcome: 'passthrough' | 'healed-success' = 'passthrough',
    extra: object = {},
  ) => ({ tool, category, outcome, ruleIds: [] as string[], tokensSaved: 0, ...extra });

  it('labels only registered tools by name; folds category and model names past their caps into "other"', () => {
    const counters = new FleetCounters();
    counters.registerTools(['tool_0', 'tool_1']);
    for (let i = 0; i < LABEL_CAPS.tool + 50; i += 1)
      counters.count(
        call(`tool_${i}`, `cat_${i % (LABEL_CAPS.category + 20)}`, 'passthrough', { model: `model-${i % 40}` }),
      );
    const rows = [...counters.calls.rows()];
    const tools = new Set(rows.map((row) => row.labels.tool));
    const categories = new Set(rows.map((row) => row.labels.category));
    const models = new Set([...counters.modelCalls.rows()].map((row) => row.labels.model));
    expect(tools).toEqual(new Set(['tool_0', 'tool_1', UNREGISTERED_LABEL]));
    expect(categories.size).toBeLessThanOrEqual(LABEL_CAPS.category + 1);
    expect(categories.has('other')).toBe(true);
    expect(models.size).toBe(LABEL_CAPS.model + 1);
    expect(rows.reduce((sum, row) => sum + row.value, 0)).toBe(LABEL_CAPS.tool + 50);
  });

  it('bounds the number of series and keeps the outcome when folding', () => {
    const counters = new FleetCounters();
    counters.registerTools(Array.from({ length: 150 }, (_, i) => `t${i}`));
    for (let i = 0; i < MAX_SERIES + 500; i += 1)
      counters.count(
        call(`t${i % 150}`, `c${Math.floor(i / 150) % 90}`, i % 2 === 0 ? 'passthrough' : 'healed-success'),
      );
    expect(counters.calls.size).toBeLessThanOrEqual(MAX_SERIES + 2);
    const rows = [...counters.calls.rows()];
    expect(rows.reduce((sum, row) => sum + row.value, 0)).toBe(MAX_SERIES + 500);
    expect(rows.some((row) => row.labels.tool === 'other' && row.labels.outcome === 'healed-success')).toBe(true);
  });

  it('no invented name, secret or path ever becomes a tool label; registered tools always keep theirs', () => {
    const counters = new FleetCounters();
    counters.registerTools(['read', 'edit', 'etc/passwd', 'sk-abcdefghijklmnopqrstuvwxyz0123456789']);
    for (let i = 0; i < LABEL_CAPS.tool * 3; i += 1) counters.count(call(`invented_${i}`));
    for (const name of ['home/alice/.ssh/id_rsa', '.env', '~/.aws/credentials', 'etc/passwd'])
      counters.count(call(name));
    counters.count(call('sk-abcdefghijklmnopqrstuvwxyz0123456789'));
    counters.count(call('read'));
    const tools = new Map<string, number>();
    for (const row of counters.calls.rows()) tools.set(row.labels.tool, (tools.get(row.labels.tool) ?? 0) + row.value);
    expect(tools).toEqual(
      new Map([
        [UNREGISTERED_LABEL, LABEL_CAPS.tool * 3 + 5],
        ['read', 1],
      ]),
    );
  });

  it('seeds every registered tool x category x possible outcome and every healing rule x healed outcome at 0', () => {
    const counters = new FleetCounters();
    counters.registerTools(['read', 'run_code']);
    counters.registerModels(['deepseek-v4-flash']);
    const seeds = counters.seedRows();
    expect(seeds.calls).toContainEqual({ tool: 'read', category: 'ok', outcome: 'passthrough' });
    expect(seeds.calls).toContainEqual({ tool: 'run_code', category: 'code-syntax', outcome: 'healed-success' });
    expect(seeds.calls).toContainEqual({ tool: 'read', category: 'other', outcome: 'passthrough-failed' });
    expect(seeds.calls).toContainEqual({
      tool: UNREGISTERED_LABEL,
      category: 'unknown-tool',
      outcome: 'healed-success',
    });
    expect(seeds.calls).not.toContainEqual({ tool: 'read', category: 'other', outcome: 'healed-success' });
    expect(new Set(seeds.calls.map((row) => row.tool))).toEqual(new Set(['read', 'run_code', UNREGISTERED_LABEL]));
    expect(seeds.heals).toContainEqual({ rule: 'recover.observe-then-retry', outcome: 'healed-failed' });
    expect(seeds.heals.some((row) => row.rule.startsWith('hint.'))).toBe(false);
    expect(seeds.modelCalls).toHaveLength(4);
    expect(seeds.modelSavedTokens).toEqual([{ model: 'deepseek-v4-flash' }]);
  });

  it("serves the store's harness calls over every known harness x outcome at 0, each counted row once", () => {
    const zeros = harnessSeries(undefined);
    expect(zeros.map((row) => row.labels)).toEqual(OUTCOMES.map((outcome) => ({ harness: 'mcp', outcome })));
    expect(zeros.every((row) => row.value === 0)).toBe(true);
    const counted = harnessSeries(() => [
      { harness: 'mcp', outcome: 'healed-success', calls: 3 },
      { harness: 'lab-proxy', outcome: 'passthrough', calls: 2 }, // a harness the list does not name: still served
    ]);
    const value = (harness: string, outcome: string) =>
      counted.find((row) => row.labels.harness === harness && row.labels.outcome === outcome)?.value;
    expect(value('mcp', 'healed-success')).toBe(3);
    expect(value('mcp', 'passthrough')).toBe(0);
    expect(value('lab-proxy', 'passthrough')).toBe(2);
    expect(counted).toHaveLength(OUTCOMES.length + 1);
  });

  it("keeps the last reading while the store cannot be read, and a readable empty store's 0", () => {
    const answers: (HarnessCalls[] | undefined)[] = [
      [{ harness: 'mcp', outcome: 'healed-success', calls: 2 }],
      undefined, // the file is held by another process: not "no calls"
      [], // cleared: a real 0
    ];
    const read = lastReadableHarnessCalls(() => answers.shift());
    expect(read()).toEqual([{ harness: 'mcp', outcome: 'healed-success', calls: 2 }]);
    expect(read()).toEqual([{ harness: 'mcp', outcome: 'healed-success', calls: 2 }]);
    expect(read()).toEqual([]);
  });

  it('redacts secrets in names and ignores inputs the store would reject', () => {
    const counters = new FleetCounters();
    counters.count(call('sk-abcdefghijklmnopqrstuvwxyz0123456789'));
    counters.count({ tool: 'read', category: 'ok', outcome: 'nonsense', ruleIds: [] } as never);
    counters.count({ tool: 42 } as never);
    const rows = [...counters.calls.rows()];
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain('abcdefghijklmnop');
  });

  it('shows a name only the secret scan would catch, or any name that is not identifier-like, as "redacted"', () => {
    const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const random = (n: number) =>
      Array.from({ length: n }, () => alnum[Math.floor(Math.random() * alnum.length)]).join('');
    const sendgrid = `SG.${random(22)}.${random(43)}`;
    const linear = `lin_api_${random(40)}`;
    const counters = new FleetCounters();
    counters.count(call(`SENDGRID=${sendgrid}`, 'fs-not-found'));
    counters.count(call(linear, 'fs-not-found'));
    counters.count(call('ghp_' + random(36), 'fs-not-found'));
    counters.count(call('read the file at /tmp', 'fs-not-found'));
    counters.registerTools(['mcp__github__create_pull_request']);
    counters.count(call('mcp__github__create_pull_request', 'fs-not-found'));
    const text = JSON.stringify([...counters.calls.rows()]);
    for (const secret of [sendgrid.slice(3, 25), linear.slice(8, 30)]) expect(text).not.toContain(secret);
    const tools = new Set([...counters.calls.rows()].map((row) => row.labels.tool));
    expect(tools).toEqual(new Set([UNREGISTERED_LABEL, 'mcp__github__create_pull_request']));
    counters.count(call('read', `SENDGRID=${sendgrid}`));
    const categories = new Set([...counters.calls.rows()].map((row) => row.labels.category));
    expect(categories).toEqual(new Set(['fs-not-found', 'redacted']));
  });

  it('counts each rule once per call, heals only for healed outcomes, repeats by tool', () => {
    const counters = new FleetCounters();
    counters.registerTools(['read', 'edit']);
    counters.count(
      call('edit', 'fs-not-observed', 'healed-success', {
        ruleIds: ['recover.observe-then-retry', 'recover.observe-then-retry'],
        tokensSaved: 120,
      }),
    );
    counters.count(
      call('read', 'fs-not-found', 'passthrough', {
        outcome: 'passthrough-failed',
        ruleIds: ['hint.repeat-failure'],
        repeat: 2,
      }),
    );
    // a healed-failed repeat: the loop hint is not a heal rule
    counters.count(
      call('edit', 'fs-edit-anchor', 'passthrough', {
        outcome: 'healed-failed',
        ruleIds: ['args.rename-alias', 'hint.repeat-failure'],
        repeat: 3,
      }),
    );
    // the rule id alone (no repeat number) is not a repeat caught: the store would not count it either
    counters.count(
      call('read', 'fs-not-found', 'passthrough', { outcome: 'passthrough-failed', ruleIds: ['hint.repeat-failure'] }),
    );
    expect([...counters.heals.rows()]).toEqual([
      { labels: { rule: 'recover.observe-then-retry', outcome: 'healed-success' }, value: 1 },
      { labels: { rule: 'args.rename-alias', outcome: 'healed-failed' }, value: 1 },
    ]);
    expect([...counters.repeats.rows()]).toEqual([
      { labels: { tool: 'read' }, value: 1 },
      { labels: { tool: 'edit' }, value: 1 },
    ]);
    expect([...counters.savedTokens.rows()]).toEqual([{ labels: { tool: 'edit' }, value: 120 }]);
    expect([...counters.modelSavedTokens.rows()]).toEqual([{ labels: { model: 'unknown' }, value: 120 }]);
  });

  it('keeps what a disposed activation counted (plugin errors) and reads live ones', () => {
    const counters = new FleetCounters();
    let live = 3;
    const detach = counters.pluginErrors.attach(() => live);
    expect(counters.pluginErrors.value).toBe(3);
    live = 4;
    detach();
    detach();
    live = 100; // no longer read
    counters.pluginErrors.attach(() => 2);
    expect(counters.pluginErrors.value).toBe(6);
  });

  it('is one object per process, also for a re-imported copy of the module (what a hot reload loads)', async () => {
    // A query makes vitest load a second instance; as a variable, the specifier is not a file TypeScript must find.
    const reloaded = '../src/metrics.ts?reloaded-copy';
    const copy = (await import(reloaded)) as typeof import('../src/metrics.js');
    expect(copy.FleetCounters).not.toBe(FleetCounters); // really a second module instance
    expect(copy.processFleetCounters()).toBe(processFleetCounters());
  });

  it('hides OTLP header values and URL credentials from the displayed config', () => {
    const shown = configForDisplay({
      otlpEndpoint: 'https://u:secretpw@example.com/v1/metrics',
      otlpHeaders: { 'x-api-key': 'abc123def456' },
    });
    expect(JSON.stringify(shown)).not.toContain('abc123def456');
    expect(JSON.stringify(shown)).not.toContain('secretpw');
    expect(Object.keys(shown.otlpHeaders)).toEqual(['x-api-key']);
  });

  it('PLUGIN_VERSION is the published package version', () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../dsh-tool-normalizer/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(PLUGIN_VERSION).toBe(manifest.version);
  });
});

describe('dropped events', () => {
  it('a real store whose queue overflows: the endpoint serves its per-process drops, kept after the store closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tn-metrics-dropped-'));
    const counters = new FleetCounters();
    const store = meterStore(
      counters,
      createTelemetryStore({ dir, maxQueuedEvents: 3, flushIntervalMs: 60_000, warn: () => undefined }),
    );
    const handler = createMetricsHandler(
      {
        counters,
        identity: processIdentity(),
        hasDroppedEvents: () => storeCountsDroppedEvents(store),
      },
      createRouteGuard({ allowedHosts: [] }),
    );
    const server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const droppedNow = async () => {
      const response = await fetch(`http://127.0.0.1:${port}${METRICS_PATH}`);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expect(text).toContain(`# TYPE ${METRIC_NAMES.droppedEvents} counter`);
      return sumOf(parseExposition(text), METRIC_NAMES.droppedEvents);
    };
    try {
      expect(await droppedNow()).toBe(0);
      for (let i = 0; i < 10; i += 1)
        store.record({
          tool: 'read',
          category: 'fs-not-found',
          outcome: 'passthrough-failed',
          ruleIds: [],
          error: `missing ${i}`,
        });
      expect(await droppedNow()).toBe(7); // 10 queued into a ring of 3, before any flush
      await store.flush();
      const stats = store.stats();
      expect(stats.totals.calls).toBe(10); // dropped events are still counted calls
      expect(stats.storage.dropped).toBe(7);
      await store.clear(); // the shared count goes to 0; the process counter must not go down
      expect(await droppedNow()).toBe(7);
      await store.close(); // retired: the activation's drops stay in the process total
      expect(await droppedNow()).toBe(7);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
