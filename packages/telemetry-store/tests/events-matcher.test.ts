/**
 * One promise, every implementation: the events a query selects are exactly those the feed contract's in-memory
 * matcher (`eventMatches`) selects. Table-driven over the store's SQL with the full-text index (when this Node's
 * SQLite has FTS5), the same SQL with the index switched off (the plain `instr` scan of Node 22.15) and the stats
 * payload's in-memory filter, on one set of real stored events in a real database file.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_PROFILES, MAX_EVENTS_LIMIT, eventMatches, type EventsQuery } from '../src/feed.js';
import { DATABASE_FILE_NAME, type TelemetryEvent, type TelemetryEventInput } from '../src/index.js';
import { TelemetryDatabase } from '../src/database.js';
import { openStore, tempDir } from './helpers.js';

const T0 = 1_700_000_000_000;

/** Events chosen so that every filter both keeps and drops some, and texts sit at the edges of fields. */
function inputs(): TelemetryEventInput[] {
  const list: TelemetryEventInput[] = [];
  const tools = ['bash', 'edit', 'Bash', 'write_file'];
  const outcomes = ['healed-success', 'healed-failed', 'passthrough', 'passthrough-failed'] as const;
  for (let i = 0; i < 48; i += 1) {
    list.push({
      tool: tools[i % tools.length] as string,
      category: i % 3 ? 'FS_NOT_OBSERVED' : 'SHELL',
      outcome: outcomes[i % outcomes.length] as (typeof outcomes)[number],
      ruleIds: i % 5 === 0 ? ['r-a', 'r-b'] : i % 5 === 1 ? ['r-a-x'] : [],
      changes: i % 4 === 0 ? ['filled description', 'Naïve Ünïcode'] : [],
      error: i % 6 === 0 ? `exit ${i % 7} "quoted" (AND) OR *` : undefined,
      before: i % 2 ? { command: `echo needle-${i}` } : undefined,
      model: i % 8 === 0 ? 'deepseek-chat' : undefined,
      at: T0 + i * 1000,
    });
  }
  return list;
}

const QUERIES: [string, EventsQuery][] = [
  ['no filter', {}],
  ['tool, exact and case-sensitive', { tool: 'bash' }],
  ['category', { category: 'SHELL' }],
  ['outcome', { outcome: 'healed-failed' }],
  ['rule: whole ids only', { rule: 'r-a' }],
  ['rule that no event names', { rule: 'r' }],
  ['time range, from inclusive and to exclusive', { from: T0 + 10_000, to: T0 + 20_000 }],
  ['text shorter than the index reads', { text: 'ne' }],
  ['text, any case', { text: 'NEEDLE-1' }],
  ['text in a rule id', { text: 'r-a-x' }],
  ['text spanning two rule ids matches neither', { text: 'r-a r-b' }],
  ['text spanning two fields matches neither', { text: 'shell' + 'healed' }],
  ['text with quotes and FTS operators', { text: '"quoted" (and) or *' }],
  ['text in a change, non-ASCII, other case', { text: 'naÏve ü' }],
  ['text in the model', { text: 'deepseek' }],
  ['text in the outcome name', { text: 'through-fail' }],
  ['text with nothing to find', { text: 'no such text' }],
  ['every filter at once', { tool: 'edit', category: 'FS_NOT_OBSERVED', text: 'needle', from: T0 + 1 }],
  ['profile: the other process', { profile: 'work' }],
  ['profile: every profile', { profile: ALL_PROFILES, text: 'needle' }],
  ['profile that holds nothing', { profile: 'nobody' }],
];

const ids = (events: readonly TelemetryEvent[]) => events.map((event) => event.id);

describe('every implementation of the events query selects what eventMatches selects', async () => {
  const dir = tempDir();
  const own = openStore({ dir, persistPassthrough: true }).store;
  const work = openStore({ dir, profile: 'work', persistPassthrough: true }).store;
  for (const [i, input] of inputs().entries()) (i % 3 === 2 ? work : own).record(input);
  await Promise.all([own.flush(), work.flush()]);
  const all = (await own.queryEvents({ profile: ALL_PROFILES, limit: MAX_EVENTS_LIMIT })).events;
  const scan = new TelemetryDatabase(join(dir, DATABASE_FILE_NAME), { busyTimeoutMs: 1000, now: 0 });
  scan.fullText = false;

  /** The matcher's answer, with the store's reading of an absent profile (its own, `default`). */
  const expected = (query: EventsQuery) =>
    ids(all.filter((event) => eventMatches(event, { profile: 'default', ...query })));

  const implementations: [string, (query: EventsQuery) => Promise<string[]>][] = [
    [
      'the store (SQL, full-text index when present)',
      async (q) => ids((await own.queryEvents({ ...q, limit: 200 })).events),
    ],
    [
      'the SQL scan without the index',
      async (q) => {
        const profile = q.profile ?? 'default';
        const filter = { ...q, profile: profile === ALL_PROFILES ? undefined : profile };
        return ids(scan.queryEvents(filter, 0, 200).events);
      },
    ],
    [
      "the stats payload's recent events",
      async (q) => {
        if (q.rule !== undefined || q.from !== undefined || q.to !== undefined) return expected(q); // not stats filters
        const { rule: _r, from: _f, to: _t, offset: _o, limit: _l, ...stats } = q;
        return ids(own.stats({ ...stats, limit: 1000 }).recent);
      },
    ],
  ];

  it('stores events in both profiles for the table to tell apart', () => {
    expect(all).toHaveLength(48);
    expect(new Set(all.map((event) => event.outcome)).size).toBe(4);
    expect(new Set(all.map((event) => event.profile ?? 'default'))).toEqual(new Set(['default', 'work']));
  });

  for (const [name, run] of implementations) {
    it.each(QUERIES)(`${name}: %s`, async (_label, query) => {
      const want = expected(query);
      expect(await run(query)).toEqual(want);
    });
  }

  it('each query of the table keeps some events and drops others, or is there to select none or all', () => {
    const sizes = QUERIES.map(([label, query]) => [label, expected(query).length] as const);
    const ownCount = all.filter((event) => (event.profile ?? 'default') === 'default').length;
    for (const [label, size] of sizes) {
      if (/nothing|no event|neither|holds nothing/.test(label)) expect(size, label).toBe(0);
      else if (label === 'no filter') expect(size).toBe(ownCount);
      else expect(size, label).toBeGreaterThan(0);
    }
  });
});
