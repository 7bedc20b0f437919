/**
 * The SQLite-backed store in one process: what it counts and serves, retention, the bounded queue, the events
 * query, clear, and the files it falls back from (corrupt, foreign, unwritable). Real files in a temp directory.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, StatsQueryError } from '../src/index.js';
import { eventsPageValidator, statsPayloadValidator } from '../src/query.js';
import { flushedStats, healed, logEvents, openStore, tempDir } from './helpers.js';

describe('counting and serving', () => {
  it('stores heals and failures as events, counts untouched successes without storing them', async () => {
    const dir = tempDir();
    const { store } = openStore({ dir });
    store.record(healed('edit'));
    store.record({ tool: 'bash', category: 'SHELL_EXIT', outcome: 'healed-failed', ruleIds: ['x'], error: 'exit 2' });
    store.record({ tool: 'bash', category: 'ok', outcome: 'passthrough', ruleIds: [] });
    const stats = await flushedStats(store);
    expect(statsPayloadValidator.Check(stats)).toBe(true);
    expect(stats.totals).toEqual({
      calls: 3,
      healedSuccess: 1,
      healedFailed: 1,
      passThrough: 1,
      passThroughFailed: 0,
      tokensSaved: 100,
      repeatsCaught: 0,
    });
    expect(stats.recent.map((event) => event.tool)).toEqual(['bash', 'edit']);
    expect(stats.storage).toMatchObject({ logging: true, storedEvents: 2, dropped: 0 });
    expect(logEvents(store.logPath).map((event) => event.tool)).toEqual(['edit', 'bash']);
    expect(existsSync(join(dir, DATABASE_FILE_NAME))).toBe(true);
    await store.close();
  });

  it('a second store on the same directory (a fresh boot) reports exactly what was committed', async () => {
    const dir = tempDir();
    const first = openStore({ dir }).store;
    for (let i = 0; i < 25; i += 1) first.record(healed(i % 2 ? 'edit' : 'write'));
    await first.close();
    const second = openStore({ dir }).store;
    const stats = await flushedStats(second);
    expect(stats.totals.calls).toBe(25);
    expect(stats.tools.map((row) => [row.name, row.calls])).toEqual(
      expect.arrayContaining([
        ['write', 13],
        ['edit', 12],
      ]),
    );
    await second.close();
  });

  it('ignores bad input without throwing, counts it and warns once', async () => {
    const { store, warnings } = openStore({ dir: tempDir() });
    store.record(null as never);
    store.record({ tool: 1 } as never);
    expect(warnings).toHaveLength(1);
    expect((await flushedStats(store)).storage.rejectedInputs).toBe(2);
    await store.close();
  });

  it('rejects a bad stats or events query with a StatsQueryError', async () => {
    const { store } = openStore({ dir: tempDir() });
    expect(() => store.stats({ limit: -1 } as never)).toThrow(StatsQueryError);
    await expect(store.queryEvents({ offset: 'x' } as never)).rejects.toBeInstanceOf(StatsQueryError);
    await store.close();
  });

  it.each([
    { maxStoredEvents: 0 },
    { maxStoredBytes: 10 },
    { maxQueuedEvents: 1.5 },
    { recentCapacity: 0 },
    { maxTools: '10' },
  ])('refuses the option %j with a clear error', (options) => {
    expect(() => openStore({ dir: tempDir(), ...(options as object) })).toThrow(TypeError);
  });

  it('folds tool names past the cap into "other", keeping totals exact', async () => {
    const { store } = openStore({ dir: tempDir(), maxTools: 3 });
    for (let i = 0; i < 10; i += 1) store.record(healed(`tool${i}`));
    const stats = await flushedStats(store);
    expect(stats.totals.calls).toBe(10);
    expect(stats.tools.map((row) => row.name).sort()).toEqual(['other', 'tool0', 'tool1', 'tool2']);
    expect(stats.storage.foldedToolCalls).toBe(7);
    await store.close();
  });

  it('names a long tool the same in its event and its table row (redacted first, then cut)', async () => {
    const { store } = openStore({ dir: tempDir() });
    const name = `mcp__server__${'a'.repeat(100)}`;
    store.record(healed(name));
    const stats = await flushedStats(store);
    const row = stats.tools[0]?.name as string;
    expect(row.length).toBeLessThanOrEqual(67);
    expect(stats.recent[0]?.tool).toBe(row);
    expect((await flushedStats(store, { tool: row })).recent).toHaveLength(1);
    await store.close();
  });
});

describe('events query', () => {
  it('filters by tool, category, outcome, text and time, pages newest first and counts every match', async () => {
    let now = 1000;
    const { store } = openStore({ dir: tempDir(), now: () => now });
    for (let i = 0; i < 30; i += 1) {
      now += 10;
      store.record({
        tool: i % 3 === 0 ? 'bash' : 'edit',
        category: 'C',
        outcome: i % 2 ? 'healed-failed' : 'healed-success',
        ruleIds: ['r'],
        error: i === 7 ? 'Needle here' : 'x',
      });
    }
    const all = await store.queryEvents({ limit: 10 });
    expect(eventsPageValidator.Check(all)).toBe(true);
    expect(all.total).toBe(30);
    expect(all.events[0]?.at).toBe(1300);
    const page2 = await store.queryEvents({ limit: 10, offset: 10 });
    expect(page2.events[0]?.at).toBe(1200);
    expect((await store.queryEvents({ tool: 'bash' })).total).toBe(10);
    expect((await store.queryEvents({ tool: 'bash', outcome: 'healed-failed' })).total).toBe(5);
    expect((await store.queryEvents({ text: 'needle' })).events.map((event) => event.at)).toEqual([1080]);
    expect((await store.queryEvents({ from: 1100, to: 1200 })).total).toBe(10);
    await store.close();
  });
});

describe('retention and the queue', () => {
  it('deletes the oldest rows past maxStoredEvents and never touches the counters', async () => {
    const { store } = openStore({ dir: tempDir(), maxStoredEvents: 50 });
    for (let i = 0; i < 200; i += 1) {
      store.record(healed('edit', { callId: `c${i}` }));
      if (i % 20 === 19) await store.flush();
    }
    const stats = await flushedStats(store);
    expect(stats.totals.calls).toBe(200);
    expect(stats.storage.storedEvents).toBeLessThanOrEqual(50);
    expect(stats.storage.prunedEvents).toBe(200 - stats.storage.storedEvents);
    expect(stats.recent[0]?.callId).toBe('c199');
    expect((await store.queryEvents()).total).toBe(stats.storage.storedEvents);
    await store.close();
  });

  it('drops the oldest queued events past maxQueuedEvents, counts them as dropped, and still counts their calls', async () => {
    const { store } = openStore({ dir: tempDir(), maxQueuedEvents: 10 });
    for (let i = 0; i < 25; i += 1) store.record(healed('edit', { callId: `c${i}` }));
    const stats = await flushedStats(store);
    expect(stats.totals.calls).toBe(25);
    expect(stats.storage.dropped).toBe(15);
    expect(stats.storage.storedEvents).toBe(10);
    expect(stats.recent.at(-1)?.callId).toBe('c15');
    await store.close();
  });

  it('reports its own dropped events as droppedEvents: per store instance, not reset by a flush or a clear', async () => {
    const dir = tempDir();
    const first = openStore({ dir, maxQueuedEvents: 4 }).store;
    expect(first.droppedEvents).toBe(0);
    for (let i = 0; i < 10; i += 1) first.record(healed('edit', { callId: `a${i}` }));
    expect(first.droppedEvents).toBe(6); // synchronously, on the caller's path
    for (let i = 0; i < 3; i += 1) first.record({ tool: 'bash', category: 'ok', outcome: 'passthrough', ruleIds: [] }); // never queued
    expect(first.droppedEvents).toBe(6);
    await first.flush();
    const second = openStore({ dir, maxQueuedEvents: 2 }).store;
    for (let i = 0; i < 5; i += 1) second.record(healed('edit', { callId: `b${i}` }));
    expect(second.droppedEvents).toBe(3);
    expect(first.droppedEvents).toBe(6);
    // the stats show the shared total of both instances, kept in the database
    expect((await flushedStats(second)).storage.dropped).toBe(9);
    await first.clear();
    expect(first.droppedEvents).toBe(6); // a counter of this instance's life: a clear does not make it go down
    expect(first.stats().storage.dropped).toBe(0);
    await first.close();
    await second.close();
  });
});

describe('repeats caught', () => {
  const repeatOf = (n: unknown, tool = 'read') =>
    ({
      tool,
      category: 'fs-not-found',
      outcome: 'passthrough-failed',
      ruleIds: ['hint.repeat-failure'],
      repeat: n,
    }) as never;

  it('counts calls whose input says repeat >= 2, keeps the number on the stored event, and nothing else counts', async () => {
    const { store } = openStore({ dir: tempDir() });
    store.record(repeatOf(2));
    store.record(repeatOf(3));
    store.record(repeatOf(7, 'edit'));
    for (const notARepeat of [undefined, 1, 0, 2.5, '3', Number.NaN, Number.POSITIVE_INFINITY])
      store.record(repeatOf(notARepeat));
    store.record({ tool: 'read', category: 'ok', outcome: 'passthrough', ruleIds: [], repeat: 4 }); // counted, not stored
    const stats = await flushedStats(store);
    expect(statsPayloadValidator.Check(stats)).toBe(true);
    expect(stats.totals.calls).toBe(11);
    expect(stats.totals.repeatsCaught).toBe(4);
    const page = await store.queryEvents({ limit: 100 });
    expect(eventsPageValidator.Check(page)).toBe(true);
    expect(
      page.events
        .map((event) => event.repeat)
        .filter((n) => n !== undefined)
        .sort(),
    ).toEqual([2, 3, 7]);
    expect(logEvents(store.logPath).filter((event) => event['repeat'] !== undefined)).toHaveLength(3);
    await store.close();
  });

  it('keeps the count through retention, a fresh boot and a second store on the directory; a clear resets it', async () => {
    const dir = tempDir();
    const first = openStore({ dir, maxStoredEvents: 10 }).store;
    for (let i = 0; i < 60; i += 1) {
      first.record(i % 3 === 0 ? repeatOf(2) : healed('edit'));
      if (i % 10 === 9) await first.flush();
    }
    const pruned = await flushedStats(first);
    expect(pruned.storage.storedEvents).toBeLessThanOrEqual(10);
    expect(pruned.storage.prunedEvents).toBeGreaterThan(0);
    expect(pruned.totals.repeatsCaught).toBe(20); // not derived from the rows retention deleted
    const second = openStore({ dir }).store;
    second.record(repeatOf(5));
    expect((await flushedStats(second)).totals.repeatsCaught).toBe(21);
    expect(first.stats().totals.repeatsCaught).toBe(21); // the first store reads the shared counter
    await first.close();
    await second.close();
    const boot = openStore({ dir }).store;
    expect(boot.stats().totals.repeatsCaught).toBe(21);
    await boot.clear();
    expect(boot.stats().totals.repeatsCaught).toBe(0);
    await boot.close();
  });

  it('counts repeats in memory when the directory cannot hold a database', async () => {
    const parent = tempDir();
    const dir = join(parent, 'a-file');
    writeFileSync(dir, 'not a directory');
    const { store, warnings } = openStore({ dir });
    store.record(repeatOf(2));
    store.record(repeatOf(3));
    const stats = await flushedStats(store);
    expect(stats.storage.logging).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(stats.totals.repeatsCaught).toBe(2);
    await store.close();
  });
});

describe('clear', () => {
  it('removes every event and counter and truncates the journal', async () => {
    const { store } = openStore({ dir: tempDir() });
    for (let i = 0; i < 5; i += 1) store.record(healed());
    await store.flush();
    store.record(healed()); // queued, dropped by the clear
    await store.clear();
    store.record(healed('after'));
    const stats = await flushedStats(store);
    expect(stats.totals.calls).toBe(1);
    expect(stats.recent.map((event) => event.tool)).toEqual(['after']);
    expect(logEvents(store.logPath).map((event) => event.tool)).toEqual(['after']);
    await store.close();
  });

  it('is itself a receipt: when it happened and how many calls of every profile it erased, kept after a restart', async () => {
    const dir = tempDir();
    let now = 1_700_000_000_000;
    const web = openStore({ dir, profile: 'web', now: () => now }).store;
    const cli = openStore({ dir, profile: 'cli', now: () => now }).store;
    for (let i = 0; i < 5; i += 1) web.record(healed());
    for (let i = 0; i < 3; i += 1) cli.record({ tool: 'bash', category: 'ok', outcome: 'passthrough', ruleIds: [] });
    await cli.flush();
    const before = await flushedStats(web);
    expect(before.storage.lastClear).toBeUndefined(); // never cleared
    now += 60_000;
    expect(await web.clear()).toBe(true);
    const after = web.stats();
    expect(statsPayloadValidator.Check(after)).toBe(true);
    expect(after.totals.calls).toBe(0);
    expect(after.storage.lastClear).toEqual({ at: 1_700_000_060_000, erasedCalls: 8 });
    expect(cli.stats().storage.lastClear).toEqual({ at: 1_700_000_060_000, erasedCalls: 8 }); // another store sees it
    web.record(healed('after'));
    await web.close();
    await cli.close();
    // a new store over the same folder (a restart) reports the clear; the calls since are counted as usual
    now += 60_000;
    const { store: restarted } = openStore({ dir, profile: 'other', now: () => now });
    const shown = restarted.stats({ profile: '*' });
    expect(shown.totals.calls).toBe(1);
    expect(shown.storage.lastClear).toEqual({ at: 1_700_000_060_000, erasedCalls: 8 });
    // the next clear replaces the receipt
    expect(await restarted.clear()).toBe(true);
    expect(restarted.stats().storage.lastClear).toEqual({ at: 1_700_000_120_000, erasedCalls: 1 });
    await restarted.close();
  });
});

describe('files the store cannot use', () => {
  it('moves a corrupt database aside, starts a new one and warns once', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, DATABASE_FILE_NAME), 'this is not a database '.repeat(200));
    const { store, warnings } = openStore({ dir });
    store.record(healed());
    expect((await flushedStats(store)).totals.calls).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/corrupt.*moved to/);
    expect(readdirSync(dir).some((name) => name.startsWith(`${DATABASE_FILE_NAME}.corrupt-`))).toBe(true);
    expect(store.logging).toBe(true);
    await store.close();
  });

  it("leaves another application's database untouched and counts in memory", async () => {
    const dir = tempDir();
    const path = join(dir, DATABASE_FILE_NAME);
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as {
      DatabaseSync: new (path: string) => { exec(sql: string): void; close(): void };
    };
    const foreign = new DatabaseSync(path);
    foreign.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    foreign.close();
    const before = readFileSync(path);
    const { store, warnings } = openStore({ dir });
    store.record(healed());
    expect((await flushedStats(store)).totals.calls).toBe(1);
    expect(store.logging).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/another application.*counting continues in memory/);
    await store.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('counts in memory with one warning when the directory is a file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    const { store, warnings } = openStore({ dir: join(dir, 'file', 'sub') });
    for (let i = 0; i < 3; i += 1) store.record(healed());
    expect((await flushedStats(store)).totals.calls).toBe(3);
    expect(warnings).toHaveLength(1);
    expect(store.logging).toBe(false);
    await store.close();
  });

  it('keeps counting with one warning when the journal cannot be written', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'tool-normalizer-events.jsonl')); // a directory where the journal file should be
    const { store, warnings } = openStore({ dir });
    store.record(healed());
    store.record(healed());
    const stats = await flushedStats(store);
    expect(stats.totals.calls).toBe(2);
    expect(stats.storage.storedEvents).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/journal/);
    chmodSync(dir, 0o755);
    await store.close();
  });
});
