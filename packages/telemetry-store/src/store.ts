/**
 * The telemetry store the adapter talks to (Node only). `record()` runs on the caller's path, so it only
 * validates, bumps O(1) counters and queues the input; building redacted events, appending to the JSONL log,
 * rotating it and replacing the summary happen later on one serialized I/O chain. Any file error turns
 * logging off with a single warning while counting in memory continues.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Counters } from './counters.js';
import { buildEvent, inputProblem, tokenCount } from './event.js';
import { appendLines, readTailSync, rotateLog, truncateLog, writeFileAtomic } from './log-file.js';
import { parseLogText, serializeEvent } from './log-format.js';
import { RingBuffer } from './ring-buffer.js';
import { summaryValidator, type StatsPayload, type StatsQuery, type Summary, type TelemetryEvent, type TelemetryEventInput } from './schema.js';
import { computeStats, countersFromEvents, DEFAULT_MIN_CALLS } from './stats.js';

export const LOG_FILE_NAME = 'tool-normalizer-events.jsonl';
export const SUMMARY_FILE_NAME = 'tool-normalizer-summary.json';
export const DEFAULT_MAX_LOG_BYTES = 4 * 1024 * 1024;

export interface TelemetryStoreOptions {
  /** Directory of the log and the summary (the adapter passes `$DSH_HOME`, or `~/.dsh`). */
  dir: string;
  /** Size at which the log is rotated, keeping the newest half (default 4 MiB, minimum 64 KiB). */
  maxLogBytes?: number;
  /** Also log successful untouched calls as events (default false: they live only in counters). */
  persistPassthrough?: boolean;
  now?: () => number;
  /** Receives the store's warnings (default: console.warn with a prefix). */
  warn?: (message: string) => void;
  /** Delay between a record and the batched write (default 200 ms). */
  flushIntervalMs?: number;
  /** Most recent events kept in memory for the stats payload (default 500). */
  recentCapacity?: number;
  /** Distinct tool names counted separately before folding into "other" (default 200). */
  maxTools?: number;
  /** Distinct categories counted separately before folding into "other" (default 100). */
  maxCategories?: number;
  /** Minimum calls for a tool or category to be ranked (default 5). */
  minCalls?: number;
}

export interface TelemetryStore {
  readonly logPath: string;
  readonly summaryPath: string;
  /** False once a file error turned logging off (counting continues in memory). */
  readonly logging: boolean;
  /** Counts one intercepted call and queues its event. Synchronous and cheap; never throws for bad input. */
  record(event: TelemetryEventInput): void;
  /** The stats payload, from counters kept in memory (never re-reads the log). Throws StatsQueryError for a bad query. */
  stats(query?: StatsQuery): StatsPayload;
  /** Resets counters and recent events at once, and truncates the log and summary (including queued writes). */
  clear(): Promise<void>;
  /** Writes everything queued so far (events and summary). */
  flush(): Promise<void>;
  /** Flushes and stops the timers; later records are counted in memory only. */
  close(): Promise<void>;
}

interface PendingInput {
  input: TelemetryEventInput;
  at: number;
}

/** Pending inputs past this count are turned into events at once, so memory stays bounded between flushes. */
const MAX_PENDING_INPUTS = 128;
/** Largest single append; a batch is split at line boundaries above this. */
const MAX_APPEND_BYTES = 256 * 1024;
/** Bytes read from the end of the log at boot to refill the recent-events buffer when the summary is valid. */
const BOOT_TAIL_BYTES = 1024 * 1024;

/** ENOENT, or ENOTDIR (a path component is a file): there is simply nothing to read. */
function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

type CountOption = 'maxLogBytes' | 'flushIntervalMs' | 'minCalls' | 'maxTools' | 'maxCategories' | 'recentCapacity';

/** A whole-number option (undefined means the default); anything else is a clear TypeError, not a silent default. */
function countOption(options: TelemetryStoreOptions, name: CountOption, fallback: number, minimum = 1): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new TypeError(`createTelemetryStore: \`${name}\` must be an integer >= ${minimum}, got ${String(value)}`);
  }
  return value;
}

export function createTelemetryStore(options: TelemetryStoreOptions): TelemetryStore {
  return new FileTelemetryStore(options);
}

class FileTelemetryStore implements TelemetryStore {
  readonly logPath: string;
  readonly summaryPath: string;
  private readonly dir: string;
  private readonly maxLogBytes: number;
  private readonly persistPassthrough: boolean;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly flushIntervalMs: number;
  private readonly minCalls: number;
  private readonly counterOptions: { maxTools?: number; maxCategories?: number };

  /** What stats show: restored counters plus everything recorded here. */
  private counters: Counters;
  /** Counted here but not yet merged into the summary file. */
  private unsaved: Counters;
  private readonly recent: RingBuffer<TelemetryEvent>;
  private pendingInputs: PendingInput[] = [];
  private pendingLines: string[] = [];
  /** Characters in pendingLines; past maxLogBytes the oldest lines are dropped (rotation would drop them anyway). */
  private pendingChars = 0;
  private summaryDirty = false;
  /** Set by clear(): the next I/O cycle truncates the log and overwrites the summary instead of merging. */
  private truncatePending = false;
  /** Bumped by clear(), so an I/O cycle that started before it does not write stale counters back. */
  private generation = 0;
  private ioChain: Promise<void> = Promise.resolve();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private loggingEnabled = true;
  private closed = false;
  private rejectedInputs = 0;
  private skippedLines = 0;
  private warnedRejected = false;
  private readonly idPrefix = Math.random().toString(36).slice(2, 8);
  private sequence = 0;

  constructor(options: TelemetryStoreOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '') throw new TypeError('createTelemetryStore needs a non-empty `dir`');
    this.dir = options.dir;
    this.logPath = join(options.dir, LOG_FILE_NAME);
    this.summaryPath = join(options.dir, SUMMARY_FILE_NAME);
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
    this.counterOptions = { maxTools: countOption(options, 'maxTools', 200), maxCategories: countOption(options, 'maxCategories', 100) };
    this.recent = new RingBuffer<TelemetryEvent>(countOption(options, 'recentCapacity', 500));
    const bootTime = this.now();
    this.counters = new Counters(bootTime, this.counterOptions);
    this.unsaved = new Counters(bootTime, this.counterOptions);
    this.restore();
  }

  get logging(): boolean {
    return this.loggingEnabled;
  }

  /** Boot: counters from the summary when it is valid, else rebuilt from the log; recent events from the log's tail. */
  private restore(): void {
    const summary = this.readSummarySync();
    let tail;
    try {
      tail = readTailSync(this.logPath, summary ? BOOT_TAIL_BYTES : 4 * this.maxLogBytes);
    } catch (error) {
      this.warn(`cannot read the telemetry log ${this.logPath} (${errorCode(error)}); starting from the summary alone`);
    }
    const parsed = tail ? parseLogText(tail.text, { startsMidLine: tail.startsMidLine }) : { events: [], skipped: 0 };
    this.skippedLines += parsed.skipped;
    if (summary) {
      this.counters.addSummary(summary);
      this.counters.since = summary.since;
    } else if (parsed.events.length > 0) {
      this.counters = countersFromEvents(parsed.events, this.counters.since, this.counterOptions);
      this.unsaved.addCounters(this.counters);
      this.summaryDirty = true;
    }
    const start = Math.max(0, parsed.events.length - this.recent.capacity);
    for (let i = start; i < parsed.events.length; i += 1) this.recent.push(parsed.events[i] as TelemetryEvent);
  }

  private readSummarySync(): Summary | undefined {
    let text: string;
    try {
      text = readFileSync(this.summaryPath, 'utf8');
    } catch (error) {
      if (!isMissing(error)) this.warn(`cannot read the telemetry summary ${this.summaryPath} (${errorCode(error)}); rebuilding counters from the log`);
      return undefined;
    }
    return this.parseSummary(text);
  }

  private parseSummary(text: string): Summary | undefined {
    try {
      const value: unknown = JSON.parse(text);
      return summaryValidator.Check(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  record(input: TelemetryEventInput): void {
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
    const tokensSaved = tokenCount(input.tokensSaved);
    this.counters.add(input.tool, input.category, input.outcome, tokensSaved);
    this.unsaved.add(input.tool, input.category, input.outcome, tokensSaved);
    this.summaryDirty = true;
    if (input.outcome !== 'passthrough' || this.persistPassthrough) {
      this.pendingInputs.push({ input, at });
      if (this.pendingInputs.length >= MAX_PENDING_INPUTS) this.materialize();
    }
    this.scheduleFlush();
  }

  stats(query?: StatsQuery): StatsPayload {
    this.materialize();
    return computeStats({
      counters: this.counters,
      recent: this.recent.newestFirst(),
      query,
      now: this.now(),
      defaultMinCalls: this.minCalls,
      storage: {
        logging: this.loggingEnabled,
        persistPassthrough: this.persistPassthrough,
        rejectedInputs: this.rejectedInputs,
        skippedLines: this.skippedLines,
      },
    });
  }

  clear(): Promise<void> {
    const now = this.now();
    this.generation += 1;
    this.counters.reset(now);
    this.unsaved.reset(now);
    this.recent.clear();
    this.pendingInputs = [];
    this.pendingLines = [];
    this.pendingChars = 0;
    this.skippedLines = 0;
    this.rejectedInputs = 0;
    this.truncatePending = true;
    this.summaryDirty = true;
    return this.enqueueCycle();
  }

  flush(): Promise<void> {
    this.materialize();
    return this.enqueueCycle();
  }

  async close(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.materialize();
    this.closed = true;
    await this.enqueueCycle();
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined || this.closed || !this.loggingEnabled) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.flushIntervalMs);
    this.flushTimer.unref?.();
  }

  /** Turns queued inputs into redacted events: into the recent buffer and, when logging, into pending lines. */
  private materialize(): void {
    const inputs = this.pendingInputs;
    if (inputs.length === 0) return;
    this.pendingInputs = [];
    for (const { input, at } of inputs) {
      let event: TelemetryEvent;
      try {
        event = buildEvent(input, `${at.toString(36)}-${this.idPrefix}-${(this.sequence++).toString(36)}`, at);
      } catch {
        this.rejectedInputs += 1;
        continue;
      }
      this.recent.push(event);
      if (this.loggingEnabled && !this.closed) {
        const line = serializeEvent(event);
        this.pendingLines.push(line);
        this.pendingChars += line.length;
        if (this.pendingChars > this.maxLogBytes) this.keepNewestPendingLines();
      }
    }
  }

  private enqueueCycle(): Promise<void> {
    const cycle = this.ioChain.then(() => this.runCycle());
    this.ioChain = cycle.catch(() => undefined);
    return cycle;
  }

  /** One I/O cycle: truncate after a clear, append pending lines, rotate past the cap, merge the summary. */
  private async runCycle(): Promise<void> {
    if (!this.loggingEnabled) return;
    const generation = this.generation;
    const overwriteSummary = this.truncatePending;
    try {
      await mkdir(this.dir, { recursive: true });
      if (this.truncatePending) {
        this.truncatePending = false;
        await truncateLog(this.logPath);
      }
      await this.writePendingLines();
      if (this.summaryDirty && this.loggingEnabled) await this.writeSummary(generation, overwriteSummary);
    } catch (error) {
      this.disableLogging(error);
    }
  }

  /** Drops the oldest pending lines beyond what one rotation keeps (half the cap): they would never be read back. */
  private keepNewestPendingLines(): void {
    const lines = this.pendingLines;
    let chars = 0;
    let first = lines.length;
    while (first > 0 && chars + (lines[first - 1] as string).length <= this.maxLogBytes / 2) chars += (lines[--first] as string).length;
    if (first > 0) this.pendingLines = lines.slice(first);
    this.pendingChars = chars;
  }

  private async writePendingLines(): Promise<void> {
    this.keepNewestPendingLines();
    const lines = this.pendingLines;
    this.pendingLines = [];
    this.pendingChars = 0;
    if (lines.length === 0) return;
    let batch = '';
    for (const line of lines) {
      if (batch.length > 0 && batch.length + line.length > MAX_APPEND_BYTES) {
        await this.appendAndRotate(batch);
        batch = '';
      }
      batch += line;
    }
    if (batch.length > 0) await this.appendAndRotate(batch);
  }

  private async appendAndRotate(batch: string): Promise<void> {
    const size = await appendLines(this.logPath, batch);
    if (size > this.maxLogBytes) await rotateLog(this.logPath, Math.floor(this.maxLogBytes / 2));
  }

  /**
   * Merges what this process counted since the last write into the summary file (another process may share
   * it), then adopts the merged counters. After a clear the file is overwritten instead of merged.
   */
  private async writeSummary(generation: number, overwrite: boolean): Promise<void> {
    this.summaryDirty = false;
    const delta = this.unsaved;
    const snapshot = this.counters.clone();
    this.unsaved = new Counters(this.now(), this.counterOptions);
    let merged: Counters;
    try {
      let base: Summary | undefined;
      if (!overwrite) {
        const text = await readFile(this.summaryPath, 'utf8').catch((error: unknown) => {
          if (isMissing(error)) return undefined;
          throw error;
        });
        base = text === undefined ? undefined : this.parseSummary(text);
      }
      if (generation !== this.generation) return; // cleared meanwhile: the clear's own cycle writes the summary
      if (base) {
        merged = new Counters(base.since, this.counterOptions);
        merged.addSummary(base);
        merged.addCounters(delta);
      } else {
        merged = snapshot;
      }
      await writeFileAtomic(this.summaryPath, `${JSON.stringify(merged.toSummary(this.now()))}\n`);
    } catch (error) {
      if (generation === this.generation) {
        this.unsaved.addCounters(delta);
        this.summaryDirty = true;
      }
      throw error;
    }
    if (generation !== this.generation) return;
    // Counted while the file was being written: still in this.unsaved, so add them on top of the merged view.
    const adopted = merged.clone();
    adopted.addCounters(this.unsaved);
    adopted.since = merged.since;
    adopted.tools.foldedCalls = this.counters.tools.foldedCalls;
    adopted.categories.foldedCalls = this.counters.categories.foldedCalls;
    this.counters = adopted;
  }

  private disableLogging(error: unknown): void {
    if (!this.loggingEnabled) return;
    this.loggingEnabled = false;
    this.pendingLines = [];
    this.pendingChars = 0;
    this.warn(
      `telemetry logging turned off: cannot write in ${this.dir} (${errorCode(error)}); counting continues in memory`,
    );
  }
}
