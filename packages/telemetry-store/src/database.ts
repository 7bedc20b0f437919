/**
 * The store of record: one SQLite database file (WAL mode) shared by every DSH process that uses the same
 * directory. A flush is one `BEGIN IMMEDIATE` transaction that inserts the batch's events and adds the batch's
 * counts to the counter rows, so processes add up exactly and a process killed at any instant leaves either the
 * whole batch or none of it. Counters are kept apart from event rows, so retention can delete old rows without
 * touching any count. Node only (`node:sqlite`).
 */
import { lstatSync, renameSync } from 'node:fs';
import { loadSqlite, type DatabaseSync, type SqlValue, type StatementSync } from './sqlite.js';
import { Counters, OTHER } from './counters.js';
import { DATABASE_VERSION, DEFAULT_PROFILE, FTS_SCHEMA, SCHEMA, migrateFromVersion1 } from './database-layout.js';
import { createPrivateFile } from './private-files.js';
import { EVENTS_TOTAL_CAP, searchedTexts, type EventFilters } from './feed.js';
import { isHarnessName } from './store-options.js';
import {
  isRepeatCaught,
  isTelemetryEvent,
  OUTCOMES,
  type Bucket,
  type Outcome,
  type TelemetryEvent,
} from './schema.js';

export { DATABASE_VERSION, DEFAULT_PROFILE };

/** `PRAGMA application_id` of our database files ("TNor"): anything else with tables in it is foreign. */
export const APPLICATION_ID = 0x544e6f72;

/** Thrown for a file that is a SQLite database of something else (or of a newer layout): it is never modified. */
export class ForeignDatabaseError extends Error {
  override name = 'ForeignDatabaseError';
}

/** Calls one harness (not DSH) recorded with one outcome (`harness_counters`). */
export interface HarnessCalls {
  harness: string;
  outcome: Outcome;
  calls: number;
}

/** Counts of one flush, per display name (already redacted and bounded). */
export interface CountDelta {
  tool: string;
  category: string;
  outcome: Outcome;
  calls: number;
  tokensSaved: number;
}

/**
 * What one flush commits: event rows, each of which is also counted as its call (so a call and its event are committed
 * together), the counts of the calls without an event row (untouched successes that are not stored, events dropped
 * before they were written), and the batch's repeats caught (of those calls) and dropped events.
 */
export interface WriteBatch {
  /** The DSH profile every row of the batch is recorded under (default `default`). */
  profile?: string;
  /** The harness the batch's calls were recorded by, when not DSH (its counts also go to `harness_counters`). */
  harness?: string;
  /** Stored events; `writeBatch` counts each one's call (its tool, category, outcome, tokens saved and repeat). */
  events: TelemetryEvent[];
  /** Calls of this batch that have no event row in it. */
  counts: CountDelta[];
  /** Calls of `counts` caught as repeats (the events' own repeats are added by `writeBatch`). */
  repeats: number;
  dropped: number;
}

export interface RetentionLimits {
  maxRows: number;
  /** Bytes on disk of the database file plus its WAL (see `diskBytes`). */
  maxBytes: number;
}

/** The filters of a database events query: the feed contract's, `profile` undefined for every profile. */
export type EventFilter = EventFilters;

/** Matches counted for an events page's `total` (the feed contract's `EVENTS_TOTAL_CAP`). */
export const TOTAL_COUNT_CAP = EVENTS_TOTAL_CAP;

/** Shortest `text` filter (in Unicode characters) the trigram index can narrow; shorter ones scan every stored row. */
export const FTS_MIN_CHARS = 3;

/**
 * The search column: the texts `eventMatches` searches (`searchedTexts`), lowercased, one per line. A `text` filter
 * holds no line break (the query check refuses control characters), so a match never spans two texts.
 */
export function searchText(event: TelemetryEvent): string {
  return searchedTexts(event).join('\n').toLowerCase();
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

/** Numbers of one profile's `total` row besides the call counts (layout 1 kept them in `meta`). */
type TotalColumn =
  | 'repeats_caught'
  | 'dropped'
  | 'folded_tools'
  | 'folded_categories'
  | 'stored_events'
  | 'pruned_events';

/** What `clear()` reached: `erased` is false when another process kept the WAL from being emptied (see README). */
export interface ClearResult {
  erased: boolean;
}

/** The calls of stored events, one count per (tool, category, outcome): what an event row adds to the counters. */
export function countsOfEvents(events: readonly TelemetryEvent[]): CountDelta[] {
  const merged = new Map<string, CountDelta>();
  for (const event of events) {
    const key = `${event.outcome}\u0000${event.tool}\u0000${event.category}`;
    let delta = merged.get(key);
    if (delta === undefined) {
      delta = { tool: event.tool, category: event.category, outcome: event.outcome, calls: 0, tokensSaved: 0 };
      merged.set(key, delta);
    }
    delta.calls += 1;
    delta.tokensSaved += event.tokensSaved;
  }
  return [...merged.values()];
}

/** Meta rows of the last clear (written by `clear()` after it erased the rest of `meta`). */
const LAST_CLEAR_AT = 'last_clear_at';
const LAST_CLEAR_ERASED = 'last_clear_erased_calls';

/** Largest share of `maxBytes` the WAL may take before it is checkpointed (at most 4 MiB). */
function walBudgetBytes(maxBytes: number): number {
  return Math.max(64 * 1024, Math.min(4 * 1024 * 1024, Math.floor(maxBytes / 8)));
}

export class TelemetryDatabase {
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  /** True when the full-text index exists (SQLite built with FTS5); otherwise text filters scan the rows. */
  fullText = false;
  private walLimitFor = 0;
  private pageSize = 4096;
  private busyTimeoutMs = 0;

  /**
   * Opens (creating when needed, 0600) the database at `path` (`:memory:` for an in-memory one). Throws
   * ForeignDatabaseError for someone else's database and the SQLite error for a corrupt file.
   */
  constructor(path: string, options: { busyTimeoutMs: number; now: number }) {
    this.path = path;
    const { DatabaseSync } = loadSqlite();
    // SQLite gives the -wal and -shm files the mode of the database file: create it private first
    if (path !== ':memory:') createPrivateFile(path);
    this.db = new DatabaseSync(path, { timeout: options.busyTimeoutMs });
    this.busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs));
    try {
      // The constructor's `timeout` option is ignored by Node releases before it existed (22.15 among them): without
      // a busy timeout a second process's flush fails at once with SQLITE_BUSY. The pragma works on every release.
      this.db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
      this.checkOwner(); // before any pragma that writes: someone else's file is never modified
      this.db.exec('PRAGMA auto_vacuum = INCREMENTAL');
      if (path !== ':memory:') this.db.exec('PRAGMA journal_mode = WAL');
      this.db.exec('PRAGMA synchronous = NORMAL');
      this.initialize(options.now);
      this.pageSize = Number(this.db.prepare('PRAGMA page_size').get()?.['page_size'] ?? 4096);
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** How long later statements wait for another process's lock. */
  setBusyTimeout(busyTimeoutMs: number): void {
    this.busyTimeoutMs = Math.max(0, Math.floor(busyTimeoutMs));
    this.db.exec(`PRAGMA busy_timeout = ${this.busyTimeoutMs}`);
  }

  /** Throws ForeignDatabaseError unless the file is ours or empty; returns true when it is ours already. */
  private checkOwner(): boolean {
    // One statement, so one read snapshot: read apart, another process that creates the database between the two
    // reads made an empty file look like someone else's (application_id still 0, tables already there), and that
    // process's store stopped saving (a race two writers starting at once lost about 1 in 150 times under load).
    const owner = this.db
      .prepare(
        "SELECT (SELECT application_id FROM pragma_application_id) AS id, (SELECT count(*) FROM sqlite_master WHERE type = 'table') AS tables",
      )
      .get();
    const applicationId = Number(owner?.['id'] ?? 0);
    if (applicationId === APPLICATION_ID) return true;
    const tables = Number(owner?.['tables'] ?? 0);
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
      if (version === 1) {
        migrateFromVersion1(this.db);
        this.db.exec(`PRAGMA user_version = ${DATABASE_VERSION}`);
      } else if (version !== DATABASE_VERSION) {
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

  private pragma(name: 'page_count' | 'freelist_count'): number {
    return Number(this.statement(`PRAGMA ${name}`).get()?.[name] ?? 0);
  }

  /** Adds `delta` to one number of a profile's `total` row. */
  private addTotal(profile: string, column: TotalColumn, delta: number): void {
    if (delta === 0) return;
    this.statement(
      `INSERT INTO counters (profile, kind, name, ${column}) VALUES (?, 'total', '', ?)
       ON CONFLICT(profile, kind, name) DO UPDATE SET ${column} = ${column} + excluded.${column}`,
    ).run(profile, delta);
  }

  /** Adds one call outcome to a counter row, folding a new name into "other" past the cap. Returns true when folded. */
  private addCounter(
    profile: string,
    kind: 'total' | 'tool' | 'category',
    name: string,
    cap: number,
    delta: CountDelta,
  ): boolean {
    let key = name;
    let folded = false;
    if (
      key !== OTHER &&
      !this.statement('SELECT 1 AS found FROM counters WHERE profile = ? AND kind = ? AND name = ?').get(
        profile,
        kind,
        key,
      )
    ) {
      const names = Number(
        this.statement("SELECT count(*) AS n FROM counters WHERE profile = ? AND kind = ? AND name <> 'other'").get(
          profile,
          kind,
        )?.['n'] ?? 0,
      );
      if (names >= cap) {
        key = OTHER;
        folded = true;
      }
    }
    const failed = delta.outcome === 'healed-failed' || delta.outcome === 'passthrough-failed' ? delta.calls : 0;
    this.statement(
      `INSERT INTO counters (profile, kind, name, calls, failures, healed_success, healed_failed, pass_through, pass_through_failed, tokens_saved)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(profile, kind, name) DO UPDATE SET ${COUNTER_COLUMNS.map((column) => `${column} = ${column} + excluded.${column}`).join(', ')}`,
    ).run(
      profile,
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

  /** Keeps the WAL within its share of `maxBytes`: checkpointed at that size and truncated back to it when reset. */
  private limitWal(maxBytes: number): void {
    if (this.walLimitFor === maxBytes || this.path === ':memory:') return;
    const wal = walBudgetBytes(maxBytes);
    this.db.exec(`PRAGMA journal_size_limit = ${wal}`);
    this.db.exec(`PRAGMA wal_autocheckpoint = ${Math.max(16, Math.floor(wal / this.pageSize))}`);
    this.walLimitFor = maxBytes;
  }

  /**
   * One flush in one transaction: the events, the counts, the repeats caught, the dropped-event count, then retention. Nothing of it
   * is visible to other processes, or survives a crash, unless all of it is.
   */
  writeBatch(batch: WriteBatch, caps: { maxTools: number; maxCategories: number }, retention: RetentionLimits): void {
    const profile = batch.profile ?? DEFAULT_PROFILE;
    this.limitWal(retention.maxBytes);
    this.transaction(() => {
      this.catchUpFullText();
      // a row count that is not a whole number >= 0 (a damaged file) is recounted before it is added to
      if (
        this.statement(
          "SELECT 1 AS bad FROM counters WHERE kind = 'total' AND (typeof(stored_events) <> 'integer' OR stored_events < 0) LIMIT 1",
        ).get()
      )
        this.recountRows();
      if (batch.events.length > 0) this.prune(retention, batch.events.length);
      const insert = this.statement(
        'INSERT INTO events (at, tool, category, outcome, bytes, search, json, profile) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const index = this.fullText ? this.statement('INSERT INTO events_fts (rowid, search) VALUES (?, ?)') : undefined;
      let lastSeq = 0;
      for (const event of batch.events) {
        const json = JSON.stringify(event);
        const search = searchText(event);
        lastSeq = Number(
          insert.run(
            event.at,
            event.tool,
            event.category,
            event.outcome,
            json.length + search.length,
            search,
            json,
            profile,
          ).lastInsertRowid,
        );
        index?.run(lastSeq, search);
      }
      if (index !== undefined && lastSeq > 0) this.setMeta('fts_through', lastSeq);
      this.addTotal(profile, 'stored_events', batch.events.length);
      let foldedTools = 0;
      let foldedCategories = 0;
      for (const delta of [...countsOfEvents(batch.events), ...batch.counts]) {
        this.addCounter(profile, 'total', '', Number.MAX_SAFE_INTEGER, delta);
        if (this.addCounter(profile, 'tool', delta.tool, caps.maxTools, delta)) foldedTools += delta.calls;
        if (this.addCounter(profile, 'category', delta.category, caps.maxCategories, delta))
          foldedCategories += delta.calls;
        if (batch.harness !== undefined && delta.calls > 0)
          this.statement(
            `INSERT INTO harness_counters (profile, harness, outcome, calls) VALUES (?, ?, ?, ?)
             ON CONFLICT(profile, harness, outcome) DO UPDATE SET calls = calls + excluded.calls`,
          ).run(profile, batch.harness, delta.outcome, delta.calls);
      }
      this.addTotal(profile, 'folded_tools', foldedTools);
      this.addTotal(profile, 'folded_categories', foldedCategories);
      this.addTotal(profile, 'dropped', batch.dropped);
      this.addTotal(
        profile,
        'repeats_caught',
        batch.repeats + batch.events.reduce((n, event) => n + (isRepeatCaught(event) ? 1 : 0), 0),
      );
      this.prune(retention);
    });
    this.truncateWal(walBudgetBytes(retention.maxBytes));
  }

  private walBytes(): number {
    if (this.path === ':memory:') return 0;
    try {
      const wal = lstatSync(`${this.path}-wal`);
      return wal.isFile() ? wal.size : 0;
    } catch {
      return 0;
    }
  }

  /**
   * When the WAL has grown past `limit` (one transaction can write more than the automatic checkpoint's threshold):
   * copies it into the database and truncates it, without waiting (another process reading keeps it for now).
   */
  private truncateWal(limit: number): void {
    if (this.walBytes() <= limit) return;
    try {
      this.db.exec('PRAGMA busy_timeout = 0');
      this.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    } catch {
      // best effort: the next write tries again
    } finally {
      this.db.exec(`PRAGMA busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  /** Stored event rows of every profile, as the counters say (cheap; `recountRows` is the truth). */
  private countedRows(): number {
    return Number(
      this.statement("SELECT sum(stored_events) AS n FROM counters WHERE kind = 'total'").get()?.['n'] ?? 0,
    );
  }

  /** Counts the rows of each profile and writes the counts back (a damaged count is repaired, never acted on). */
  private recountRows(): number {
    this.statement("UPDATE counters SET stored_events = 0 WHERE kind = 'total'").run();
    let rows = 0;
    for (const row of this.statement('SELECT profile, count(*) AS n FROM events GROUP BY profile').all()) {
      const n = Number(row['n']);
      rows += n;
      this.addTotal(String(row['profile']), 'stored_events', n);
    }
    return rows;
  }

  /** Bytes of the database file's pages in use (free pages excluded). */
  private usedBytes(): number {
    return (this.pragma('page_count') - this.pragma('freelist_count')) * this.pageSize;
  }

  /** Deletes the `count` oldest event rows (and their index entries), counting them per profile as pruned. */
  private deleteOldest(count: number): number {
    const last = this.statement('SELECT seq FROM events ORDER BY seq LIMIT 1 OFFSET ?').get(Math.max(0, count - 1));
    if (last === undefined) return 0;
    const through = Number(last['seq']);
    let deleted = 0;
    for (const row of this.statement('SELECT profile, count(*) AS n FROM events WHERE seq <= ? GROUP BY profile').all(
      through,
    )) {
      const n = Number(row['n']);
      deleted += n;
      this.addTotal(String(row['profile']), 'stored_events', -n);
      this.addTotal(String(row['profile']), 'pruned_events', n);
    }
    this.statement('DELETE FROM events WHERE seq <= ?').run(through);
    if (this.fullText) this.statement('DELETE FROM events_fts WHERE rowid <= ?').run(through);
    return deleted;
  }

  /**
   * Retention, inside the batch's transaction: deletes the oldest event rows until there are at most `maxRows` and the
   * database's pages in use fit its share of `maxBytes` (the WAL has the rest), each with 10% headroom, then gives
   * the file's free pages past that share back to the file system. A row count that looks over the limit is
   * recounted before anything is deleted. Counter rows are never touched. With `incoming` rows about to be inserted,
   * it makes room for them first (at the average size of a stored row), so the inserts reuse free pages instead of
   * growing the file past the cap.
   */
  private prune(limits: RetentionLimits, incoming = 0): void {
    let rows = this.countedRows();
    if (!Number.isSafeInteger(rows) || rows < 0 || rows > limits.maxRows) rows = this.recountRows();
    if (rows > limits.maxRows) rows -= this.deleteOldest(rows - Math.floor(limits.maxRows * 0.9));
    const budget = limits.maxBytes - walBudgetBytes(limits.maxBytes);
    // each pass deletes about as many rows as the excess holds on average; pages shared with newer rows may need more
    for (let pass = 0; pass < 4 && rows > 0; pass += 1) {
      const stored = this.usedBytes();
      const perRow = stored / rows;
      const used = stored + incoming * perRow;
      if (used <= budget) break;
      const excess = used - Math.floor(budget * 0.9);
      rows -= this.deleteOldest(Math.min(rows, Math.max(1, Math.ceil(excess / perRow))));
    }
    const pages = this.pragma('page_count');
    const budgetPages = Math.floor(budget / this.pageSize);
    if (pages > budgetPages && this.pragma('freelist_count') > 0) {
      this.db.exec(`PRAGMA incremental_vacuum(${pages - budgetPages})`);
    }
  }

  /** Returns free pages to the file system (after a clear or a prune). */
  releaseFreePages(): void {
    try {
      this.db.exec('PRAGMA incremental_vacuum');
    } catch {
      // best effort: another process may hold the lock; the pages are reused by later inserts anyway
    }
  }

  /** Bytes the database takes on disk: its pages plus its WAL file (what `maxStoredBytes` bounds). */
  diskBytes(): number {
    return this.pragma('page_count') * this.pageSize + this.walBytes();
  }

  /** Profiles with counters, sorted. */
  profiles(): string[] {
    return this.statement("SELECT profile FROM counters WHERE kind = 'total' ORDER BY profile")
      .all()
      .map((row) => String(row['profile']));
  }

  /** The counters of one profile (undefined: every profile added up), as the Counters the stats are computed from. */
  readCounters(
    caps: { maxTools: number; maxCategories: number },
    profile?: string,
  ): {
    counters: Counters;
    dropped: number;
    pruned: number;
    storedEvents: number;
  } {
    const counters = new Counters(this.meta('since'), caps);
    const where = profile === undefined ? '' : 'WHERE profile = ?';
    const sums = [
      ...COUNTER_COLUMNS,
      'repeats_caught',
      'dropped',
      'folded_tools',
      'folded_categories',
      'stored_events',
      'pruned_events',
    ]
      .map((column) => `sum(${column}) AS ${column}`)
      .join(', ');
    const rows = this.statement(`SELECT kind, name, ${sums} FROM counters ${where} GROUP BY kind, name`).all(
      ...(profile === undefined ? [] : [profile]),
    );
    let dropped = 0;
    let pruned = 0;
    let storedEvents = 0;
    for (const row of rows) {
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
          repeatsCaught: Number(row['repeats_caught']),
        };
        counters.tools.foldedCalls = Number(row['folded_tools']);
        counters.categories.foldedCalls = Number(row['folded_categories']);
        dropped = Number(row['dropped']);
        pruned = Number(row['pruned_events']);
        storedEvents = Math.max(0, Number(row['stored_events']));
      } else if (row['kind'] === 'tool' || row['kind'] === 'category') {
        const target = row['kind'] === 'tool' ? counters.tools : counters.categories;
        target.buckets.set(String(row['name']), bucket);
      }
    }
    return { counters, dropped, pruned, storedEvents };
  }

  /** The last clear's receipt (`StatsPayload.storage.lastClear`), or undefined when the file was never cleared. */
  lastClear(): { at: number; erasedCalls: number } | undefined {
    const at = this.statement('SELECT value FROM meta WHERE key = ?').get(LAST_CLEAR_AT)?.['value'];
    if (typeof at !== 'number' || !Number.isFinite(at)) return undefined;
    const erased = this.meta(LAST_CLEAR_ERASED);
    return { at, erasedCalls: Number.isSafeInteger(erased) && erased >= 0 ? erased : 0 };
  }

  /** Calls other harnesses recorded, per harness and outcome, of one profile (undefined: every profile added up). */
  harnessCalls(profile?: string): HarnessCalls[] {
    const where = profile === undefined ? '' : 'WHERE profile = ?';
    return this.statement(
      `SELECT harness, outcome, sum(calls) AS calls FROM harness_counters ${where} GROUP BY harness, outcome ORDER BY harness, outcome`,
    )
      .all(...(profile === undefined ? [] : [profile]))
      .flatMap((row) => {
        const outcome = String(row['outcome']);
        // a row no store of this version wrote (another writer of the file) is not shown, and never as a label
        if (!OUTCOMES.includes(outcome as Outcome) || !isHarnessName(row['harness'])) return [];
        return [{ harness: String(row['harness']), outcome: outcome as Outcome, calls: Number(row['calls']) }];
      });
  }

  /** Copies every counter row of `from` into this (empty) database: the in-memory stand-in keeps what was shown. */
  copyCountersFrom(from: TelemetryDatabase): void {
    const rows = from.statement('SELECT * FROM counters').all();
    const since = from.meta('since');
    const lastClear = from.lastClear();
    this.transaction(() => {
      if (lastClear !== undefined) {
        this.setMeta(LAST_CLEAR_AT, lastClear.at);
        this.setMeta(LAST_CLEAR_ERASED, lastClear.erasedCalls);
      }
      for (const row of rows) {
        const columns = Object.keys(row);
        this.db
          .prepare(
            `INSERT OR REPLACE INTO counters (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          )
          .run(...columns.map((column) => row[column] as SqlValue));
      }
      this.setMeta('since', since);
      // the copy has no event rows: its counts of stored rows would only mislead retention
      this.statement("UPDATE counters SET stored_events = 0 WHERE kind = 'total'").run();
    });
  }

  private where(filter: EventFilter): { sql: string; params: SqlValue[] } {
    const clauses: string[] = [];
    const params: SqlValue[] = [];
    if (filter.profile !== undefined && !this.holdsOnly(filter.profile)) {
      // the profile is tested per row on the rows the other filters' indexes (or the newest-first order) give
      clauses.push('profile = ?');
      params.push(filter.profile);
    }
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

  /**
   * True when no other profile has stored events, by the per-profile row counts (a tiny table): a filter on
   * `profile` then changes nothing, and leaving it out keeps the other filters' covering indexes in use.
   */
  private holdsOnly(profile: string): boolean {
    return (
      this.statement(
        "SELECT 1 AS found FROM counters WHERE kind = 'total' AND profile <> ? AND stored_events <> 0 LIMIT 1",
      ).get(profile) === undefined
    );
  }

  /** The newest `limit` events of one profile (undefined: every profile); any other filter is the caller's. */
  newestEvents(limit: number, profile?: string): { events: TelemetryEvent[]; invalid: number } {
    if (profile === undefined || this.holdsOnly(profile))
      return this.parseRows(this.statement('SELECT json FROM events ORDER BY seq DESC LIMIT ?').all(limit));
    return this.parseRows(
      this.statement('SELECT json FROM events WHERE profile = ? ORDER BY seq DESC LIMIT ?').all(profile, limit),
    );
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
      const aliased = sql
        .replace(/\b(profile|tool|category|outcome|at|search)\b/g, 'e.$1')
        .replaceAll('events.json', 'e.json');
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

  /**
   * Deletes every event and counter of every profile and restarts the counting period at `now`, so that nothing of
   * them is left in the file: `secure_delete` zeroes what is deleted, the full-text index is dropped whole (a
   * contentless index would otherwise keep deleted rows' terms until a merge), free pages go back to the file
   * system and the WAL, which still holds the pages as they were, is checkpointed and truncated to zero bytes.
   * `erased` is false when another process's open read kept the WAL from being emptied (retried a few times).
   */
  clear(now: number): ClearResult {
    this.db.exec('PRAGMA secure_delete = ON');
    try {
      this.transaction(() => {
        const through = this.meta('fts_through');
        const erasedCalls = Number(
          this.statement("SELECT sum(calls) AS n FROM counters WHERE kind = 'total'").get()?.['n'] ?? 0,
        );
        this.db.exec('DELETE FROM events; DELETE FROM counters; DELETE FROM harness_counters; DELETE FROM meta;');
        // the clear's own receipt, kept through it: when, and how many counted calls (all profiles) it erased
        this.setMeta(LAST_CLEAR_AT, now);
        this.setMeta(LAST_CLEAR_ERASED, Number.isFinite(erasedCalls) ? Math.max(0, erasedCalls) : 0);
        if (this.fullText) this.db.exec("INSERT INTO events_fts (events_fts) VALUES ('delete-all')");
        this.statement('INSERT INTO meta (key, value) VALUES (?, ?)').run('since', now);
        // seq is never reused (AUTOINCREMENT), so the index stays valid for every row below the old mark
        if (through > 0) this.setMeta('fts_through', through);
      });
      this.db.exec('PRAGMA incremental_vacuum');
    } finally {
      this.db.exec('PRAGMA secure_delete = OFF');
    }
    if (this.path === ':memory:') return { erased: true };
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const row = this.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
      if (Number(row?.['busy'] ?? 1) === 0) return { erased: true };
    }
    return { erased: false };
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
