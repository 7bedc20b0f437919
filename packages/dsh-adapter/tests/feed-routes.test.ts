/**
 * The feed contract as the real `@deepseek-ai/dsh-host-webserver` serves it: the stats payload carries the rule
 * catalogue with each rule's on/off state taken from the running config and its firing count, and the effective
 * options; the events route filters on the server and pages through the stored events.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTelemetryStore } from '@dsh-tool-normalizer/telemetry-store';
import { ruleCatalogue } from '@dsh-tool-normalizer/core-rules';
import {
  MAX_EVENTS_LIMIT,
  eventsQueryToSearchParams,
  type EventsPage,
  type EventsQuery,
  type FeedPayload,
} from '@dsh-tool-normalizer/telemetry-store/feed';
import { resolveConfig } from '../src/config.js';
import { RULE_COUNT_WINDOW, createFeedBackend } from '../src/feed-backend.js';
import { LIVE_OPTIONS } from '../src/live-options.js';
import { EVENTS_PATH, STATS_PATH } from '../src/routes.js';
import { bootHost, type Host } from './support/composition.js';

let host: Host | undefined;

afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

async function boot(config: Record<string, unknown>): Promise<string> {
  host = await bootHost({ web: true, plugin: config });
  return `http://127.0.0.1:${host.ctx.webServer.port}`;
}

async function eventsPage(base: string, query: EventsQuery): Promise<EventsPage> {
  const response = await fetch(`${base}${EVENTS_PATH}?${eventsQueryToSearchParams(query)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as EventsPage;
}

describe('stats feed additions', () => {
  it('lists every catalogue rule with its state in the running config, and the effective options', async () => {
    const base = await boot({ autoClampRanges: false, errorHints: false });
    const payload = (await (await fetch(`${base}${STATS_PATH}`)).json()) as FeedPayload;
    expect(payload.rules?.map((rule) => rule.id)).toEqual(ruleCatalogue.map((rule) => rule.id));
    for (const rule of payload.rules ?? []) {
      const off = rule.option === 'autoClampRanges' || rule.option === 'errorHints';
      expect(rule.enabled, rule.id).toBe(!off);
      expect(rule.fired).toBe(0);
    }
    const options = new Map(payload.options?.map((option) => [option.name, option]));
    expect(options.get('autoClampRanges')).toMatchObject({ value: false, defaultValue: true });
    expect(options.get('autoWrapRunCode')).toMatchObject({ value: true, defaultValue: true });
    expect(payload.ruleUsage).toEqual({ counted: 0, complete: true });
    // Every served option value has a shape the dashboard's payload check accepts.
    for (const option of payload.options ?? []) {
      for (const value of [option.value, option.defaultValue]) {
        const ok =
          ['boolean', 'number', 'string'].includes(typeof value) ||
          (Array.isArray(value) && value.every((item) => typeof item === 'string')) ||
          (typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => v === '(hidden)'));
        expect(ok, option.name).toBe(true);
      }
      // One story about what is live: exactly the options the Plugins card edits.
      expect(option.live, option.name).toBe((LIVE_OPTIONS as readonly string[]).includes(option.name));
    }
    expect(options.get('otlpHeaders')).toMatchObject({ value: {}, defaultValue: {} });
  });

  it('never serves the value of a secret-bearing option (header values, URL credentials)', async () => {
    const secret = 'Bearer sk-live-abcdef0123456789abcdef';
    const base = await boot({
      otlpHeaders: { Authorization: secret },
      otlpEndpoint: 'https://user:hunter2pass@collector.example:4318/v1/metrics',
      allowedHosts: ['dsh.lan'],
    });
    const text = await (await fetch(`${base}${STATS_PATH}`)).text();
    expect(text).not.toContain('sk-live-abcdef0123456789abcdef');
    expect(text).not.toContain('hunter2pass');
    const payload = JSON.parse(text) as FeedPayload;
    const options = new Map(payload.options?.map((option) => [option.name, option]));
    expect(options.get('otlpHeaders')?.value).toEqual({ Authorization: '(hidden)' });
    expect(options.get('allowedHosts')?.value).toEqual(['dsh.lan']);
  });

  it('counts how often a rule fired in the stored events', async () => {
    const base = await boot({});
    const path = host!.file('a.txt', 'one\ntwo\n');
    await host!.execute('str_replace_editor', { command: 'view', path, view_range: [1, 99] });
    const payload = (await (await fetch(`${base}${STATS_PATH}`)).json()) as FeedPayload;
    const fired = payload.recent.flatMap((event) => event.ruleIds);
    expect(fired.length).toBeGreaterThan(0);
    for (const id of new Set(fired)) {
      expect(payload.rules?.find((rule) => rule.id === id)?.fired, id).toBe(fired.filter((x) => x === id).length);
    }
  });
});

describe('GET events', () => {
  it('pages through the stored events with filters applied on the server', async () => {
    const base = await boot({});
    for (let index = 0; index < 23; index++)
      await host!.execute('read', { file_path: `${host!.dir}/missing-${index}.txt` });
    await host!.execute('bash', { command: 'exit 3', description: 'fails' });

    const first = await eventsPage(base, { tool: 'read', limit: 10 });
    expect(first).toMatchObject({ v: 1, total: 23, offset: 0, limit: 10, source: 'store' });
    expect(first.events).toHaveLength(10);
    const third = await eventsPage(base, { tool: 'read', limit: 10, offset: 20 });
    expect(third.events).toHaveLength(3);
    const ids = new Set(
      [
        ...first.events,
        ...(await eventsPage(base, { tool: 'read', limit: 10, offset: 10 })).events,
        ...third.events,
      ].map((e) => e.id),
    );
    expect(ids.size).toBe(23);
    // Newest first across pages.
    expect(first.events[0]!.at).toBeGreaterThanOrEqual(third.events[2]!.at);

    const text = await eventsPage(base, { text: 'missing-17' });
    expect(text.total).toBe(1);
    const bash = await eventsPage(base, { tool: 'bash' });
    expect(bash.events.map((e) => e.tool)).toEqual(['bash']);
    const future = await eventsPage(base, { from: Date.now() + 60_000 });
    expect(future.total).toBe(0);
    const all = await eventsPage(base, { to: Date.now() + 60_000, limit: 200 });
    expect(all.total).toBe(24);
  });

  it('refuses a bad query with a message naming the parameter', async () => {
    const base = await boot({});
    const response = await fetch(`${base}${EVENTS_PATH}?limit=5000`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^limit must be between 1 and 200/);
    expect((await fetch(`${base}${EVENTS_PATH}?outcome=nope`)).status).toBe(400);
    expect((await fetch(`${base}${EVENTS_PATH}?from=9&to=3`)).status).toBe(400);
    expect((await fetch(`${base}${EVENTS_PATH}`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base}${EVENTS_PATH}`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });
});

describe('events past the store count cap', () => {
  it('a page says its total is capped, so the pager shows "10,000+" instead of a wrong page count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tn-feed-capped-'));
    const store = createTelemetryStore({ dir, flushIntervalMs: 60_000, maxQueuedEvents: 20_000 });
    try {
      for (let index = 0; index < 10_050; index++) {
        store.record({
          tool: 'read',
          category: 'fs-not-found',
          outcome: 'passthrough-failed',
          ruleIds: [],
          callId: `c${index}`,
        });
      }
      await store.flush();
      const backend = createFeedBackend({
        config: resolveConfig({}),
        store: () => store,
        pluginErrors: () => 0,
        profile: store.profile,
      });
      const page = await backend.events!({ limit: 25 });
      expect(page).toMatchObject({ total: 10_000, totalCapped: true, offset: 0, limit: 25 });
      const exact = await backend.events!({ limit: 25, text: 'c10049' });
      expect(exact.total).toBe(1);
      expect(exact).not.toHaveProperty('totalCapped');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('rule firing counts', () => {
  it(`cover the newest ${RULE_COUNT_WINDOW} stored events, read in pages of the contract's largest page`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tn-feed-rules-'));
    const store = createTelemetryStore({ dir, flushIntervalMs: 60_000, maxQueuedEvents: 5000 });
    try {
      // the oldest 100 name only the error-hints rule; the newest RULE_COUNT_WINDOW alternate two rules
      const total = RULE_COUNT_WINDOW + 100;
      for (let index = 0; index < total; index++) {
        const ruleIds = index < 100 ? ['hint.error-hints'] : [index % 2 ? 'hint.error-hints' : 'args.fill-description'];
        store.record({
          tool: 'read',
          category: 'fs-not-found',
          outcome: 'healed-failed',
          ruleIds,
          callId: `c${index}`,
        });
      }
      await store.flush();
      expect(RULE_COUNT_WINDOW).toBeGreaterThan(MAX_EVENTS_LIMIT);
      const backend = createFeedBackend({
        config: resolveConfig({}),
        store: () => store,
        pluginErrors: () => 0,
        profile: store.profile,
      });
      const payload = await backend.stats({});
      expect(payload.ruleUsage).toEqual({ counted: RULE_COUNT_WINDOW, complete: false });
      const fired = (id: string) => payload.rules?.find((rule) => rule.id === id)?.fired;
      expect(fired('hint.error-hints')).toBe(RULE_COUNT_WINDOW / 2);
      expect(fired('args.fill-description')).toBe(RULE_COUNT_WINDOW / 2);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('options changed while running', () => {
  it('the stats feed shows the value the live settings wrote into the running config, not the value at load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tn-feed-live-'));
    const store = createTelemetryStore({ dir, flushIntervalMs: 60_000 });
    try {
      const config = resolveConfig({});
      const backend = createFeedBackend({ config, store: () => store, pluginErrors: () => 0, profile: store.profile });
      const before = await backend.stats({});
      expect(before.options?.find((option) => option.name === 'errorHints')?.value).toBe(true);
      (config as { errorHints: boolean }).errorHints = false;
      const after = await backend.stats({});
      expect(after.options?.find((option) => option.name === 'errorHints')?.value).toBe(false);
      expect(after.rules?.find((rule) => rule.option === 'errorHints')?.enabled).toBe(false);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
