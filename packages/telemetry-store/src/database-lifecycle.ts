/**
 * Which database the store writes, and how it gets back to the file. States:
 * - `file`: the database in `dir` (private files, tightened on open; a corrupt one moved aside and rebuilt);
 * - `locked`: another process held the file's lock at start; an empty in-memory stand-in answers stats and a later
 *   writer cycle opens the file (a busy lock is transient, never a reason to stop saving);
 * - `episode`: the file could not be opened or written (disk full, removed, permissions): counting continues in an
 *   in-memory database carrying the numbers already shown, what is written meanwhile is also kept (bounded) in a
 *   backlog, and the file is tried again with a growing delay; when that works the backlog is saved in one
 *   transaction and the store is back on the file. One warning per episode; episodes are shown in the stats;
 * - `memory`: the file is another application's database (never touched), or a name SQLite would open (the database,
 *   `-wal`, `-shm`, `-journal`) is a symbolic link or not a regular file (never followed): in memory for good.
 * Node only.
 */
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { OTHER, rowWithinCap } from './fold.js';
import {
  type CountDelta,
  countsOfEvents,
  ForeignDatabaseError,
  TelemetryDatabase,
  type WriteBatch,
  isBusyError,
  isCorruptError,
  moveAside,
} from './database.js';
import {
  isNotRegularError,
  isRegularFile,
  makePrivateDir,
  NotRegularFileError,
  tightenStoreFiles,
  unsafeEntry,
} from './private-files.js';
import { isRepeatCaught, type TelemetryEvent } from './schema.js';
import { errorCode, type ResolvedOptions } from './store-options.js';

/** First delay before the file is tried again after a failure; it doubles up to the maximum. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

/** The store's state as the stats show it (`storage`). */
export interface StoreHealth {
  /** True while nothing reaches the file (an episode, or a foreign file in the way). */
  memoryOnly: boolean;
  /** Episodes of this process in which the file could not be written (each warned once). */
  writeEpisodes: number;
  /** The last error that started or prolonged an episode, if any. */
  lastWriteError?: string;
  /** Events kept in memory during the current episode, to be saved when the file is back. */
  unsavedEvents: number;
}

/** What a write did: `saved` are the events that reached the file now (the journal's lines); `busy`: try later. */
export interface WriteResult {
  busy: boolean;
  saved: TelemetryEvent[];
}

/**
 * What an episode keeps to save later: its events (bounded, oldest dropped and counted) and the merged counts of calls
 * without an event (each part saved takes some events, counted by their rows, and every count kept so far).
 */
class Backlog {
  events: TelemetryEvent[] = [];
  counts = new Map<string, CountDelta>();
  repeats = 0;
  dropped = 0;

  constructor(private readonly maxEvents: number) {}

  add(batch: WriteBatch): void {
    this.events.push(...batch.events);
    this.addCounts(batch.counts);
    if (this.events.length > this.maxEvents) {
      // an event dropped here leaves its call to the counts (a call is saved with its event, or counted as dropped)
      const lost = this.events.splice(0, this.events.length - this.maxEvents);
      this.dropped += lost.length;
      this.addCounts(countsOfEvents(lost));
      this.repeats += lost.filter((event) => isRepeatCaught(event)).length;
    }
    this.repeats += batch.repeats;
    this.dropped += batch.dropped;
  }

  private addCounts(counts: readonly CountDelta[]): void {
    for (const delta of counts) {
      const merged = rowWithinCap(
        this.counts,
        `${delta.outcome}\u0000${delta.tool}\u0000${delta.category}`,
        4 * this.maxEvents,
        () => `${delta.outcome}\u0000${OTHER}\u0000${OTHER}`,
        (folded) => ({
          ...delta,
          tool: folded ? OTHER : delta.tool,
          category: folded ? OTHER : delta.category,
          calls: 0,
          tokensSaved: 0,
        }),
      );
      merged.calls += delta.calls;
      merged.tokensSaved += delta.tokensSaved;
    }
  }

  get isEmpty(): boolean {
    return this.events.length === 0 && this.counts.size === 0 && this.repeats === 0 && this.dropped === 0;
  }

  /** The next part to save: the oldest `maxEvents` events and every number kept so far. */
  next(profile: string, maxEvents: number, harness?: string): WriteBatch {
    return {
      profile,
      ...(harness === undefined ? {} : { harness }),
      events: this.events.slice(0, maxEvents),
      counts: [...this.counts.values()],
      repeats: this.repeats,
      dropped: this.dropped,
    };
  }

  /** Forgets a part `next` returned, once it is saved. */
  taken(batch: WriteBatch): void {
    this.events.splice(0, batch.events.length);
    this.counts = new Map();
    this.repeats = 0;
    this.dropped = 0;
  }
}

export class StoreDatabase {
  db: TelemetryDatabase;
  private state: 'file' | 'locked' | 'episode' | 'memory' = 'file';
  private backlog: Backlog;
  private writeEpisodes = 0;
  private lastWriteError: string | undefined;
  private retryAt = 0;
  private retryDelay = RETRY_FIRST_MS;
  /** A clear() that could not reach the file during an episode: applied before the backlog is saved. */
  private clearPending = false;
  /** The file, opened again during an episode, while the backlog is saved to it part by part. */
  private draining: TelemetryDatabase | undefined;
  private warnedTighten = false;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly logPath: string,
    private readonly options: ResolvedOptions,
  ) {
    this.backlog = new Backlog(options.maxQueued);
    // No busy wait here: this runs at plugin load on DSH's thread. A locked file is opened by a later writer cycle.
    this.db = this.standIn();
    this.adopt(0);
  }

  /** True while another process's lock kept the file from being opened at start. */
  get locked(): boolean {
    return this.state === 'locked';
  }

  /** True while what is written reaches the file (or will, once another process's lock is released). */
  get persistent(): boolean {
    return this.state === 'file' || this.state === 'locked';
  }

  health(): StoreHealth {
    const health: StoreHealth = {
      memoryOnly: this.state === 'episode' || this.state === 'memory',
      writeEpisodes: this.writeEpisodes,
      unsavedEvents: this.state === 'episode' ? this.backlog.events.length : 0,
    };
    if (this.lastWriteError !== undefined) health.lastWriteError = this.lastWriteError;
    return health;
  }

  private standIn(): TelemetryDatabase {
    return new TelemetryDatabase(':memory:', { busyTimeoutMs: 0, now: this.options.now() });
  }

  /** The file's database, waiting at most `busyTimeoutMs` for a lock; throws what opening threw. */
  private openFile(busyTimeoutMs: number): TelemetryDatabase {
    const options = { busyTimeoutMs, now: this.options.now() };
    makePrivateDir(this.options.dir);
    // SQLite opens these names itself and would follow a symbolic link planted under one of them: lstat first
    const unsafe = unsafeEntry(['', '-wal', '-shm', '-journal'].map((suffix) => `${this.path}${suffix}`));
    if (unsafe !== undefined) throw new NotRegularFileError(unsafe);
    const loose = tightenStoreFiles(this.path, [this.logPath]);
    if (loose.length > 0 && !this.warnedTighten) {
      this.warnedTighten = true;
      this.options.warn(`telemetry files could not be made private (0600): ${loose.join(', ')}`);
    }
    let db: TelemetryDatabase;
    try {
      db = new TelemetryDatabase(this.path, options);
    } catch (error) {
      if (!isCorruptError(error)) throw error;
      const movedTo = moveAside(this.path, options.now);
      this.options.warn(
        `the telemetry database ${this.path} was corrupt (${errorCode(error)}); moved to ${movedTo} and started a new one`,
      );
      db = new TelemetryDatabase(this.path, options);
    }
    db.setBusyTimeout(this.options.busyTimeoutMs);
    return db;
  }

  /** Tries to make the file the database (from `locked`, or at start); sets the state from the outcome. */
  private adopt(busyTimeoutMs: number): void {
    try {
      const file = this.openFile(busyTimeoutMs);
      this.db.close();
      this.db = file;
      this.state = 'file';
    } catch (error) {
      if (isBusyError(error)) {
        this.state = 'locked';
        return;
      }
      if (isNotRegularError(error)) {
        this.state = 'memory';
        this.options.warn(
          `telemetry is not saved: ${(error as NotRegularFileError).path ?? this.path} is a symbolic link or not a regular file, and the store never follows or opens one in its folder (remove it to save again); counting continues in memory`,
        );
        return;
      }
      if (error instanceof ForeignDatabaseError) {
        this.state = 'memory';
        this.options.warn(
          `telemetry is not saved: cannot use ${this.path} (${error.message}); counting continues in memory`,
        );
        return;
      }
      this.startEpisode(error, undefined);
    }
  }

  /**
   * While the file was locked at start: tries again, waiting at most `busyTimeoutMs` (the writer waits as long as a
   * write would; stats() does not wait). False while it is still locked.
   */
  ready(busyTimeoutMs: number): boolean {
    if (this.state === 'locked') this.adopt(busyTimeoutMs);
    return this.state !== 'locked';
  }

  /** Starts an episode: an in-memory database carrying what `from` counted (when it can still be read). */
  private startEpisode(error: unknown, from: TelemetryDatabase | undefined): void {
    const memory = this.standIn();
    try {
      if (from !== undefined) memory.copyCountersFrom(from);
    } catch {
      // the file cannot even be read: the numbers start from the file's last state next time
    }
    from?.close();
    if (this.db !== from) this.db.close();
    this.db = memory;
    this.state = 'episode';
    this.writeEpisodes += 1;
    this.lastWriteError = errorCode(error);
    this.retryDelay = RETRY_FIRST_MS;
    this.retryAt = Date.now() + this.retryDelay;
    this.options.warn(
      `telemetry is not saved for now: ${this.path} could not be written (${this.lastWriteError}); counting continues in memory, the latest ${this.options.maxQueued} events and every count are saved when the file can be written again`,
    );
  }

  /** Writes a batch where the state says; never throws except for programming errors. */
  write(batch: WriteBatch): WriteResult {
    const { caps, retention } = this.options;
    if (this.state === 'file') {
      try {
        this.db.writeBatch(batch, caps, retention);
        return { busy: false, saved: batch.events };
      } catch (error) {
        if (isBusyError(error)) return { busy: true, saved: [] };
        this.startEpisode(error, this.db);
      }
    }
    this.db.writeBatch(batch, caps, retention);
    if (this.state !== 'episode') return { busy: false, saved: [] };
    this.backlog.add(batch);
    return { busy: false, saved: this.retry(false) };
  }

  /**
   * During an episode, when the delay has passed (or `now` is set): opens the file and saves the next part of the
   * backlog (at most `sliceEvents` events, with every count kept so far) in one transaction; the episode ends when the
   * backlog is empty. Returns the events saved (empty when the file is still unusable or it was not time yet).
   */
  retry(now: boolean): TelemetryEvent[] {
    return this.tryFile(now) ?? [];
  }

  /** retry(), telling apart "the file took this part" (the saved events, maybe none) from "not now" (undefined). */
  private tryFile(now: boolean): TelemetryEvent[] | undefined {
    if (this.state !== 'episode' || this.closed) return undefined;
    if (!now && Date.now() < this.retryAt) return undefined;
    try {
      this.draining ??= this.openFile(this.options.busyTimeoutMs);
      if (this.clearPending) this.draining.clear(this.options.now());
      this.clearPending = false;
      const batch = this.backlog.next(this.options.profile, this.options.sliceEvents, this.options.harness);
      this.draining.writeBatch(batch, this.options.caps, this.options.retention);
      this.backlog.taken(batch);
      this.retryAt = 0;
      this.retryDelay = RETRY_FIRST_MS;
      if (this.backlog.isEmpty) {
        this.db.close();
        this.db = this.draining;
        this.draining = undefined;
        this.state = 'file';
      }
      return batch.events;
    } catch (error) {
      this.draining?.close();
      this.draining = undefined;
      this.lastWriteError = errorCode(error);
      this.retryDelay = Math.min(RETRY_MAX_MS, this.retryDelay * 2);
      this.retryAt = Date.now() + this.retryDelay;
      return undefined;
    }
  }

  /** True while an episode keeps something the file has not got yet. */
  get hasBacklog(): boolean {
    return this.state === 'episode' && !this.backlog.isEmpty;
  }

  /** Milliseconds until the next retry of the file (0 when one is due or there is no episode). */
  get retryInMs(): number {
    return this.state === 'episode' ? Math.max(0, this.retryAt - Date.now()) : 0;
  }

  /**
   * Erases every event and counter (see TelemetryDatabase.clear) and the copies a corrupt database was moved aside
   * to. During an episode the file is cleared when it can be opened, else as soon as it can. False when something
   * could not be erased yet.
   */
  clear(): boolean {
    const now = this.options.now();
    this.backlog = new Backlog(this.options.maxQueued);
    this.ready(this.options.busyTimeoutMs);
    let erased = true;
    if (this.state === 'episode') {
      this.clearPending = true;
      this.db.clear(now);
      erased = this.tryFile(true) !== undefined;
    } else {
      erased = this.db.clear(now).erased;
    }
    if (this.state !== 'memory') erased = this.removeMovedAside() && erased;
    return erased;
  }

  /** Deletes `<database>.corrupt-*` copies (they hold events too). False when one could not be deleted. */
  private removeMovedAside(): boolean {
    const prefix = `${basename(this.path)}.corrupt-`;
    let entries: string[];
    try {
      entries = readdirSync(dirname(this.path)).filter((entry) => entry.startsWith(prefix));
    } catch {
      return true;
    }
    let removed = true;
    for (const entry of entries) {
      try {
        // only a regular file the store moved aside: a link planted under such a name is left alone
        if (!isRegularFile(join(dirname(this.path), entry))) continue;
        rmSync(join(dirname(this.path), entry), { force: true });
      } catch {
        removed = false;
      }
    }
    return removed;
  }

  close(): void {
    this.closed = true;
    this.draining?.close();
    this.db.close();
  }
}
