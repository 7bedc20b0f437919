/**
 * The store of record: one SQLite database file (WAL mode) shared by every DSH process that uses the same
 * directory. A flush is one `BEGIN IMMEDIATE` transaction that inserts the batch's events and adds the batch's
 * counts to the counter rows, so processes add up exactly and a process killed at any instant leaves either the
 * whole batch or none of it. Counters are kept apart from event rows, so retention can delete old rows without
 * touching any count. Node only (`node:sqlite`).
 */
import { renameSync } from 'node:fs';
import { loadSqlite, type DatabaseSync, type SqlValue, type StatementSync } from './sqlite.js';
import { Counters, OTHER } from './counters.js';
import { isTelemetryEvent, type Bucket, type Outcome, type TelemetryEvent } from './schema.js';

/** `PRAGMA application_id` of our database files ("TNor"): anything else with tables in it is foreign. */
export const APPLICATION_ID = 0x544e6f72;
/** `PRAGMA user_version`: the layout below. */
export const DATABASE_VERSION = 1;

/** Thrown for a file that is a SQLite database of something else (or of a newer layout): it is never modified. */
export class ForeignDatabaseError extends Error {
  override name = 'ForeignDatabaseError';
}

/** Counts of one flush, per display name (already redacted and bounded). */
export interface CountDelta {
  tool: string;
  category: string;
  outcome: Outcome;
  calls: number;
  tokensSaved: number;
}

/** What one flush commits: event rows, counts per name, and the batch's repeats caught and dropped events. */
export interface WriteBatch {
  events: TelemetryEvent[];
  counts: CountDelta[];
  /** Calls of this batch caught as repeats (kept in the meta row `repeats_caught`, like `dropped`). */
  repeats: number;
  dropped: number;
}

export interface RetentionLimits {
  maxRows: number;
  maxBytes: number;
}

/** Filters of an events query; every field optional. `text` is matched case-insensitively as a substring. */
export interface EventFilter {
  tool?: string;
  category?: string;
  /** A rule id the event's `ruleIds` must hold. */
  rule?: string;
  outcome?: Outcome;
  text?: string;
  from?: number;
  to?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at REAL NOT NULL,
  tool TEXT NOT NULL,
  category TEXT NOT NULL,
  outcome TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  search TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_at ON events(at);
CREATE INDEX IF NOT EXISTS events_tool ON events(tool, seq);
CREATE INDEX IF NOT EXISTS events_category ON events(category, seq);
CREATE INDEX IF NOT EXISTS events_outcome ON events(outcome, seq);
CREATE INDEX IF NOT EXISTS events_tool_outcome ON events(tool, outcome, seq);
CREATE INDEX IF NOT EXISTS events_category_outcome ON events(category, outcome, seq);
CREATE INDEX IF NOT EXISTS events_at_seq ON events(at, seq);
CREATE TABLE IF NOT EXISTS counters (
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  healed_success INTEGER NOT NULL DEFAULT 0,
  healed_failed INTEGER NOT NULL DEFAULT 0,
  pass_through INTEGER NOT NULL DEFAULT 0,
  pass_through_failed INTEGER NOT NULL DEFAULT 0,
  tokens_saved REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, name)
) WITHOUT ROWID;
`;

/**
 * Optional full-text index of `events.search`: FTS5 with the trigram tokenizer (any 3 or more characters match as a
 * substring), contentless, keyed by `seq`. Node's SQLite has FTS5 on Node 24 but not on 22.15, and processes of both
 * may share one file, so there are no triggers (a process without FTS5 could not write through them). Instead the
 * meta value `fts_through` says every row with `seq <= fts_through` is indexed; a process with FTS5 indexes the rows
 * above it (written by a process without) before it writes its own batch. Text queries use the index up to
 * `fts_through` and scan the rows above it, and always keep the exact `instr` test, so results are identical with,
 * without, or with a stale index.
 */
const FTS_SCHEMA = `CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5(search, content='', contentless_delete=1, tokenize='trigram');`;

/** Matches counted for an events page's `total`; past it the page says `totalCapped` (counting stays cheap). */
export const TOTAL_COUNT_CAP = 10_000;

/** Shortest `text` filter (in Unicode characters) the trigram index can narrow; shorter ones scan every stored row. */
export const FTS_MIN_CHARS = 3;

/** The text an event's `text` filter searches: the same fields `matchesQuery` looks at, lowercased. */
export function searchText(event: TelemetryEvent): string {
  return [
    event.tool,
    event.category,
    event.outcome,
    event.model ?? '',
    event.callId ?? '',
    event.ruleIds.join(' '),
    event.changes.join('\n'),
    event.before ?? '',
    event.after ?? '',
    event.error ?? '',
  ]
    .join('\n')
    .toLowerCase();
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** SQLITE_BUSY / SQLITE_LOCKED: another process holds the write lock past the busy timeout. */
export function isBusyError(error: unknown): boolean {
  return /database is locked|SQLITE_BUSY|database table is locked/i.test(errorText(error));
}

/** SQLITE_NOTADB / SQLITE_CORRUPT: the file is not a usable database. */
export function isCorruptError(error: unknown): boolean {
  return /file is not a database|malformed|SQLITE_NOTADB|SQLITE_CORRUPT/i.test(errorText(error));
}

const COUNTER_COLUMNS = [
  'calls',
  'failures',
  'healed_success',
  'healed_failed',
  'pass_through',
  'pass_through_failed',
  'tokens_saved',
] as const;

export class TelemetryDatabase {
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  /** True when the full-text index exists (SQLite built with FTS5); otherwise text filters scan the rows. */
  fullText = false;

  /**
   * Opens (creating when needed) the database at `path` (`:memory:` for an in-memory one). Throws
   * ForeignDatabaseError for someone else's database and the SQLite error for a corrupt file.
   */
  constructor(path: string, options: { busyTimeoutMs: number; now: number }) {
    this.path = path;
    const { DatabaseSync } = loadSqlite();
    this.db = new DatabaseSync(path, { timeout: options.busyTimeoutMs });
    try {
      // The constructor's `timeout` option is ignored by Node releases before it existed (22.15 among them): without
      // a busy timeout a second process's flush fails at once with SQLITE_BUSY. The pragma works on every release.
      this.db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
      this.checkOwner(); // before any pragma that writes: someone else's file is never modified
      this.db.exec('PRAGMA auto_vacuum = INCREMENTAL');
      if (path !== ':memory:') this.db.exec('PRAGMA journal_mode = WAL');
      this.db.exec('PRAGMA synchronous = NORMAL');
      this.initialize(options.now);
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** How long later statements wait for another process's lock. */
  setBusyTimeout(busyTimeoutMs: number): void {
    this.db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  }

  /** Throws ForeignDatabaseError unless the file is ours or empty; returns true when it is ours already. */
  private checkOwner(): boolean {
    const applicationId = Number(this.db.prepare('PRAGMA application_id').get()?.['application_id'] ?? 0);
    if (applicationId === APPLICATION_ID) return true;
    const tables = Number(
      this.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()?.['n'] ?? 0,
    );
    if (applicationId !== 0 || tables > 0) {
      throw new ForeignDatabaseError(
        `${this.path} is a SQLite database of another application (application_id ${applicationId}); it is left untouched`,
      );
    }
    return false;
  }

  private initialize(now: number): void {
    this.transaction(() => {
      if (!this.checkOwner()) {
        this.db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
        this.db.exec(`PRAGMA user_version = ${DATABASE_VERSION}`);
      }
      const version = Number(this.db.prepare('PRAGMA user_version').get()?.['user_version'] ?? 0);
      if (version !== DATABASE_VERSION) {
        throw new ForeignDatabaseError(
          `${this.path} has telemetry layout version ${version}; this version reads ${DATABASE_VERSION}; it is left untouched`,
        );
      }
      this.db.exec(SCHEMA);
      this.statement('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('since', now);
      this.fullText = this.createFullTextIndex();
    });
  }

  /** Creates the full-text index when this SQLite has FTS5 (false, database unchanged, when it has not). */
  private createFullTextIndex(): boolean {
    try {
      this.db.exec(FTS_SCHEMA);
      return true;
    } catch {
      return false;
    }
  }

  /** Indexes the rows no process has indexed yet (all of them in an older database). Inside a write transaction. */
  private catchUpFullText(): void {
    if (!this.fullText) return;
    const through = this.meta('fts_through');
    const newest = Number(this.statement('SELECT max(seq) AS n FROM events').get()?.['n'] ?? 0);
    if (newest > through) {
      this.statement('INSERT INTO events_fts (rowid, search) SELECT seq, search FROM events WHERE seq > ?').run(
        through,
      );
    }
    if (newest !== through) this.setMeta('fts_through', Math.max(newest, through));
  }

  /** Indexes rows written by processes without FTS5 before a text query (skipped when another process writes). */
  refreshFullText(): void {
    if (!this.fullText) return;
    const newest = Number(this.statement('SELECT max(seq) AS n FROM events').get()?.['n'] ?? 0);
    if (newest <= this.meta('fts_through')) return;
    try {
      this.transaction(() => this.catchUpFullText());
    } catch (error) {
      if (!isBusyError(error)) throw error; // busy: the rows not indexed yet are scanned instead
    }
  }

  private setMeta(key: string, value: number): void {
    this.statement('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `work` in one BEGIN IMMEDIATE transaction (rolled back when it throws). */
  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // the transaction may already be gone (SQLite rolls back on some errors by itself)
      }
      throw error;
    }
  }

  private meta(key: string): number {
    return Number(this.statement('SELECT value FROM meta WHERE key = ?').get(key)?.['value'] ?? 0);
  }

  private addMeta(key: string, delta: number): void {
    if (delta === 0) return;
    this.statement(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value',
    ).run(key, delta);
  }

  /** Adds one call outcome to a counter row, folding a new name into "other" past the cap. Returns true when folded. */
  private addCounter(kind: 'total' | 'tool' | 'category', name: string, cap: number, delta: CountDelta): boolean {
    let key = name;
    let folded = false;
    if (
      key !== OTHER &&
      !this.statement('SELECT 1 AS found FROM counters WHERE kind = ? AND name = ?').get(kind, key)
    ) {
      const names = Number(
        this.statement("SELECT count(*) AS n FROM counters WHERE kind = ? AND name <> 'other'").get(kind)?.['n'] ?? 0,
      );
      if (names >= cap) {
        key = OTHER;
        folded = true;
      }
    }
    const failed = delta.outcome === 'healed-failed' || delta.outcome === 'passthrough-failed' ? delta.calls : 0;
    this.statement(
      `INSERT INTO counters (kind, name, calls, failures, healed_success, healed_failed, pass_through, pass_through_failed, tokens_saved)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(kind, name) DO UPDATE SET ${COUNTER_COLUMNS.map((column) => `${column} = ${column} + excluded.${column}`).join(', ')}`,
    ).run(
      kind,
      key,
      delta.calls,
      failed,
      delta.outcome === 'healed-success' ? delta.calls : 0,
      delta.outcome === 'healed-failed' ? delta.calls : 0,
      delta.outcome === 'passthrough' ? delta.calls : 0,
      delta.outcome === 'passthrough-failed' ? delta.calls : 0,
      delta.tokensSaved,
    );
    return folded;
  }

  /**
   * One flush in one transaction: the events, the counts, the repeats caught, the dropped-event count, then retention. Nothing of it
   * is visible to other processes, or survives a crash, unless all of it is.
   */
  writeBatch(batch: WriteBatch, caps: { maxTools: number; maxCategories: number }, retention: RetentionLimits): void {
    this.transaction(() => {
      this.catchUpFullText();
      const insert = this.statement(
        'INSERT INTO events (at, tool, category, outcome, bytes, search, json) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      const index = this.fullText ? this.statement('INSERT INTO events_fts (rowid, search) VALUES (?, ?)') : undefined;
      let bytes = 0;
      let lastSeq = 0;
      for (const event of batch.events) {
        const json = JSON.stringify(event);
        const search = searchText(event);
        const size = json.length + search.length;
        bytes += size;
        lastSeq = Number(
          insert.run(event.at, event.tool, event.category, event.outcome, size, search, json).lastInsertRowid,
        );
        index?.run(lastSeq, search);
      }
      if (index !== undefined && lastSeq > 0) this.setMeta('fts_through', lastSeq);
      this.addMeta('event_rows', batch.events.length);
      this.addMeta('event_bytes', bytes);
      let foldedTools = 0;
      let foldedCategories = 0;
      for (const delta of batch.counts) {
        this.addCounter('total', '', Number.MAX_SAFE_INTEGER, delta);
        if (this.addCounter('tool', delta.tool, caps.maxTools, delta)) foldedTools += delta.calls;
        if (this.addCounter('category', delta.category, caps.maxCategories, delta)) foldedCategories += delta.calls;
      }
      this.addMeta('folded_tools', foldedTools);
      this.addMeta('folded_categories', foldedCategories);
      this.addMeta('dropped', batch.dropped);
      this.addMeta('repeats_caught', batch.repeats);
      this.prune(retention);
    });
  }

  /** Deletes the oldest event rows until both limits hold again with 10% headroom. Counter rows are never touched. */
  private prune(limits: RetentionLimits): void {
    const rows = this.meta('event_rows');
    const bytes = this.meta('event_bytes');
    if (rows <= limits.maxRows && bytes <= limits.maxBytes) return;
    const targetRows = Math.floor(limits.maxRows * 0.9);
    const targetBytes = Math.floor(limits.maxBytes * 0.9);
    let deleteRows = Math.max(0, rows - targetRows);
    let deleteBytes = 0;
    let lastSeq = -1;
    const oldest = this.statement('SELECT seq, bytes FROM events WHERE seq > ? ORDER BY seq LIMIT 1000');
    let remainingBytes = bytes;
    let counted = 0;
    for (;;) {
      const page = oldest.all(lastSeq);
      if (page.length === 0) break;
      let done = false;
      for (const row of page) {
        if (counted >= deleteRows && remainingBytes <= targetBytes) {
          done = true;
          break;
        }
        lastSeq = Number(row['seq']);
        remainingBytes -= Number(row['bytes']);
        deleteBytes += Number(row['bytes']);
        counted += 1;
      }
      if (done) break;
    }
    deleteRows = counted;
    if (deleteRows === 0) return;
    this.statement('DELETE FROM events WHERE seq <= ?').run(lastSeq);
    if (this.fullText) this.statement('DELETE FROM events_fts WHERE rowid <= ?').run(lastSeq);
    this.addMeta('event_rows', -deleteRows);
    this.addMeta('event_bytes', -deleteBytes);
    this.addMeta('pruned', deleteRows);
  }

  /** Returns free pages to the file system (after a clear or a prune). */
  releaseFreePages(): void {
    try {
      this.db.exec('PRAGMA incremental_vacuum');
    } catch {
      // best effort: another process may hold the lock; the pages are reused by later inserts anyway
    }
  }

  /** Every counter, as the in-memory Counters the stats are computed from. */
  readCounters(caps: { maxTools: number; maxCategories: number }): {
    counters: Counters;
    dropped: number;
    pruned: number;
    storedEvents: number;
  } {
    const counters = new Counters(this.meta('since'), caps);
    for (const row of this.statement('SELECT * FROM counters').all()) {
      const bucket: Bucket = {
        calls: Number(row['calls']),
        failures: Number(row['failures']),
        healedSuccess: Number(row['healed_success']),
        healedFailed: Number(row['healed_failed']),
        tokensSaved: Number(row['tokens_saved']),
      };
      if (row['kind'] === 'total') {
        counters.totals = {
          calls: bucket.calls,
          healedSuccess: bucket.healedSuccess,
          healedFailed: bucket.healedFailed,
          passThrough: Number(row['pass_through']),
          passThroughFailed: Number(row['pass_through_failed']),
          tokensSaved: bucket.tokensSaved,
          repeatsCaught: 0,
        };
      } else {
        const target = row['kind'] === 'tool' ? counters.tools : counters.categories;
        target.buckets.set(String(row['name']), bucket);
      }
    }
    counters.totals.repeatsCaught = this.meta('repeats_caught');
    counters.tools.foldedCalls = this.meta('folded_tools');
    counters.categories.foldedCalls = this.meta('folded_categories');
    return {
      counters,
      dropped: this.meta('dropped'),
      pruned: this.meta('pruned'),
      storedEvents: this.meta('event_rows'),
    };
  }

  /** Writes counters read from another database (the in-memory fallback carries the numbers already shown). */
  loadCounters(counters: Counters, dropped: number): void {
    this.transaction(() => {
      const insert = this.statement(
        'INSERT OR REPLACE INTO counters (kind, name, calls, failures, healed_success, healed_failed, pass_through, pass_through_failed, tokens_saved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const t = counters.totals;
      insert.run(
        'total',
        '',
        t.calls,
        t.healedFailed + t.passThroughFailed,
        t.healedSuccess,
        t.healedFailed,
        t.passThrough,
        t.passThroughFailed,
        t.tokensSaved,
      );
      for (const [kind, buckets] of [
        ['tool', counters.tools],
        ['category', counters.categories],
      ] as const) {
        for (const [name, b] of buckets.buckets)
          insert.run(kind, name, b.calls, b.failures, b.healedSuccess, b.healedFailed, 0, 0, b.tokensSaved);
      }
      this.statement('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('since', counters.since);
      this.addMeta('folded_tools', counters.tools.foldedCalls);
      this.addMeta('folded_categories', counters.categories.foldedCalls);
      this.addMeta('dropped', dropped);
      this.addMeta('repeats_caught', counters.totals.repeatsCaught);
    });
  }

  private where(filter: EventFilter): { sql: string; params: SqlValue[] } {
    const clauses: string[] = [];
    const params: SqlValue[] = [];
    if (filter.tool !== undefined) {
      clauses.push('tool = ?');
      params.push(filter.tool);
    }
    if (filter.category !== undefined) {
      clauses.push('category = ?');
      params.push(filter.category);
    }
    if (filter.rule !== undefined) {
      // rule ids live only in the event's JSON: SQLite's JSON1 reads its ruleIds array (qualified: json_each has
      // a column named json of its own)
      clauses.push("EXISTS (SELECT 1 FROM json_each(events.json, '$.ruleIds') WHERE value = ?)");
      params.push(filter.rule);
    }
    if (filter.outcome !== undefined) {
      clauses.push('outcome = ?');
      params.push(filter.outcome);
    }
    if (filter.from !== undefined) {
      clauses.push('at >= ?');
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      clauses.push('at < ?');
      params.push(filter.to);
    }
    if (filter.text !== undefined && filter.text !== '') {
      clauses.push('instr(search, ?) > 0');
      params.push(filter.text.toLowerCase());
    }
    return { sql: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, params };
  }

  private parseRows(rows: Record<string, SqlValue>[]): { events: TelemetryEvent[]; invalid: number } {
    const events: TelemetryEvent[] = [];
    let invalid = 0;
    for (const row of rows) {
      try {
        const value: unknown = JSON.parse(String(row['json']));
        if (isTelemetryEvent(value)) events.push(value);
        else invalid += 1;
      } catch {
        invalid += 1;
      }
    }
    return { events, invalid };
  }

  /** The newest `limit` events (any filter is applied by the caller). */
  newestEvents(limit: number): { events: TelemetryEvent[]; invalid: number } {
    return this.parseRows(this.statement('SELECT json FROM events ORDER BY seq DESC LIMIT ?').all(limit));
  }

  /**
   * A page of events matching `filter`, newest first, with the number of matches counted up to `countCap`
   * (`totalCapped` when there are more). A `text` of 3 or more characters walks the full-text index newest first
   * (rows not indexed yet are scanned); every other filter uses an index; the exact test is always applied.
   */
  queryEvents(
    filter: EventFilter,
    offset: number,
    limit: number,
    countCap = TOTAL_COUNT_CAP,
  ): { events: TelemetryEvent[]; total: number; totalCapped: boolean; invalid: number } {
    const { sql, params } = this.where(filter);
    const text = filter.text?.toLowerCase() ?? '';
    // Each source lists its matches newest first; together they are the newest-first list of all matches.
    const sources: { sql: string; params: SqlValue[]; page?: string }[] = [];
    if (this.fullText && [...text].length >= FTS_MIN_CHARS) {
      const through = this.meta('fts_through');
      const aliased = sql.replace(/\b(tool|category|outcome|at|search)\b/g, 'e.$1').replaceAll('events.json', 'e.json');
      sources.push({
        sql: `SELECT json FROM events ${sql} AND seq > ? ORDER BY seq DESC`,
        params: [...params, through],
      });
      sources.push({
        sql: `SELECT e.json AS json FROM events_fts f JOIN events e ON e.seq = f.rowid ${aliased} AND events_fts MATCH ? ORDER BY f.rowid DESC`,
        params: [...params, `"${text.replaceAll('"', '""')}"`],
      });
    } else {
      // the page's row numbers first (from an index alone where the filters allow), then only those rows' JSON:
      // sorting the JSON of every match of a time range would cost far more
      sources.push({
        sql: `SELECT seq FROM events ${sql} ORDER BY seq DESC`,
        params,
        page: `SELECT json FROM events WHERE seq IN (SELECT seq FROM events ${sql} ORDER BY seq DESC LIMIT ? OFFSET ?) ORDER BY seq DESC`,
      });
    }
    let counted = 0;
    let skip = offset;
    let room = limit;
    const rows: Record<string, SqlValue>[] = [];
    sources.forEach((source, i) => {
      const last = i === sources.length - 1;
      // an earlier source (rows not indexed yet: normally none) is counted exactly, so paging past it stays right
      const cap = last ? Math.max(0, countCap + 1 - counted) : -1;
      // counting needs no order: without the ORDER BY, SQLite walks the index and stops at the cap instead of
      // sorting every match of, e.g., a wide time range first
      const unordered = source.sql.replace(/ ORDER BY [^()]*$/, '');
      const matches = Number(
        this.db.prepare(`SELECT count(*) AS n FROM (${unordered} LIMIT ?)`).get(...source.params, cap)?.['n'] ?? 0,
      );
      if (room > 0 && (last || skip < matches)) {
        const page = this.db.prepare(source.page ?? `${source.sql} LIMIT ? OFFSET ?`).all(...source.params, room, skip);
        rows.push(...page);
        room -= page.length;
      }
      skip = Math.max(0, skip - matches);
      counted += matches;
    });
    return { ...this.parseRows(rows), total: Math.min(counted, countCap), totalCapped: counted > countCap };
  }

  /** Deletes every event and counter and restarts the counting period at `now`. */
  clear(now: number): void {
    this.transaction(() => {
      const through = this.meta('fts_through');
      this.db.exec('DELETE FROM events; DELETE FROM counters; DELETE FROM meta;');
      if (this.fullText) this.db.exec('DELETE FROM events_fts');
      this.statement('INSERT INTO meta (key, value) VALUES (?, ?)').run('since', now);
      // seq is never reused (AUTOINCREMENT), so the index stays valid for every row below the old mark
      if (through > 0) this.setMeta('fts_through', through);
    });
    this.releaseFreePages();
  }

  close(): void {
    try {
      this.db.close();
    } catch {
      // already closed
    }
  }
}

/** Moves a corrupt database file (and its WAL and shared-memory files) aside, keeping it for inspection. */
export function moveAside(path: string, now: number): string {
  const target = `${path}.corrupt-${now}`;
  renameSync(path, target);
  for (const suffix of ['-wal', '-shm']) {
    try {
      renameSync(`${path}${suffix}`, `${target}${suffix}`);
    } catch {
      // not there
    }
  }
  return target;
}
