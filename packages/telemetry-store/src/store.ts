/**
 * The telemetry store the adapter talks to (Node only). `record()` runs on DSH's tool pipeline, so it only checks
 * the input's shape, adds it to an O(1) pending count and puts a bounded snapshot of it in a bounded queue. The
 * writer (a timer, or `flush()`) turns the queue into redacted events (own rules, then secretlint), writes events
 * and counts to the SQLite database in one transaction, then appends the events to the JSONL journal. `stats()`
 * and `events()` read the database, so they show every process sharing the directory. A directory that cannot be
 * written turns the store into an in-memory database with one warning: counting and stats continue. A database
 * another process holds locked at start is not waited for: the store opens it on a later writer cycle, keeping
 * everything recorded meanwhile queued (a busy lock is transient, never a reason to stop saving).
 */
import { mkdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { captureInput, captureString, resolveCapture, type DeferBudget } from './capture.js';
import { OTHER } from './counters.js';
import {
  ForeignDatabaseError,
  TelemetryDatabase,
  isBusyError,
  isCorruptError,
  moveAside,
  type WriteBatch,
} from './database.js';
import { boundEvent, cutLabel, inputProblem, plainName, redactTexts, tokenCount, type RedactedTexts } from './event.js';
import { appendLines, rotateLog, truncateLog } from './log-file.js';
import { serializeEvent } from './log-format.js';
import { MAX_KEY_CHARS } from './counters.js';
import {
  isRepeatCaught,
  type EventsPage,
  type EventsQuery,
  type Outcome,
  type StatsPayload,
  type StatsQuery,
  type TelemetryEvent,
  type TelemetryEventInput,
} from './schema.js';
import { scanSecrets } from './secret-scan.js';
import {
  computeStats,
  DEFAULT_MIN_CALLS,
  validateEventsQuery,
  validateStatsQuery,
  DEFAULT_EVENTS_LIMIT,
} from './stats.js';

export const LOG_FILE_NAME = 'tool-normalizer-events.jsonl';
export const DATABASE_FILE_NAME = 'tool-normalizer.sqlite';
export const DEFAULT_MAX_LOG_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_STORED_EVENTS = 200_000;
export const DEFAULT_MAX_STORED_BYTES = 256 * 1024 * 1024;
export const DEFAULT_MAX_QUEUED_EVENTS = 1000;

export interface TelemetryStoreOptions {
  /** Directory of the database and the journal (the adapter passes `$DSH_HOME`, or `~/.dsh`). */
  dir: string;
  /** Size at which the JSONL journal is rotated, keeping its newest half (default 4 MiB, minimum 64 KiB). */
  maxLogBytes?: number;
  /** Event rows kept in the database; the oldest are deleted past it (default 200,000). Counters are kept. */
  maxStoredEvents?: number;
  /** Bytes of event rows kept in the database (JSON plus search text; default 256 MiB, minimum 1 MiB). */
  maxStoredBytes?: number;
  /** Events waiting for the writer; past it the oldest is dropped and counted as `dropped` (default 1000). */
  maxQueuedEvents?: number;
  /** Also store successful untouched calls as events (default false: they live only in counters). */
  persistPassthrough?: boolean;
  now?: () => number;
  /** Receives the store's warnings (default: console.warn with a prefix). */
  warn?: (message: string) => void;
  /** Delay between a record and the batched write (default 200 ms). */
  flushIntervalMs?: number;
  /** How long a write waits for another process's transaction before retrying later (default 1000 ms). */
  busyTimeoutMs?: number;
  /** Newest stored events the stats payload's `recent` list is taken from (default 500). */
  recentCapacity?: number;
  /** Distinct tool names counted separately before folding into "other" (default 200). */
  maxTools?: number;
  /** Distinct categories counted separately before folding into "other" (default 100). */
  maxCategories?: number;
  /** Minimum calls for a tool or category to be ranked (default 5). */
  minCalls?: number;
}

export interface TelemetryStore {
  readonly databasePath: string;
  readonly logPath: string;
  /** False when the store runs on an in-memory database (the directory could not be used). */
  readonly logging: boolean;
  /**
   * Events this store instance dropped from its full write queue since it was created (this process only; their
   * calls are still counted). The stats' `storage.dropped` is the shared total of every process, kept in the database.
   */
  readonly droppedEvents: number;
  /** Counts one intercepted call and queues its event. Synchronous, O(1); never throws for bad input. */
  record(event: TelemetryEventInput): void;
  /**
   * The stats payload from what is committed in the database (every process sharing the directory). Events still
   * queued in this process are not in it: `await flush()` first to include them (the stats route does). Throws
   * StatsQueryError for a bad query.
   */
  stats(query?: StatsQuery): StatsPayload;
  /** Writes what is queued, then a page of stored events matching the filters (newest first). */
  queryEvents(query?: EventsQuery): Promise<EventsPage>;
  /** Deletes every stored event and counter (of every process sharing the directory) and truncates the journal. */
  clear(): Promise<void>;
  /** Writes everything queued so far. */
  flush(): Promise<void>;
  /** Flushes and closes the database; later records are ignored. */
  close(): Promise<void>;
}

interface QueuedEvent {
  /** The bounded snapshot; huge strings in it may still be kept by reference (`resolveCapture` cuts them). */
  input: TelemetryEventInput;
  at: number;
  /** Characters of the caller's strings this snapshot keeps by reference (returned to the budget when it leaves). */
  deferredChars: number;
}

interface PendingCount {
  tool: string;
  category: string;
  outcome: Outcome;
  calls: number;
  tokensSaved: number;
}

/** Distinct (tool, category, outcome) triples counted between two flushes before new ones fold into "other". */
const MAX_PENDING_KEYS = 2000;
/**
 * Characters of huge caller strings all queued snapshots together may keep by reference until the writer cuts them
 * (so that record() never reads, and so never flattens, a huge string). Past it, strings are cut on the spot.
 */
const DEFER_BUDGET_CHARS = 256 * 1024 * 1024;
/** How long close() keeps retrying a write another process's lock held up (at least; 5 busy timeouts if longer). */
const CLOSE_RETRY_MS = 5000;
/** Raw names remembered with their redacted display names for an exit-time save. */
const MAX_KNOWN_NAMES = 4096;
/** Events turned into rows per writer step before yielding to the event loop. */
const BUILD_SLICE = 16;

type CountOption =
  | 'maxLogBytes'
  | 'flushIntervalMs'
  | 'minCalls'
  | 'maxTools'
  | 'maxCategories'
  | 'recentCapacity'
  | 'maxStoredEvents'
  | 'maxStoredBytes'
  | 'maxQueuedEvents'
  | 'busyTimeoutMs';

/** A whole-number option (undefined means the default); anything else is a clear TypeError, not a silent default. */
function countOption(options: TelemetryStoreOptions, name: CountOption, fallback: number, minimum = 1): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new TypeError(`createTelemetryStore: \`${name}\` must be an integer >= ${minimum}, got ${String(value)}`);
  }
  return value;
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && code !== 'ERR_SQLITE_ERROR') return code;
  return error instanceof Error ? error.message : String(error);
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createTelemetryStore(options: TelemetryStoreOptions): TelemetryStore {
  return new SqliteTelemetryStore(options);
}

class SqliteTelemetryStore implements TelemetryStore {
  readonly databasePath: string;
  readonly logPath: string;
  private readonly dir: string;
  private readonly maxLogBytes: number;
  private readonly persistPassthrough: boolean;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly flushIntervalMs: number;
  private readonly minCalls: number;
  private readonly recentCapacity: number;
  private readonly maxQueued: number;
  private readonly caps: { maxTools: number; maxCategories: number };
  private readonly retention: { maxRows: number; maxBytes: number };
  private db: TelemetryDatabase;
  private readonly busyTimeoutMs: number;
  /** True while the file could not be opened because another process held its lock (`db` is an empty stand-in). */
  private waitingForFile = false;
  /** Display names this process already passed through both redaction layers (what an exit-time save may use). */
  private readonly knownNames = new Map<string, string>();
  private persistent = true;
  private journaling = true;

  /** Bounded FIFO of snapshots waiting for the writer (a ring: push and drop-oldest are O(1)). */
  private readonly queue: (QueuedEvent | undefined)[];
  private queueHead = 0;
  private queueSize = 0;
  private droppedSinceFlush = 0;
  private droppedHere = 0;
  private readonly deferBudget: DeferBudget = { remaining: DEFER_BUDGET_CHARS, used: 0 };
  private pendingCounts = new Map<string, PendingCount>();
  /** A batch built but not yet committed (another process held the lock): written first by the next cycle. */
  private unwritten: WriteBatch | undefined;
  /** What the current writer cycle took from the queue and the counts while it redacts (for an exit-time save). */
  private inFlight: { pending: PendingCount[]; events: number; dropped: number; repeats: number } | undefined;
  private repeatsSinceFlush = 0;
  private ioChain: Promise<void> = Promise.resolve();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private rejectedInputs = 0;
  private invalidRows = 0;
  private warnedRejected = false;
  private warnedScan = false;
  private readonly idPrefix = Math.random().toString(36).slice(2, 8);
  private sequence = 0;

  constructor(options: TelemetryStoreOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '')
      throw new TypeError('createTelemetryStore needs a non-empty `dir`');
    this.dir = options.dir;
    this.databasePath = join(options.dir, DATABASE_FILE_NAME);
    this.logPath = join(options.dir, LOG_FILE_NAME);
    this.maxLogBytes = Math.max(64 * 1024, countOption(options, 'maxLogBytes', DEFAULT_MAX_LOG_BYTES));
    this.persistPassthrough = options.persistPassthrough ?? false;
    this.now = options.now ?? Date.now;
    const warn = options.warn ?? ((message: string) => console.warn(`[tool-normalizer] ${message}`));
    this.warn = (message) => {
      try {
        warn(message);
      } catch {
        // a failing logger must not turn telemetry into a failure of the call being recorded
      }
    };
    this.flushIntervalMs = countOption(options, 'flushIntervalMs', 200, 0);
    this.minCalls = countOption(options, 'minCalls', DEFAULT_MIN_CALLS);
    this.recentCapacity = countOption(options, 'recentCapacity', 500);
    this.maxQueued = countOption(options, 'maxQueuedEvents', DEFAULT_MAX_QUEUED_EVENTS);
    this.caps = {
      maxTools: countOption(options, 'maxTools', 200),
      maxCategories: countOption(options, 'maxCategories', 100),
    };
    this.retention = {
      maxRows: countOption(options, 'maxStoredEvents', DEFAULT_MAX_STORED_EVENTS),
      maxBytes: countOption(options, 'maxStoredBytes', DEFAULT_MAX_STORED_BYTES, 1024 * 1024),
    };
    this.queue = new Array<QueuedEvent | undefined>(this.maxQueued);
    this.busyTimeoutMs = countOption(options, 'busyTimeoutMs', 1000, 0);
    // No busy wait here: this runs at plugin load on DSH's thread. A locked file is opened by a later writer cycle.
    this.db = this.open(0) ?? this.standIn();
    process.on('exit', this.saveAtExit);
  }

  get logging(): boolean {
    return this.persistent;
  }

  get droppedEvents(): number {
    return this.droppedHere;
  }

  /**
   * The database in `dir`, waiting at most `busyTimeoutMs` for another process's lock. A corrupt file is moved aside
   * and rebuilt; someone else's database is left alone; a directory that cannot be used gives an in-memory database
   * (each case warns once). Undefined, with `waitingForFile` set, when the file is locked: never throws.
   */
  private open(busyTimeoutMs: number): TelemetryDatabase | undefined {
    const options = { busyTimeoutMs, now: this.now() };
    try {
      mkdirSync(this.dir, { recursive: true });
      let db: TelemetryDatabase;
      try {
        db = new TelemetryDatabase(this.databasePath, options);
      } catch (error) {
        if (!isCorruptError(error)) throw error;
        const movedTo = moveAside(this.databasePath, options.now);
        this.warn(
          `the telemetry database ${this.databasePath} was corrupt (${errorCode(error)}); moved to ${movedTo} and started a new one`,
        );
        db = new TelemetryDatabase(this.databasePath, options);
      }
      db.setBusyTimeout(this.busyTimeoutMs);
      this.waitingForFile = false;
      return db;
    } catch (error) {
      if (isBusyError(error)) {
        this.waitingForFile = true;
        return undefined;
      }
      this.waitingForFile = false;
      const reason = error instanceof ForeignDatabaseError ? error.message : errorCode(error);
      this.warn(`telemetry is not saved: cannot use ${this.databasePath} (${reason}); counting continues in memory`);
      this.persistent = false;
      this.journaling = false;
      return new TelemetryDatabase(':memory:', options);
    }
  }

  /** An empty in-memory database read by stats() while the file is locked; it is never written. */
  private standIn(): TelemetryDatabase {
    return new TelemetryDatabase(':memory:', { busyTimeoutMs: 0, now: this.now() });
  }

  /**
   * While the file was locked at open: tries again, waiting at most `busyTimeoutMs` (the writer waits as long as a
   * write would; stats() does not wait). True when the store's database is ready to write.
   */
  private openIfWaiting(busyTimeoutMs: number): boolean {
    if (!this.waitingForFile) return true;
    const db = this.open(busyTimeoutMs);
    if (db === undefined) return false;
    this.db.close();
    this.db = db;
    return true;
  }

  record(input: TelemetryEventInput): void {
    if (this.closed) return;
    const problem = inputProblem(input);
    if (problem !== undefined) {
      this.rejectedInputs += 1;
      if (!this.warnedRejected) {
        this.warnedRejected = true;
        this.warn(`telemetry input ignored: ${problem} (further bad inputs are only counted)`);
      }
      return;
    }
    const at = typeof input.at === 'number' && Number.isFinite(input.at) && input.at >= 0 ? input.at : this.now();
    this.count(input.tool, input.category, input.outcome, tokenCount(input.tokensSaved));
    if (isRepeatCaught(input)) this.repeatsSinceFlush += 1;
    if (input.outcome !== 'passthrough' || this.persistPassthrough) {
      this.deferBudget.used = 0;
      const captured = captureInput(input, this.deferBudget);
      this.enqueue({ input: captured, at, deferredChars: this.deferBudget.used });
    }
    this.scheduleFlush();
  }

  /** Adds one call to the pending counts. O(1): names are only looked up, never redacted or copied here. */
  private count(rawTool: string, rawCategory: string, outcome: Outcome, tokensSaved: number): void {
    const tool = rawTool.length > 1024 ? captureString(rawTool, 512) : rawTool;
    const category = rawCategory.length > 1024 ? captureString(rawCategory, 512) : rawCategory;
    let key = `${outcome}\u0000${tool}\u0000${category}`;
    let pending = this.pendingCounts.get(key);
    if (!pending) {
      if (this.pendingCounts.size >= MAX_PENDING_KEYS) {
        key = `${outcome}\u0000${OTHER}\u0000${OTHER}`;
        pending = this.pendingCounts.get(key);
      }
      if (!pending) {
        const folded = this.pendingCounts.size >= MAX_PENDING_KEYS;
        pending = {
          tool: folded ? OTHER : tool,
          category: folded ? OTHER : category,
          outcome,
          calls: 0,
          tokensSaved: 0,
        };
        this.pendingCounts.set(key, pending);
      }
    }
    pending.calls += 1;
    pending.tokensSaved += tokensSaved;
  }

  private enqueue(item: QueuedEvent): void {
    if (this.queueSize === this.maxQueued) {
      this.deferBudget.remaining += (this.queue[this.queueHead] as QueuedEvent).deferredChars;
      this.queue[this.queueHead] = undefined;
      this.queueHead = (this.queueHead + 1) % this.maxQueued;
      this.queueSize -= 1;
      this.droppedSinceFlush += 1;
      this.droppedHere += 1;
    }
    this.queue[(this.queueHead + this.queueSize) % this.maxQueued] = item;
    this.queueSize += 1;
  }

  private takeQueue(): QueuedEvent[] {
    const items: QueuedEvent[] = [];
    for (let i = 0; i < this.queueSize; i += 1) {
      const index = (this.queueHead + i) % this.maxQueued;
      const item = this.queue[index] as QueuedEvent;
      this.deferBudget.remaining += item.deferredChars;
      items.push(item);
      this.queue[index] = undefined;
    }
    this.queueHead = 0;
    this.queueSize = 0;
    return items;
  }

  stats(query?: StatsQuery): StatsPayload {
    const valid = validateStatsQuery(query);
    this.openIfWaiting(0);
    const { counters, dropped, pruned, storedEvents } = this.db.readCounters(this.caps);
    const { events, invalid } = this.db.newestEvents(this.recentCapacity);
    return computeStats({
      counters,
      recent: events,
      query: valid,
      now: this.now(),
      defaultMinCalls: this.minCalls,
      storage: {
        logging: this.persistent,
        persistPassthrough: this.persistPassthrough,
        rejectedInputs: this.rejectedInputs,
        skippedLines: this.invalidRows + invalid,
        dropped,
        prunedEvents: pruned,
        storedEvents,
      },
    });
  }

  async queryEvents(query?: EventsQuery): Promise<EventsPage> {
    const valid = validateEventsQuery(query);
    await this.flush();
    const offset = valid.offset ?? 0;
    const limit = valid.limit ?? DEFAULT_EVENTS_LIMIT;
    if (valid.text !== undefined && valid.text !== '') this.db.refreshFullText();
    const { events, total, totalCapped, invalid } = this.db.queryEvents(valid, offset, limit);
    this.invalidRows += invalid;
    return { events, total, totalCapped, offset, limit };
  }

  clear(): Promise<void> {
    this.takeQueue();
    this.pendingCounts = new Map();
    this.droppedSinceFlush = 0;
    this.repeatsSinceFlush = 0;
    this.unwritten = undefined;
    this.rejectedInputs = 0;
    this.invalidRows = 0;
    return this.enqueueCycle(async () => {
      this.unwritten = undefined;
      this.openIfWaiting(this.busyTimeoutMs);
      this.db.clear(this.now());
      if (this.journaling) {
        try {
          await truncateLog(this.logPath);
        } catch (error) {
          this.stopJournal(error);
        }
      }
    });
  }

  flush(): Promise<void> {
    return this.enqueueCycle(() => this.writeCycle());
  }

  async close(): Promise<void> {
    if (this.closed) return this.ioChain;
    process.off('exit', this.saveAtExit);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const flushed = this.flush();
    this.closed = true;
    await flushed.catch(() => undefined);
    // Another process holding the lock is transient: retry (without blocking the thread between tries) for a while.
    const deadline = Date.now() + Math.max(CLOSE_RETRY_MS, 5 * this.busyTimeoutMs);
    while (this.hasUnsaved() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await this.flush().catch(() => undefined);
    }
    if (this.hasUnsaved())
      this.warn(`telemetry of this process was not saved: ${this.databasePath} stayed locked until close`);
    await this.enqueueCycle(async () => this.db.close());
  }

  /**
   * Counts or events this process has not written yet: a batch the lock held up, or anything recorded since (a cycle
   * that writes a held-up batch leaves what was queued meanwhile for the next cycle).
   */
  private hasUnsaved(): boolean {
    return (
      this.waitingForFile ||
      this.unwritten !== undefined ||
      this.queueSize > 0 ||
      this.pendingCounts.size > 0 ||
      this.droppedSinceFlush > 0 ||
      this.repeatsSinceFlush > 0
    );
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush().catch(() => undefined);
    }, this.flushIntervalMs);
    this.flushTimer.unref?.();
  }

  private enqueueCycle(work: () => Promise<void>): Promise<void> {
    const cycle = this.ioChain.then(work);
    this.ioChain = cycle.catch(() => undefined);
    return cycle;
  }

  /** Display names for this batch: each raw name redacted once (both layers), then cut; shared by events and counts. */
  private async displayNames(raw: Iterable<string>): Promise<Map<string, string>> {
    const names = [...new Set(raw)];
    const own = names.map(
      (name) => redactTexts({ tool: name, category: '', outcome: 'passthrough', ruleIds: [] }).tool,
    );
    const scanned = await this.scan(own, own);
    const display = new Map(names.map((name, i) => [name, cutLabel(scanned[i] as string, MAX_KEY_CHARS)]));
    for (const [name, shown] of display) {
      if (this.knownNames.size >= MAX_KNOWN_NAMES) break;
      if (name.length <= MAX_KEY_CHARS) this.knownNames.set(name, shown);
    }
    return display;
  }

  /**
   * The process is exiting without close() (a graceful `process.exit`): only synchronous work runs now, and the
   * secret scan is asynchronous. So the batch a lock held up is written as built, pending counts are written under
   * names already redacted by both layers, or plain identifier-like names (anything else counts as "other"), and queued events, which
   * cannot be redacted in time, are counted as dropped rather than stored.
   */
  private readonly saveAtExit = (): void => {
    if (this.closed) return;
    this.closed = true;
    try {
      if (!this.openIfWaiting(this.busyTimeoutMs)) return;
      if (this.unwritten !== undefined) this.db.writeBatch(this.unwritten, this.caps, this.retention);
      this.unwritten = undefined;
      const inFlight = this.inFlight ?? { pending: [], events: 0, dropped: 0, repeats: 0 };
      const dropped = this.droppedSinceFlush + this.takeQueue().length + inFlight.dropped + inFlight.events;
      const repeats = this.repeatsSinceFlush + inFlight.repeats;
      const counts = [...inFlight.pending, ...this.pendingCounts.values()].map((count) => ({
        tool: this.knownNames.get(count.tool) ?? plainName(count.tool) ?? OTHER,
        category: this.knownNames.get(count.category) ?? plainName(count.category) ?? OTHER,
        outcome: count.outcome,
        calls: count.calls,
        tokensSaved: count.tokensSaved,
      }));
      if (counts.length > 0 || dropped > 0) {
        this.db.writeBatch({ events: [], counts, repeats, dropped }, this.caps, this.retention);
      }
      this.db.close();
    } catch {
      // exiting: nothing more can be done, and an exit handler must not throw
    }
  };

  /** secretlint over texts; if it fails, `fallback` (warned once). */
  private async scan(texts: string[], fallback: string[]): Promise<string[]> {
    if (texts.length === 0) return texts;
    try {
      return await scanSecrets(texts);
    } catch (error) {
      if (!this.warnedScan) {
        this.warnedScan = true;
        this.warn(
          `secretlint could not run (${errorCode(error)}); free text is stored as [REDACTED: secret scan unavailable]`,
        );
      }
      return fallback;
    }
  }

  private async buildEvent(item: QueuedEvent, names: Map<string, string>): Promise<TelemetryEvent | undefined> {
    let texts: RedactedTexts;
    try {
      texts = redactTexts(resolveCapture(item.input));
    } catch {
      this.rejectedInputs += 1;
      return undefined;
    }
    const free = [
      texts.callId ?? '',
      texts.model ?? '',
      texts.before ?? '',
      texts.after ?? '',
      texts.error ?? '',
      ...texts.ruleIds,
      ...texts.changes,
    ];
    const unavailable = free.map((text) => (text === '' ? text : '[REDACTED: secret scan unavailable]'));
    const scanned = await this.scan(free, unavailable);
    const [callId, model, before, after, error, ...rest] = scanned as string[];
    const redacted: RedactedTexts = {
      tool: names.get(item.input.tool) ?? OTHER,
      category: names.get(item.input.category) ?? OTHER,
      ruleIds: rest.slice(0, texts.ruleIds.length),
      changes: rest.slice(texts.ruleIds.length),
    };
    if (texts.callId !== undefined) redacted.callId = callId as string;
    if (texts.model !== undefined) redacted.model = model as string;
    if (texts.before !== undefined) redacted.before = before as string;
    if (texts.after !== undefined) redacted.after = after as string;
    if (texts.error !== undefined) redacted.error = error as string;
    const id = `${item.at.toString(36)}-${this.idPrefix}-${(this.sequence++).toString(36)}`;
    return boundEvent(redacted, item.input, id, item.at);
  }

  /** One writer cycle: build the queued events, commit events and counts in one transaction, then journal them. */
  private async writeCycle(): Promise<void> {
    if (!this.openIfWaiting(this.busyTimeoutMs)) {
      // the file is still locked: keep counts and events queued and try again on the next cycle
      this.scheduleFlush();
      return;
    }
    if (this.unwritten === undefined) {
      const items = this.takeQueue();
      const pending = [...this.pendingCounts.values()];
      this.pendingCounts = new Map();
      const dropped = this.droppedSinceFlush;
      this.droppedSinceFlush = 0;
      const repeats = this.repeatsSinceFlush;
      this.repeatsSinceFlush = 0;
      if (items.length === 0 && pending.length === 0 && dropped === 0) return;
      this.inFlight = { pending, events: items.length, dropped, repeats };
      const names = await this.displayNames([
        ...pending.flatMap((count) => [count.tool, count.category]),
        ...items.flatMap((item) => [item.input.tool, item.input.category]),
      ]);
      const events: TelemetryEvent[] = [];
      for (let i = 0; i < items.length; i += 1) {
        const event = await this.buildEvent(items[i] as QueuedEvent, names);
        if (event) events.push(event);
        if (i % BUILD_SLICE === BUILD_SLICE - 1) await yieldToEventLoop();
      }
      const counts = pending.map((count) => ({
        tool: names.get(count.tool) ?? OTHER,
        category: names.get(count.category) ?? OTHER,
        outcome: count.outcome,
        calls: count.calls,
        tokensSaved: count.tokensSaved,
      }));
      this.unwritten = { events, counts, repeats, dropped };
      this.inFlight = undefined;
    }
    const batch = this.unwritten;
    try {
      this.db.writeBatch(batch, this.caps, this.retention);
    } catch (error) {
      if (isBusyError(error)) {
        this.scheduleFlush(); // another process holds the lock: keep the batch and retry on the next cycle
        return;
      }
      this.unwritten = undefined;
      this.fallBackToMemory(error, batch);
      return;
    }
    this.unwritten = undefined;
    if (this.journaling && batch.events.length > 0) await this.appendJournal(batch.events);
    if (this.hasUnsaved()) this.scheduleFlush(); // recorded while this batch waited for the lock
  }

  /** A write error other than a busy lock (disk full, file removed, permissions changed): continue in memory. */
  private fallBackToMemory(error: unknown, batch: WriteBatch): void {
    const previous = this.db;
    let carried: ReturnType<TelemetryDatabase['readCounters']> | undefined;
    try {
      carried = previous.readCounters(this.caps);
    } catch {
      carried = undefined;
    }
    previous.close();
    this.persistent = false;
    this.journaling = false;
    this.warn(
      `telemetry is not saved any more: writing ${this.databasePath} failed (${errorCode(error)}); counting continues in memory`,
    );
    this.db = new TelemetryDatabase(':memory:', { busyTimeoutMs: 0, now: carried?.counters.since ?? this.now() });
    if (carried) this.db.loadCounters(carried.counters, carried.dropped);
    this.db.writeBatch(batch, this.caps, this.retention);
  }

  private async appendJournal(events: TelemetryEvent[]): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true });
      const size = await appendLines(this.logPath, events.map(serializeEvent).join(''));
      if (size > this.maxLogBytes) await rotateLog(this.logPath, Math.floor(this.maxLogBytes / 2));
    } catch (error) {
      this.stopJournal(error);
    }
  }

  private stopJournal(error: unknown): void {
    if (!this.journaling) return;
    this.journaling = false;
    this.warn(
      `the telemetry journal ${this.logPath} is not written any more (${errorCode(error)}); the database still counts`,
    );
  }
}
