/**
 * Per-profile receipts: two DSH profiles sharing one directory each see their own numbers and events by default,
 * any profile or all of them on request; a layout-1 database is migrated with its rows under `default`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_PROFILES, DATABASE_FILE_NAME, statsQueryFromSearchParams } from '../src/index.js';
import { eventsQueryFromSearchParams } from '../src/feed.js';
import { loadSqlite } from '../src/sqlite.js';
import { flushedStats, healed, openStore, tempDir } from './helpers.js';

describe('two profiles in one directory', () => {
  it("stats and events show the store's own profile, another one, or every profile", async () => {
    const dir = tempDir();
    const web = openStore({ dir, profile: 'web' }).store;
    const headless = openStore({ dir, profile: 'headless' }).store;
    for (let i = 0; i < 3; i += 1) web.record(healed('edit', { repeat: 2 }));
    for (let i = 0; i < 5; i += 1) headless.record(healed('bash'));
    headless.record({ tool: 'bash', category: 'ok', outcome: 'passthrough', ruleIds: [] });
    await web.flush();
    await headless.flush();

    const own = web.stats();
    expect(own.profile).toBe('web');
    expect(own.totals.calls).toBe(3);
    expect(own.totals.repeatsCaught).toBe(3);
    expect(own.tools.map((row) => row.name)).toEqual(['edit']);
    expect(own.recent.every((event) => event.profile === 'web')).toBe(true);
    expect(own.storage.storedEvents).toBe(3);
    expect(own.profiles).toEqual(['headless', 'web']);

    const other = web.stats({ profile: 'headless' });
    expect(other.totals.calls).toBe(6);
    expect(other.storage.storedEvents).toBe(5);

    const all = headless.stats({ profile: ALL_PROFILES });
    expect(all.totals.calls).toBe(9);
    expect(all.totals.repeatsCaught).toBe(3);
    expect(all.storage.storedEvents).toBe(8);
    expect(all.tools.map((row) => [row.name, row.calls])).toEqual([
      ['bash', 6],
      ['edit', 3],
    ]);

    expect((await web.queryEvents({})).total).toBe(3);
    expect((await web.queryEvents({ profile: 'headless', tool: 'bash' })).total).toBe(5);
    expect((await web.queryEvents({ profile: '*' })).total).toBe(8);
    expect((await web.queryEvents({ profile: '*', text: 'edit' })).events.map((e) => e.profile)).toEqual([
      'web',
      'web',
      'web',
    ]);
    expect((await web.queryEvents({ profile: 'nobody' })).total).toBe(0);
    await web.close();
    await headless.close();
  });

  it("reads the profile search parameter: a name, `all` or `*` for every profile, empty for the store's own", () => {
    const parse = (search: string) => eventsQueryFromSearchParams(new URLSearchParams(search)).profile;
    expect(parse('profile=web')).toBe('web');
    expect(parse('profile=all')).toBe('*');
    expect(parse('profile=*')).toBe('*');
    expect(parse('profile=')).toBeUndefined();
    expect(parse('')).toBeUndefined();
    expect(statsQueryFromSearchParams(new URLSearchParams('profile=all&limit=5'))).toEqual({ profile: '*', limit: 5 });
  });

  it('refuses a profile option that is not a name', () => {
    for (const profile of ['', '*', 'a\u0000b', 'x'.repeat(129)]) {
      expect(() => openStore({ dir: tempDir(), profile })).toThrow(TypeError);
    }
  });

  it('clear() erases every profile', async () => {
    const dir = tempDir();
    const web = openStore({ dir, profile: 'web' }).store;
    const cli = openStore({ dir, profile: 'cli' }).store;
    web.record(healed('edit'));
    cli.record(healed('bash'));
    await web.flush();
    await cli.flush();
    expect(await web.clear()).toBe(true);
    expect(web.stats({ profile: '*' }).totals.calls).toBe(0);
    expect(cli.stats().totals.calls).toBe(0);
    await web.close();
    await cli.close();
  });
});

/** The layout-1 tables as release 140a377 created them. */
const LAYOUT_1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, tool TEXT NOT NULL, category TEXT NOT NULL,
  outcome TEXT NOT NULL, bytes INTEGER NOT NULL, search TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX events_at ON events(at);
CREATE TABLE counters (kind TEXT NOT NULL, name TEXT NOT NULL, calls INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0, healed_success INTEGER NOT NULL DEFAULT 0, healed_failed INTEGER NOT NULL DEFAULT 0,
  pass_through INTEGER NOT NULL DEFAULT 0, pass_through_failed INTEGER NOT NULL DEFAULT 0, tokens_saved REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, name)) WITHOUT ROWID;
PRAGMA application_id = ${0x544e6f72};
PRAGMA user_version = 1;
`;

describe('a layout-1 database', () => {
  it('is migrated on open: its events and counters become profile `default`, nothing is lost', async () => {
    const dir = tempDir();
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
    db.exec(LAYOUT_1);
    const event = (i: number) =>
      JSON.stringify({
        v: 1,
        id: `old-${i}`,
        at: 1000 + i,
        tool: 'edit',
        category: 'C',
        outcome: 'healed-success',
        ruleIds: [],
        changes: [],
        tokensSaved: 1,
      });
    for (let i = 0; i < 4; i += 1) {
      db.prepare(
        'INSERT INTO events (at, tool, category, outcome, bytes, search, json) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(1000 + i, 'edit', 'C', 'healed-success', 10, 'edit\nc\nhealed-success', event(i));
    }
    db.exec(`INSERT INTO counters VALUES ('total', '', 7, 2, 4, 1, 1, 1, 4);
      INSERT INTO counters VALUES ('tool', 'edit', 7, 2, 4, 1, 1, 1, 4);
      INSERT INTO counters VALUES ('category', 'C', 7, 2, 4, 1, 1, 1, 4);
      INSERT INTO meta VALUES ('since', 500), ('repeats_caught', 2), ('dropped', 3), ('pruned', 1), ('event_rows', 4), ('folded_tools', 0);`);
    db.close();

    const { store, warnings } = openStore({ dir });
    const stats = await flushedStats(store);
    expect(warnings).toEqual([]);
    expect(stats.totals).toMatchObject({ calls: 7, healedSuccess: 4, healedFailed: 1, repeatsCaught: 2 });
    expect(stats.storage).toMatchObject({ dropped: 3, prunedEvents: 1, storedEvents: 4, logging: true });
    expect(stats.since).toBe(500);
    expect((await store.queryEvents({ tool: 'edit' })).events.map((e) => e.id)).toEqual([
      'old-3',
      'old-2',
      'old-1',
      'old-0',
    ]);
    store.record(healed('edit'));
    expect((await flushedStats(store)).totals.calls).toBe(8);
    expect(store.stats({ profile: 'other' }).totals.calls).toBe(0);
    await store.close();
    const check = new DatabaseSync(join(dir, DATABASE_FILE_NAME), { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()?.['user_version']).toBe(2);
    expect(check.prepare("SELECT count(*) AS n FROM events WHERE profile = 'default'").get()?.['n']).toBe(5);
    check.close();
  });
});
