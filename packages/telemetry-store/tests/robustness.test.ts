/**
 * Inputs and states that must never break the store: hostile values handed to record(), a broken clock, stats()
 * after close(), a damaged row count, and bad query values (a QueryError the route maps to 400). Real files.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, QueryError, StatsQueryError, statsQueryFromSearchParams } from '../src/index.js';
import { eventsQueryFromSearchParams } from '../src/feed.js';
import { loadSqlite } from '../src/sqlite.js';
import { flushedStats, healed, openStore, tempDir } from './helpers.js';

const throwing = () => {
  throw new Error('hostile');
};

const hostileInputs: [string, () => unknown][] = [
  ['a throwing getter for tool', () => Object.defineProperty({ ...healed() }, 'tool', { get: throwing })],
  [
    'a throwing getter inside the arguments',
    () => healed('edit', { before: Object.defineProperty({}, 'x', { get: throwing, enumerable: true }) }),
  ],
  [
    'a Proxy whose every trap throws',
    () => new Proxy({}, { get: throwing, ownKeys: throwing, has: throwing, getOwnPropertyDescriptor: throwing }),
  ],
  [
    'a Proxy as the arguments',
    () => healed('edit', { before: new Proxy({ a: 1 }, { ownKeys: throwing, get: throwing }) }),
  ],
  ['a rule id whose toString throws', () => healed('edit', { ruleIds: [{ toString: throwing } as never] })],
  ['a change whose toString throws', () => healed('edit', { changes: [{ toString: throwing } as never] })],
  ['an argument whose toJSON throws', () => healed('edit', { before: { toJSON: throwing } })],
  ['a ruleIds Proxy', () => healed('edit', { ruleIds: new Proxy([], { get: throwing }) as never })],
];

describe('record() never throws', () => {
  it.each(hostileInputs)('%s: not thrown, counted as rejected, valid calls still counted', async (_name, make) => {
    const { store, warnings } = openStore({ dir: tempDir() });
    expect(() => store.record(make() as never)).not.toThrow();
    store.record(healed('write'));
    const stats = await flushedStats(store);
    expect(stats.totals.calls).toBeGreaterThanOrEqual(1);
    expect(stats.tools.map((row) => row.name)).toContain('write');
    expect(stats.storage.rejectedInputs + stats.totals.calls).toBeGreaterThanOrEqual(2);
    expect(warnings.length).toBeLessThanOrEqual(1);
    await store.close();
  });

  it('records an argument object of 100k keys (bounded snapshot, well inside 200 ms of CPU)', async () => {
    const { store } = openStore({ dir: tempDir() });
    const wide: Record<string, number> = {};
    for (let i = 0; i < 100_000; i += 1) wide[`k${i}`] = i;
    // CPU time, not wall time: a hang or quadratic-walk detector that a loaded machine does not trip
    const start = process.cpuUsage();
    store.record(healed('edit', { before: wide }));
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(200);
    const page = await store.queryEvents({});
    expect(page.events[0]?.before).toContain('k0');
    await store.close();
  });
});

describe('a broken clock', () => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY, -1])(
    'now() = %s is replaced by Date.now() and the file stays in use',
    async (value) => {
      const { store, warnings } = openStore({ dir: tempDir(), now: () => value });
      store.record(healed('edit'));
      const stats = await flushedStats(store);
      expect(stats.storage.logging).toBe(true);
      expect(stats.storage.memoryOnly).toBe(false);
      expect(Number.isFinite(stats.since)).toBe(true);
      expect(stats.recent[0]?.at).toBeGreaterThan(1_600_000_000_000);
      expect(warnings).toEqual([]);
      await store.close();
    },
  );

  it('a throwing now() is replaced too', async () => {
    const { store } = openStore({ dir: tempDir(), now: throwing });
    store.record(healed('edit'));
    expect((await flushedStats(store)).totals.calls).toBe(1);
    await store.close();
  });
});

describe('stats() after close()', () => {
  it('answers an empty payload that says the store is closed, never throws', async () => {
    const { store } = openStore({ dir: tempDir() });
    store.record(healed('edit'));
    await store.close();
    const stats = store.stats();
    expect(stats.storage.error).toMatch(/closed/);
    expect(stats.totals.calls).toBe(0);
    await expect(store.queryEvents({})).rejects.toThrow(/closed/);
  });
});

describe('a damaged stored-row count', () => {
  it.each([
    ['far too high', 1e12],
    ['negative', -5],
    ['not a number', "'x'"],
  ])('%s: retention recounts the rows instead of deleting every event', async (_name, value) => {
    const dir = tempDir();
    const first = openStore({ dir, maxStoredEvents: 1000 }).store;
    for (let i = 0; i < 20; i += 1) first.record(healed('edit'));
    await first.close();
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
    db.exec(`UPDATE counters SET stored_events = ${value} WHERE kind = 'total'`);
    db.close();
    const { store } = openStore({ dir, maxStoredEvents: 1000 });
    store.record(healed('edit'));
    const stats = await flushedStats(store);
    expect(stats.storage.storedEvents).toBe(21);
    expect(stats.storage.prunedEvents).toBe(0);
    expect((await store.queryEvents({ limit: 100 })).total).toBe(21);
    await store.close();
  });
});

describe('bad query values', () => {
  it.each([
    ['a NUL in text', 'text=a%00b'],
    ['an offset past the maximum', 'offset=100000001'],
    ['a negative limit', 'limit=-1'],
    ['a word as a number', 'from=yesterday'],
    ['an unknown outcome', 'outcome=maybe'],
    ['a control character in the profile', 'profile=a%01b'],
  ])('%s is a QueryError from the parser and from the store', async (_name, search) => {
    expect(() => eventsQueryFromSearchParams(new URLSearchParams(search))).toThrow(QueryError);
    const { store } = openStore({ dir: tempDir() });
    const raw = Object.fromEntries(new URLSearchParams(search));
    const query = Object.fromEntries(
      Object.entries(raw).map(([key, value]) => [key, /^-?\d+$/.test(value) ? Number(value) : value]),
    );
    await expect(store.queryEvents(query as never)).rejects.toBeInstanceOf(QueryError);
    await store.close();
  });

  it('the stats parser refuses them the same way; StatsQueryError is the same class', () => {
    expect(() => statsQueryFromSearchParams(new URLSearchParams('text=%00'))).toThrow(QueryError);
    expect(StatsQueryError).toBe(QueryError);
    expect(new QueryError('x')).toBeInstanceOf(TypeError);
  });
});
