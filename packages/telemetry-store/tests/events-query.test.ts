/**
 * The events query's text search and totals, with real database files: the full-text index (FTS5 trigram, when
 * this Node's SQLite has it) finds exactly what a plain case-insensitive substring test finds, rows written by a
 * process without FTS5 (Node 22.15) are still found, redacted secrets are never found, totals are capped but paging
 * past the cap still works; and huge argument strings that record() kept by reference are cut and redacted by the
 * writer.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, type TelemetryEvent } from '../src/index.js';
import { MAX_EVENTS_LIMIT, eventMatches } from '../src/feed.js';
import { eventsPageValidator } from '../src/query.js';
import { FTS_MIN_CHARS, TelemetryDatabase } from '../src/database.js';
import { openStore, tempDir } from './helpers.js';

const WORDS = [
  'Needle',
  'needle-point',
  'NEEDLES',
  'haystack',
  'exit 2',
  'say "hi" (AND) OR * NEAR',
  'naïve Ünïcode',
  'x',
];

/** What a text filter must return: the feed contract's matcher applied to every stored event, newest first. */
function expectedMatches(events: TelemetryEvent[], text: string): string[] {
  return events.filter((event) => eventMatches(event, { text })).map((event) => event.id);
}

const ids = (events: TelemetryEvent[]) => events.map((event) => event.id);

describe('text search', () => {
  it('matches a case-insensitive substring of the visible fields, with or without the full-text index', async () => {
    const { store } = openStore({ dir: tempDir() });
    for (let i = 0; i < 60; i += 1) {
      const word = WORDS[i % WORDS.length] as string;
      store.record({
        tool: i % 2 ? 'bash' : 'edit',
        category: 'C',
        outcome: 'healed-failed',
        ruleIds: [`rule-${i % 4}`],
        error: `${word} #${i}`,
        before: { command: `echo ${word}` },
      });
    }
    const all = (await store.queryEvents({ limit: MAX_EVENTS_LIMIT })).events;
    expect(all).toHaveLength(60);
    for (const text of [
      'needle',
      'NEEDLE',
      'eedl',
      'needles',
      'exit 2',
      '"hi"',
      '(and) or *',
      'near',
      'naïve ü',
      'rule-3',
      'ne',
      'x',
      'edit',
      'no such text',
    ]) {
      const page = await store.queryEvents({ text, limit: MAX_EVENTS_LIMIT });
      expect(eventsPageValidator.Check(page)).toBe(true);
      expect(ids(page.events), text).toEqual(expectedMatches(all, text));
      expect(page.total, text).toBe(page.events.length);
    }
    const paged = await store.queryEvents({ text: 'needle', tool: 'bash', limit: 3, offset: 2 });
    const expected = expectedMatches(
      all.filter((event) => event.tool === 'bash'),
      'needle',
    );
    expect(ids(paged.events)).toEqual(expected.slice(2, 5));
    expect(paged.total).toBe(expected.length);
    await store.close();
  });

  it('finds rows written by a process whose SQLite has no FTS5 (Node 22.15), before and after they are indexed', async () => {
    const dir = tempDir();
    const { store } = openStore({ dir });
    store.record({
      tool: 'bash',
      category: 'C',
      outcome: 'healed-failed',
      ruleIds: [],
      error: 'needle from the indexing process',
    });
    await store.flush();
    // a writer on a Node without FTS5: the same code with the index unavailable
    const plain = new TelemetryDatabase(join(dir, DATABASE_FILE_NAME), { busyTimeoutMs: 1000, now: 0 });
    plain.fullText = false;
    const event = (id: string, error: string): TelemetryEvent => ({
      v: 1,
      id,
      at: 5,
      tool: 'bash',
      category: 'C',
      outcome: 'healed-failed',
      ruleIds: [],
      changes: [],
      tokensSaved: 0,
      error,
    });
    plain.writeBatch(
      {
        events: [event('old-node-1', 'needle from a node without fts5'), event('old-node-2', 'hay')],
        counts: [],
        repeats: 0,
        dropped: 0,
      },
      { maxTools: 10, maxCategories: 10 },
      { maxRows: 1000, maxBytes: 1024 ** 3 },
    );
    // read before the index catches up: the rows above the indexed mark are scanned
    const direct = new TelemetryDatabase(join(dir, DATABASE_FILE_NAME), { busyTimeoutMs: 1000, now: 0 });
    expect(direct.queryEvents({ text: 'needle' }, 0, 10).events.map((e) => e.error)).toEqual([
      'needle from a node without fts5',
      'needle from the indexing process',
    ]);
    // the store catches the index up before its text query; same answer
    const page = await store.queryEvents({ text: 'needle' });
    expect(page.events.map((e) => e.error)).toEqual([
      'needle from a node without fts5',
      'needle from the indexing process',
    ]);
    expect((await store.queryEvents({ text: 'hay' })).events.map((e) => e.id)).toEqual(['old-node-2']);
    plain.close();
    direct.close();
    await store.close();
  });

  it('never matches a redacted secret, only the redaction marker', async () => {
    const secret = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2)}`;
    const password = 'correct-horse-battery-staple-42';
    const { store } = openStore({ dir: tempDir() });
    store.record({
      tool: 'bash',
      category: 'C',
      outcome: 'healed-failed',
      ruleIds: [],
      before: { command: `git push https://${secret}@github.com/x/y`, password },
      error: `export GITHUB_TOKEN=${secret}`,
    });
    await store.flush();
    for (const piece of [secret, secret.slice(4, 20), password, password.slice(8, 20), 'horse-battery']) {
      expect((await store.queryEvents({ text: piece })).total, piece).toBe(0);
    }
    expect((await store.queryEvents({ text: 'redacted' })).total).toBe(1);
    await store.close();
  });

  it(`uses the index only from ${FTS_MIN_CHARS} characters (shorter texts scan) and states which SQLite it has`, () => {
    const database = new TelemetryDatabase(':memory:', { busyTimeoutMs: 0, now: 0 });
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    // Node 24's SQLite has FTS5; Node 22.15's has not (the store then scans; results are the same)
    if (major >= 24) expect(database.fullText).toBe(true);
    if (major === 22 && minor <= 15) expect(database.fullText).toBe(false);
    database.close();
  });
});

describe('totals', () => {
  it('counts matches up to the cap, says when there are more, and pages past the cap', () => {
    const database = new TelemetryDatabase(':memory:', { busyTimeoutMs: 0, now: 0 });
    const events: TelemetryEvent[] = [];
    for (let i = 0; i < 40; i += 1) {
      events.push({
        v: 1,
        id: `e${i}`,
        at: 1000 + i,
        tool: 't',
        category: 'c',
        outcome: 'healed-failed',
        ruleIds: [],
        changes: [],
        tokensSaved: 0,
        error: `needle ${i}`,
      });
    }
    database.writeBatch(
      { events, counts: [], repeats: 0, dropped: 0 },
      { maxTools: 10, maxCategories: 10 },
      { maxRows: 1000, maxBytes: 1024 ** 3 },
    );
    for (const filter of [
      {},
      { text: 'needle' },
      { from: 1000, to: 1040 },
      { tool: 't', outcome: 'healed-failed' as const },
    ]) {
      const capped = database.queryEvents(filter, 30, 5, 10);
      expect(capped, JSON.stringify(filter)).toMatchObject({ total: 10, totalCapped: true });
      expect(capped.events.map((e) => e.id)).toEqual(['e9', 'e8', 'e7', 'e6', 'e5']);
      expect(database.queryEvents(filter, 0, 5, 40)).toMatchObject({ total: 40, totalCapped: false });
    }
    database.close();
  });
});

describe('huge strings handed to record()', () => {
  it('are cut and redacted by the writer: the head and the tail are kept, a secret at the end is not', async () => {
    const { store } = openStore({ dir: tempDir() });
    const body = JSON.parse(JSON.stringify(`HEAD-MARK ${'lorem ipsum '.repeat(200_000)}`)) as string;
    const command = `${body} --password=TailSecret-0123456789 TAIL-MARK`;
    const error = `${'e'.repeat(300_000)} token sk-proj-${'Z9y8X7w6'.repeat(6)} END`;
    store.record({
      tool: 'bash',
      category: 'C',
      outcome: 'healed-failed',
      ruleIds: [],
      before: { command },
      after: { command },
      error,
    });
    const [event] = (await store.queryEvents()).events;
    expect(event?.before).toContain('HEAD-MARK');
    expect(event?.before).toContain('TAIL-MARK');
    expect(event?.before).toContain('chars omitted');
    expect(event?.after).toBe(event?.before);
    expect(JSON.stringify(event)).not.toContain('TailSecret');
    expect(JSON.stringify(event)).not.toContain('Z9y8X7w6');
    expect(event?.error).toContain('END');
    await store.close();
  });
});

describe('rule filter', () => {
  it('returns exactly the events naming the rule id (not a prefix, not a text match), combined with other filters', async () => {
    const { store } = openStore({ dir: tempDir() });
    const rulesOf = (i: number) =>
      [['args.fill-description'], ['args.fill-description-x', 'hint.error-hints'], [], ['hint.error-hints']][i % 4];
    for (let i = 0; i < 40; i += 1) {
      store.record({
        tool: i % 2 ? 'bash' : 'edit',
        category: 'C',
        outcome: 'healed-success',
        ruleIds: rulesOf(i) as string[],
        // a change text naming the rule must not make an event match the rule filter
        changes: i % 4 === 2 ? ['mentions args.fill-description in text only'] : [],
      });
    }
    const all = (await store.queryEvents({ limit: MAX_EVENTS_LIMIT })).events;
    for (const [rule, tool] of [
      ['args.fill-description', undefined],
      ['hint.error-hints', undefined],
      ['hint.error-hints', 'bash'],
      ['args.fill', undefined],
    ] as const) {
      const expected = all.filter(
        (event) => event.ruleIds.includes(rule) && (tool === undefined || event.tool === tool),
      );
      const page = await store.queryEvents({ rule, ...(tool ? { tool } : {}), limit: MAX_EVENTS_LIMIT });
      expect(ids(page.events), `${rule} ${tool}`).toEqual(ids(expected));
      expect(page.total).toBe(expected.length);
    }
    expect((await store.queryEvents({ rule: 'args.fill-description', limit: MAX_EVENTS_LIMIT })).total).toBe(10);
    // with a text filter long enough for the full-text path
    const both = await store.queryEvents({ rule: 'hint.error-hints', text: 'bash', limit: MAX_EVENTS_LIMIT });
    expect(ids(both.events)).toEqual(
      ids(all.filter((e) => e.ruleIds.includes('hint.error-hints') && e.tool === 'bash')),
    );
    await store.close();
  });
});
