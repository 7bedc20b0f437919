/**
 * The tables of the telemetry database and the one migration between layouts. Layout 2 (this one) gives every event
 * row and every counter row the DSH profile it was recorded under; a layout-1 file is migrated in place on open, its
 * rows becoming profile `default`. The per-profile numbers that layout 1 kept in `meta` (repeats caught, dropped,
 * folded, pruned) live on each profile's `total` counter row, next to the number of its stored events. Node only.
 */
import { DEFAULT_PROFILE } from './feed.js';
import type { DatabaseSync } from './sqlite.js';

/** `PRAGMA user_version` of this layout. */
export const DATABASE_VERSION = 2;
/** The profile of rows written before profiles existed, and of a store created without one (the feed contract's). */
export { DEFAULT_PROFILE };

const EVENTS = `
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at REAL NOT NULL,
  tool TEXT NOT NULL,
  category TEXT NOT NULL,
  outcome TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  search TEXT NOT NULL,
  json TEXT NOT NULL,
  profile TEXT NOT NULL DEFAULT '${DEFAULT_PROFILE}'
);
CREATE INDEX IF NOT EXISTS events_at ON events(at);
CREATE INDEX IF NOT EXISTS events_tool ON events(tool, seq);
CREATE INDEX IF NOT EXISTS events_category ON events(category, seq);
CREATE INDEX IF NOT EXISTS events_outcome ON events(outcome, seq);
CREATE INDEX IF NOT EXISTS events_tool_outcome ON events(tool, outcome, seq);
CREATE INDEX IF NOT EXISTS events_category_outcome ON events(category, outcome, seq);
CREATE INDEX IF NOT EXISTS events_at_seq ON events(at, seq);
`;

const COUNTERS = (table: string) => `
CREATE TABLE IF NOT EXISTS ${table} (
  profile TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  healed_success INTEGER NOT NULL DEFAULT 0,
  healed_failed INTEGER NOT NULL DEFAULT 0,
  pass_through INTEGER NOT NULL DEFAULT 0,
  pass_through_failed INTEGER NOT NULL DEFAULT 0,
  tokens_saved REAL NOT NULL DEFAULT 0,
  repeats_caught INTEGER NOT NULL DEFAULT 0,
  dropped INTEGER NOT NULL DEFAULT 0,
  folded_tools INTEGER NOT NULL DEFAULT 0,
  folded_categories INTEGER NOT NULL DEFAULT 0,
  stored_events INTEGER NOT NULL DEFAULT 0,
  pruned_events INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (profile, kind, name)
) WITHOUT ROWID;`;

/**
 * Calls recorded by other harnesses than DSH (a store opened with `harness`, such as the MCP proxy's), per profile,
 * harness and outcome. A table of its own, created on open by any process of this version: a process of an older
 * version never reads it, so its tool and category tables stay as they were.
 */
const HARNESS_COUNTERS = `
CREATE TABLE IF NOT EXISTS harness_counters (
  profile TEXT NOT NULL,
  harness TEXT NOT NULL,
  outcome TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (profile, harness, outcome)
) WITHOUT ROWID;`;

/** Every table and index of layout 2 (idempotent). */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value REAL NOT NULL) WITHOUT ROWID;
${EVENTS}
${COUNTERS('counters')}
${HARNESS_COUNTERS}
`;

/**
 * Optional full-text index of `events.search`: FTS5 with the trigram tokenizer (any 3 or more characters match as a
 * substring), contentless, keyed by `seq`. Node's SQLite has FTS5 on Node 24 but not on 22.15, and processes of both
 * may share one file, so there are no triggers (a process without FTS5 could not write through them). Instead the
 * meta value `fts_through` says every row with `seq <= fts_through` is indexed; a process with FTS5 indexes the rows
 * above it (written by a process without) before it writes its own batch.
 */
export const FTS_SCHEMA = `CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5(search, content='', contentless_delete=1, tokenize='trigram');`;

function metaValue(db: DatabaseSync, key: string): number {
  const value = Number(db.prepare('SELECT value FROM meta WHERE key = ?').get(key)?.['value'] ?? 0);
  return Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

/**
 * Layout 1 to 2, inside the caller's write transaction: events gain a `profile` column (old rows: `default`; SQLite
 * adds a column with a default without rewriting rows), the counters table is rebuilt keyed by profile, and the
 * per-profile numbers move from `meta` to the `total` row. There is deliberately no index on `profile` (building one
 * at plugin load would hold DSH's thread for about a second per 100k rows, and every insert would pay for it): a
 * profile filter rides on the other filters' indexes or on the newest-first row order.
 */
export function migrateFromVersion1(db: DatabaseSync): void {
  db.exec(`ALTER TABLE events ADD COLUMN profile TEXT NOT NULL DEFAULT '${DEFAULT_PROFILE}'`);
  db.exec(COUNTERS('counters_v2'));
  db.exec(
    `INSERT INTO counters_v2 (profile, kind, name, calls, failures, healed_success, healed_failed, pass_through, pass_through_failed, tokens_saved)
     SELECT '${DEFAULT_PROFILE}', kind, name, calls, failures, healed_success, healed_failed, pass_through, pass_through_failed, tokens_saved FROM counters`,
  );
  db.prepare(
    `INSERT INTO counters_v2 (profile, kind, name) VALUES (?, 'total', '') ON CONFLICT(profile, kind, name) DO NOTHING`,
  ).run(DEFAULT_PROFILE);
  const stored = Number(db.prepare('SELECT count(*) AS n FROM events').get()?.['n'] ?? 0);
  db.prepare(
    `UPDATE counters_v2 SET repeats_caught = ?, dropped = ?, folded_tools = ?, folded_categories = ?, stored_events = ?,
       pruned_events = ? WHERE profile = ? AND kind = 'total' AND name = ''`,
  ).run(
    metaValue(db, 'repeats_caught'),
    metaValue(db, 'dropped'),
    metaValue(db, 'folded_tools'),
    metaValue(db, 'folded_categories'),
    stored,
    metaValue(db, 'pruned'),
    DEFAULT_PROFILE,
  );
  db.exec('DROP TABLE counters');
  db.exec('ALTER TABLE counters_v2 RENAME TO counters');
  db.exec(
    "DELETE FROM meta WHERE key IN ('repeats_caught', 'dropped', 'folded_tools', 'folded_categories', 'pruned', 'event_rows', 'event_bytes')",
  );
}
