/**
 * The telemetry store the adapter talks to (Node only), composed of one part per concept:
 * - the record path (here): `record()` runs on DSH's tool pipeline, so it only checks the input's shape, adds the
 *   call to the pending counts (pending-counts.ts) and puts a bounded snapshot (capture.ts) in the bounded FIFO
 *   (event-queue.ts); it never throws;
 * - the writer (here): a timer or `flush()` takes at most `writeSliceEvents` snapshots at a time, redacts them
 *   (redaction-pipeline.ts, pausing between texts so DSH's event loop is never held for long: time-slice.ts), writes
 *   events and counts in one transaction and appends them to the journal (journal.ts);
 * - the database lifecycle (database-lifecycle.ts): private files, a lock at start, an episode in memory after a write
 *   error and the way back to the file;
 * - the save at exit (exit-save.ts).
 * `stats()` and `queryEvents()` read the database, so they show every process sharing the directory, one profile at a
 * time (the store's own unless the query names another or `'*'`).
 */
import { join } from 'node:path';
import { captureInput } from './capture.js';
import { StoreDatabase } from './database-lifecycle.js';
import type { HarnessCalls, WriteBatch } from './database.js';
import { inputProblem, tokenCount } from './event.js';
import { EventQueue } from './event-queue.js';
import { saveAtExit } from './exit-save.js';
import { Journal } from './journal.js';
import { Counters } from './counters.js';
import { OTHER } from './fold.js';
import { type PendingCount, PendingCounts } from './pending-counts.js';
import { RedactionPipeline } from './redaction-pipeline.js';
import { DEFAULT_EVENTS_LIMIT, validateEventsQuery, type EventsQuery } from './feed.js';
import {
  ALL_PROFILES,
  isRepeatCaught,
  type StoredEventsPage,
  type StatsPayload,
  type StatsQuery,
  type TelemetryEvent,
  type TelemetryEventInput,
} from './schema.js';
import { computeStats, validateStatsQuery } from './stats.js';
import {
  DATABASE_FILE_NAME,
  LOG_FILE_NAME,
  type ResolvedOptions,
  type TelemetryStoreOptions,
  errorCode,
  resolveOptions,
} from './store-options.js';
import { TimeSlicer } from './time-slice.js';

export type { HarnessCalls } from './database.js';
export {
  DATABASE_FILE_NAME,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_STORED_EVENTS,
  DEFAULT_PROFILE,
  LOG_FILE_NAME,
  type TelemetryStoreOptions,
} from './store-options.js';

/** How long close() keeps retrying a write another process's lock held up (at least; 5 busy timeouts if longer). */
const CLOSE_RETRY_MS = 5000;
export interface TelemetryStore {
  readonly databasePath: string;
  readonly logPath: string;
  /** The profile this store records under. */
  readonly profile: string;
  /** False when what is recorded does not reach the file now (an episode in memory, or a foreign file in the way). */
  readonly logging: boolean;
  /**
   * Events this store instance dropped from its full write queue since it was created (this process only; their
   * calls are still counted). The stats' `storage.dropped` is the shared total of every process, kept in the database.
   */
  readonly droppedEvents: number;
  /** Counts one intercepted call and queues its event. Synchronous, O(1); never throws, whatever the input. */
  record(event: TelemetryEventInput): void;
  /**
   * The stats payload from what is committed in the database (every process sharing the directory), for the query's
   * profile (default: this store's; `'*'`: every profile). Events still queued in this process are not in it:
   * `await flush()` first to include them (the stats route does). Throws QueryError for a bad query; after close(),
   * or when the database cannot be read, it answers an empty payload whose `storage.error` says why.
   */
  stats(query?: StatsQuery): StatsPayload;
  /** Writes what is queued, then a page of stored events matching the filters (newest first). QueryError if bad. */
  queryEvents(query?: EventsQuery): Promise<StoredEventsPage>;
  /**
   * The calls other harnesses than DSH (stores opened with `harness`, such as the MCP proxy's) recorded into this
   * directory, per harness and outcome, as committed in the database by every process sharing it: of one profile,
   * or of every profile (the default, `'*'`). Cheap (a small table). Undefined when the database cannot be read now
   * (closed, held by another process while it opens, counting in memory after a write failure): not "no calls".
   */
  harnessCalls(query?: { profile?: string }): HarnessCalls[] | undefined;
  /**
   * Erases every stored event and counter of every profile and process sharing the directory, from the database,
   * its WAL, its free pages and the journal (see CLEAR_SCOPE). Resolves to false when something could not be
   * erased yet (another process's open read kept the WAL; warned).
   */
  clear(): Promise<boolean>;
  /** Writes everything queued so far. */
  flush(): Promise<void>;
  /** Flushes and closes the database; later records are ignored. */
  close(): Promise<void>;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createTelemetryStore(options: TelemetryStoreOptions): TelemetryStore {
  return new SqliteTelemetryStore(options);
}

class SqliteTelemetryStore implements TelemetryStore {
  readonly databasePath: string;
  readonly logPath: string;
  readonly profile: string;
  private readonly options: ResolvedOptions;
  private readonly database: StoreDatabase;
  private readonly journal: Journal;
  private readonly pipeline: RedactionPipeline;
  private readonly queue: EventQueue;
  private readonly pending = new PendingCounts();
  private droppedHere = 0;
  /** A batch built but not yet committed (another process held the lock): written first by the next cycle. */
  private unwritten: WriteBatch | undefined;
  /** What the current writer cycle took from the queue and the counts while it redacts (for an exit-time save). */
  private inFlight: { pending: PendingCount[]; events: number; dropped: number; repeats: number } | undefined;
  private ioChain: Promise<void> = Promise.resolve();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private rejectedInputs = 0;
  private invalidRows = 0;
  private warnedRejected = false;
  private readonly idPrefix = Math.random().toString(36).slice(2, 8);
  private sequence = 0;

  constructor(options: TelemetryStoreOptions) {
    this.options = resolveOptions(options);
    this.profile = this.options.profile;
    this.databasePath = join(this.options.dir, DATABASE_FILE_NAME);
    this.logPath = join(this.options.dir, LOG_FILE_NAME);
    this.queue = new EventQueue(this.options.maxQueued);
    this.pipeline = new RedactionPipeline(this.options.warn);
    this.journal = new Journal(this.logPath, this.options.dir, this.options.maxLogBytes, this.options.warn);
    this.database = new StoreDatabase(this.databasePath, this.logPath, this.options);
    process.on('exit', this.exitListener);
  }

  get logging(): boolean {
    return this.database.persistent;
  }

  get droppedEvents(): number {
    return this.droppedHere;
  }

  record(input: TelemetryEventInput): void {
    if (this.closed) return;
    try {
      this.recordInput(input);
    } catch {
      // a hostile input (a throwing getter, a Proxy, a throwing toString): counted as rejected, never thrown
      this.reject('event input could not be read');
    }
  }

  private reject(problem: string): void {
    this.rejectedInputs += 1;
    if (this.warnedRejected) return;
    this.warnedRejected = true;
    this.options.warn(`telemetry input ignored: ${problem} (further bad inputs are only counted)`);
  }

  private recordInput(input: TelemetryEventInput): void {
    const problem = inputProblem(input);
    if (problem !== undefined) {
      this.reject(problem);
      return;
    }
    const { tool, category, outcome } = input;
    const given = input.at;
    const at = typeof given === 'number' && Number.isFinite(given) && given >= 0 ? given : this.options.now();
    const tokensSaved = tokenCount(input.tokensSaved);
    const repeat = isRepeatCaught(input);
    let captured: TelemetryEventInput | undefined;
    const budget = this.queue.deferBudget;
    if (outcome !== 'passthrough' || this.options.persistPassthrough) {
      budget.used = 0;
      captured = captureInput(input, budget); // the one step that reads the caller's values: may throw
    }
    if (captured === undefined) {
      // no event: the call is counted on its own
      this.pending.add(tool, category, outcome, tokensSaved);
      if (repeat) this.pending.repeats += 1;
    } else {
      // counted with its event, in the transaction that stores its row; an event dropped from the full queue
      // leaves its call to the pending counts, declared as dropped in the same write
      const dropped = this.queue.push({ input: captured, at, deferredChars: budget.used });
      if (dropped !== undefined) {
        this.pending.addInput(dropped.input);
        this.pending.dropped += 1;
        this.droppedHere += 1;
      }
    }
    this.scheduleFlush();
  }

  /** The stats of one profile, or an empty payload saying why the database could not be read. */
  stats(query?: StatsQuery): StatsPayload {
    const valid = validateStatsQuery(query);
    const profile = valid.profile ?? this.profile;
    const health = this.database.health();
    const storage = {
      logging: this.logging,
      persistPassthrough: this.options.persistPassthrough,
      rejectedInputs: this.rejectedInputs,
      ...health,
    };
    const base = { query: valid, now: this.options.now(), defaultMinCalls: this.options.minCalls, profile };
    try {
      if (this.closed) throw new Error('the store is closed');
      this.database.ready(0);
      const db = this.database.db;
      const only = profile === '*' ? undefined : profile;
      const { counters, dropped, pruned, storedEvents } = db.readCounters(this.options.caps, only);
      const { events, invalid } = db.newestEvents(this.options.recentCapacity, only);
      const lastClear = db.lastClear();
      return computeStats({
        ...base,
        counters,
        recent: events,
        profiles: db.profiles(),
        storage: {
          ...storage,
          skippedLines: this.invalidRows + invalid,
          dropped,
          prunedEvents: pruned,
          storedEvents,
          storedBytes: db.diskBytes(),
          ...(lastClear === undefined ? {} : { lastClear }),
        },
      });
    } catch (error) {
      return computeStats({
        ...base,
        counters: new Counters(0, this.options.caps),
        recent: [],
        storage: {
          ...storage,
          skippedLines: this.invalidRows,
          dropped: 0,
          prunedEvents: 0,
          storedEvents: 0,
          error: errorCode(error),
        },
      });
    }
  }

  harnessCalls(query?: { profile?: string }): HarnessCalls[] | undefined {
    const profile = query?.profile ?? ALL_PROFILES;
    if (this.closed) return undefined;
    try {
      if (!this.database.ready(0)) return undefined;
      return this.database.db.harnessCalls(profile === ALL_PROFILES ? undefined : profile);
    } catch {
      return undefined;
    }
  }

  async queryEvents(query?: EventsQuery): Promise<StoredEventsPage> {
    const valid = validateEventsQuery(query);
    if (this.closed) throw new Error('the telemetry store is closed');
    await this.flush();
    const offset = valid.offset ?? 0;
    const limit = valid.limit ?? DEFAULT_EVENTS_LIMIT;
    const profile = valid.profile ?? this.profile;
    const db = this.database.db;
    if (valid.text !== undefined && valid.text !== '') db.refreshFullText();
    const filter = { ...valid, profile: profile === '*' ? undefined : profile };
    const { events, total, totalCapped, invalid } = db.queryEvents(filter, offset, limit);
    this.invalidRows += invalid;
    return { events, total, totalCapped, offset, limit };
  }

  clear(): Promise<boolean> {
    this.queue.take();
    this.pending.clear();
    this.unwritten = undefined;
    this.rejectedInputs = 0;
    this.invalidRows = 0;
    let erased = false;
    return this.enqueueCycle(async () => {
      this.unwritten = undefined;
      erased = this.database.clear();
      await this.journal.truncate();
      if (!erased)
        this.options.warn(
          `clearing telemetry could not erase everything yet: another process kept ${this.databasePath}-wal open, or the file could not be written; the rest is erased on the next clear`,
        );
    }).then(() => erased);
  }

  /** Writes everything queued when it was called, one bounded step at a time. */
  flush(): Promise<void> {
    return this.enqueueCycle(async () => {
      let steps = Math.ceil(this.queue.size / this.options.sliceEvents) + 1;
      while (steps > 0) {
        steps -= 1;
        const progressed = await this.writeStep();
        if (!progressed || this.queue.size === 0) break;
        await yieldToEventLoop();
      }
      // an episode's backlog goes back to the file part by part, yielding between parts
      for (let parts = 0; this.database.hasBacklog && parts < 64; parts += 1) {
        const saved = this.database.retry(false);
        if (saved.length === 0 && this.database.hasBacklog) break;
        await this.journal.append(saved);
        await yieldToEventLoop();
      }
      if (this.database.hasBacklog) this.scheduleFlush(Math.max(this.options.flushIntervalMs, this.database.retryInMs));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return this.ioChain;
    process.off('exit', this.exitListener);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const flushed = this.flush();
    this.closed = true;
    await flushed.catch(() => undefined);
    // Another process holding the lock is transient: retry (without blocking the thread between tries) for a while.
    const deadline = Date.now() + Math.max(CLOSE_RETRY_MS, 5 * this.options.busyTimeoutMs);
    while (this.hasUnsaved() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await this.flush().catch(() => undefined);
    }
    if (this.hasUnsaved())
      this.options.warn(`telemetry of this process was not saved: ${this.databasePath} stayed locked until close`);
    await this.enqueueCycle(async () => {
      // a last try of the file: the backlog of an episode, part by part, as long as the file takes it
      while (this.database.hasBacklog) {
        const saved = this.database.retry(true);
        if (saved.length === 0 && this.database.hasBacklog) break;
        await this.journal.append(saved);
      }
      this.database.close();
    });
  }

  /**
   * Counts or events this process has not written yet: a batch the lock held up, or anything recorded since (a cycle
   * that writes a held-up batch leaves what was queued meanwhile for the next cycle).
   */
  private hasUnsaved(): boolean {
    return this.database.locked || this.unwritten !== undefined || this.queue.size > 0 || !this.pending.isEmpty;
  }

  private scheduleFlush(delayMs = this.options.flushIntervalMs): void {
    if (this.flushTimer !== undefined || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush().catch(() => undefined);
    }, delayMs);
    this.flushTimer.unref?.();
  }

  private enqueueCycle(work: () => Promise<void>): Promise<void> {
    const cycle = this.ioChain.then(work);
    this.ioChain = cycle.catch(() => undefined);
    return cycle;
  }

  private readonly exitListener = (): void => {
    if (this.closed) return;
    this.closed = true;
    saveAtExit({
      database: this.database,
      profile: this.profile,
      ...(this.options.harness === undefined ? {} : { harness: this.options.harness }),
      busyTimeoutMs: this.options.busyTimeoutMs,
      unwritten: this.unwritten,
      inFlight: this.inFlight,
      queue: this.queue,
      pending: this.pending,
      knownNames: this.pipeline.knownNames,
    });
  };

  /**
   * Takes at most `sliceEvents` snapshots and every pending count and turns them into a batch. The calls of the
   * snapshots taken are counted by their events (`writeBatch`), the pending counts are those of calls without one.
   */
  private async buildBatch(): Promise<WriteBatch | undefined> {
    if (this.queue.size === 0 && this.pending.isEmpty) return undefined;
    const items = this.queue.take(this.options.sliceEvents);
    const taken = this.pending.take();
    const { counts } = taken;
    let { repeats, dropped } = taken;
    // what an exit-time save must still count if the process exits while this batch is being redacted
    const itemCounts = new PendingCounts();
    for (const item of items) itemCounts.addInput(item.input);
    this.inFlight = {
      pending: [...counts, ...itemCounts.values()],
      events: items.length,
      dropped,
      repeats: repeats + itemCounts.repeats,
    };
    const slicer = new TimeSlicer();
    const names = await this.pipeline.displayNames(
      [
        ...counts.flatMap((count) => [count.tool, count.category]),
        ...items.flatMap((item) => [item.input.tool, item.input.category]),
      ],
      slicer,
    );
    const events: TelemetryEvent[] = [];
    for (const item of items) {
      const id = `${item.at.toString(36)}-${this.idPrefix}-${(this.sequence++).toString(36)}`;
      const event = await this.pipeline.buildEvent(item, names, id, this.profile, slicer);
      if (event && this.options.harness !== undefined) event.harness = this.options.harness;
      if (event) events.push(event);
      else {
        // a snapshot that cannot be read now: its call is counted without an event, declared as dropped
        this.rejectedInputs += 1;
        const lost = new PendingCounts();
        lost.addInput(item.input);
        counts.push(...lost.values());
        repeats += lost.repeats;
        dropped += 1;
      }
    }
    this.inFlight = undefined;
    return {
      profile: this.profile,
      ...(this.options.harness === undefined ? {} : { harness: this.options.harness }),
      events,
      counts: counts.map((count) => ({
        tool: names.get(count.tool) ?? OTHER,
        category: names.get(count.category) ?? OTHER,
        outcome: count.outcome,
        calls: count.calls,
        tokensSaved: count.tokensSaved,
      })),
      repeats,
      dropped,
    };
  }

  /** One writer step: build a bounded batch, commit it, journal it. False when nothing could be written now. */
  private async writeStep(): Promise<boolean> {
    if (!this.database.ready(this.options.busyTimeoutMs)) {
      this.scheduleFlush(); // the file is still locked: keep counts and events queued and try again later
      return false;
    }
    this.unwritten ??= await this.buildBatch();
    const batch = this.unwritten;
    if (batch === undefined) return false;
    const { busy, saved } = this.database.write(batch);
    if (busy) {
      this.scheduleFlush(); // another process holds the lock: keep the batch and retry on the next cycle
      return false;
    }
    this.unwritten = undefined;
    if (saved.length > 0) await this.journal.append(saved);
    if (this.hasUnsaved()) this.scheduleFlush(this.queue.size > 0 ? 0 : undefined);
    return true;
  }
}
