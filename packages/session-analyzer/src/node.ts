/**
 * The Node-only half of the analyzer: finds session logs under a sessions folder, streams each one through Node's
 * built-in zstd decompressor (`zlib.createZstdDecompress`, Node >= 22.15, the version DSH itself requires) line by
 * line into the pure parser, reads the plugin's receipts, and turns unreadable files into "skipped" lines. One file
 * is read at a time and never held whole, so memory stays bounded however many sessions there are.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ReportBuilder } from './census.js';
import { boundedLines, LINE_TOO_LONG } from './line-reader.js';
import { ANONYMOUS_RECEIPTS, SessionParser, SkipSession, type Receipt } from './session-parser.js';
import { readStore } from './store-reader.js';
import type { AnalysisReport, CountRow, HarnessReport, SessionAnalysis } from './types.js';

/** Name of the plugin's event log (telemetry-store) in DSH_HOME, next to the `sessions` folder. */
export const PLUGIN_EVENT_LOG = 'tool-normalizer-events.jsonl';
/**
 * A line longer than this is not parsed and its log is skipped (a session log line is a few hundred KB at most).
 * Only this much of a line is ever held in memory: see `boundedLines`.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;
/** The plugin's event log is capped at 4 MiB by default; read at most this much of it. */
const MAX_RECEIPT_BYTES = 64 * 1024 * 1024;

/**
 * Bounds on what one session may cost, so memory follows the largest single session, not the folder: a log that
 * expands past `maxSessionBytes` (a decompression bomb: 4.4 MB of zstd can hold 5.8 GB), or that holds more than
 * `maxPendingCalls` calls awaiting their result at once, is skipped with the reason, and the other logs are read.
 */
export interface SessionLimits {
  /** Bytes of JSONL one log may expand to (default 256 MiB; the real logs are under 1 MB each). */
  maxSessionBytes: number;
  /** Calls without a result held at once (default 20,000; a real session has a handful at a time). */
  maxPendingCalls: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxSessionBytes: 256 * 1024 * 1024, maxPendingCalls: 20_000 };

/** Prefix of the skip reason of a log over a {@link SessionLimits} bound (the report counts them by it). */
export const OVER_BOUND = 'over the per-session bound';

/** The chunks of `input`, stopping with a skip once more than `maxBytes` came through (before they are held). */
async function* capped(input: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of input) {
    total += chunk.length;
    if (total > maxBytes)
      throw new SkipSession(
        `${OVER_BOUND}: expands to more than ${formatMiB(maxBytes)} of JSONL (a decompression bomb, or raise --max-session-mb)`,
      );
    yield chunk;
  }
}

const formatMiB = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

type ZstdFactory = () => NodeJS.ReadWriteStream;

/** Node's zstd decompressor, or undefined on a Node without it (before 22.15). */
export function zstdDecompressor(): ZstdFactory | undefined {
  const factory = (zlib as unknown as { createZstdDecompress?: ZstdFactory }).createZstdDecompress;
  return typeof factory === 'function' ? factory.bind(zlib) : undefined;
}

/** `$DSH_HOME/sessions`, else `~/.dsh/sessions`. */
export function defaultSessionsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.DSH_HOME ? path.resolve(env.DSH_HOME) : path.join(os.homedir(), '.dsh'), 'sessions');
}

const isSessionFile = (name: string) => name.endsWith('.jsonl.zstd') || name.endsWith('.jsonl');

/** Every session log under `dir` (`*.jsonl.zstd`, and plain `*.jsonl`), sorted; symlinks are not followed. */
export function findSessionFiles(dir: string): string[] {
  const found: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile() && isSessionFile(entry.name)) found.push(full);
    }
  }
  return found.sort();
}

/** The largest time a `Date` holds (ms either side of the epoch); a time past it cannot be shown or compared. */
const MAX_DATE_MS = 8.64e15;
const isEventTime = (at: unknown): at is number =>
  typeof at === 'number' && Number.isFinite(at) && Math.abs(at) <= MAX_DATE_MS;

const OTHER_HARNESS_OUTCOMES = new Set(['healed-success', 'healed-failed', 'passthrough-failed']);

function countRows(counts: Map<string, number>): CountRow[] {
  return [...counts]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** What `analyze` takes from the store's event log, read in one pass. */
export interface EventLogReading {
  /** The plugin's receipts by call id (healed outcomes of DSH calls only). */
  receipts: Map<string, Receipt[]>;
  /** Per other harness (events with a `harness`, such as the MCP proxy's `mcp`): measured heals and failures. */
  otherHarnesses: HarnessReport[];
  /** Lines skipped as unreadable: too long, not JSON, not an object, or a time (`at`) no date can hold. */
  skippedLines: number;
}

/**
 * Reads the telemetry store's event log (the newest 64 MiB of it). The log is input like any other: a bad line (a
 * torn write, a foreign line, `"at": 1e300`) is skipped and counted, never thrown, so no later format has to cope
 * with a time that is not a date. Empty when there is no log.
 */
export async function readEventLog(file: string): Promise<EventLogReading> {
  const receipts = new Map<string, Receipt[]>();
  const reading: EventLogReading = { receipts, otherHarnesses: [], skippedLines: 0 };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return reading;
  }
  if (!stat.isFile()) return reading;
  const byHarness = new Map<string, HarnessReport & { tools: Map<string, number>; rules: Map<string, number> }>();
  const stream = fs.createReadStream(file, { start: Math.max(0, stat.size - MAX_RECEIPT_BYTES) });
  try {
    for await (const line of boundedLines(stream, MAX_LINE_BYTES)) {
      if (line === LINE_TOO_LONG) {
        reading.skippedLines += 1;
        continue;
      }
      if (line.trim() === '') continue;
      let event: {
        callId?: unknown;
        tool?: unknown;
        at?: unknown;
        outcome?: unknown;
        harness?: unknown;
        ruleIds?: unknown;
      };
      try {
        event = JSON.parse(line);
      } catch {
        reading.skippedLines += 1; // a torn or foreign line
        continue;
      }
      if (
        typeof event !== 'object' ||
        event === null ||
        Array.isArray(event) ||
        ('at' in event && !isEventTime(event.at))
      ) {
        reading.skippedLines += 1;
        continue;
      }
      const { harness, tool, at, outcome } = event;
      if (typeof tool !== 'string' || !isEventTime(at) || typeof outcome !== 'string') continue;
      if (harness === undefined) {
        if (!outcome.startsWith('healed-')) continue;
        // a redacted call id cannot be joined by id; such receipts are joined by tool and time
        const callId =
          typeof event.callId === 'string' && !event.callId.startsWith('[REDACTED') ? event.callId : ANONYMOUS_RECEIPTS;
        const list = receipts.get(callId) ?? [];
        list.push({ callId, tool, at, outcome });
        receipts.set(callId, list);
        continue;
      }
      // another harness's call (the MCP proxy's) is not a DSH call: never joined to a session's calls
      if (typeof harness !== 'string' || !/^[a-z][a-z0-9-]{0,31}$/.test(harness)) continue;
      if (!OTHER_HARNESS_OUTCOMES.has(outcome)) continue;
      let entry = byHarness.get(harness);
      if (!entry) {
        entry = {
          harness,
          events: 0,
          healedSuccess: 0,
          healedFailed: 0,
          passThroughFailed: 0,
          healedByTool: [],
          healedByRule: [],
          from: at,
          to: at,
          tools: new Map(),
          rules: new Map(),
        };
        byHarness.set(harness, entry);
      }
      entry.events += 1;
      entry.from = Math.min(entry.from, at);
      entry.to = Math.max(entry.to, at);
      if (outcome === 'passthrough-failed') {
        entry.passThroughFailed += 1;
        continue;
      }
      if (outcome === 'healed-success') entry.healedSuccess += 1;
      else entry.healedFailed += 1;
      entry.tools.set(tool, (entry.tools.get(tool) ?? 0) + 1);
      const rules = Array.isArray(event.ruleIds) ? new Set(event.ruleIds.filter((id) => typeof id === 'string')) : [];
      for (const rule of rules) entry.rules.set(rule, (entry.rules.get(rule) ?? 0) + 1);
    }
  } catch {
    // the log vanished or could not be read part way (rotated under us): what was read stands
  } finally {
    stream.destroy();
  }
  receipts.get(ANONYMOUS_RECEIPTS)?.sort((a, b) => a.at - b.at);
  reading.otherHarnesses = [...byHarness.values()]
    .sort((a, b) => a.harness.localeCompare(b.harness))
    .map(({ tools, rules, ...report }) => ({
      ...report,
      healedByTool: countRows(tools),
      healedByRule: countRows(rules),
    }));
  return reading;
}

/** The plugin's receipts by call id (healed outcomes only), read from its event log; empty when there is none. */
export async function readReceipts(file: string): Promise<Map<string, Receipt[]>> {
  return (await readEventLog(file)).receipts;
}

/**
 * What other harnesses than DSH (events with a `harness`, such as the MCP proxy's `mcp`) recorded in the store's event
 * log, per harness: measured heals and failures, by tool and rule. Empty when there is no log or no such event.
 */
export async function readOtherHarnesses(file: string): Promise<HarnessReport[]> {
  return (await readEventLog(file)).otherHarnesses;
}

function describeError(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (
    (typeof code === 'string' && code.startsWith('ERR_ZSTD')) ||
    /zstd|unknown frame|corrupt|unexpected end/i.test(message)
  ) {
    return `not readable as zstd (${message.split('\n', 1)[0]}): truncated, corrupt or still being written`;
  }
  return message.split('\n', 1)[0] ?? message;
}

/** Analyses one log file. Resolves to the analysis, or to `{ skipped }` with a one-line reason; never rejects. */
export async function analyzeFile(
  file: string,
  receipts?: ReadonlyMap<string, readonly Receipt[]>,
  signal?: AbortSignal,
  limits: SessionLimits = DEFAULT_SESSION_LIMITS,
): Promise<SessionAnalysis | { skipped: string }> {
  let before: fs.Stats;
  try {
    before = fs.statSync(file);
  } catch (error) {
    return { skipped: describeError(error) };
  }
  if (before.size === 0) return { skipped: 'empty file' };
  const compressed = file.endsWith('.zstd');
  const decompress = compressed ? zstdDecompressor() : undefined;
  if (compressed && !decompress)
    return { skipped: `this Node (${process.version}) has no built-in zstd; Node >= 22.15 is needed` };
  const parser = new SessionParser(file, {
    maxPendingCalls: limits.maxPendingCalls,
    overBound: `${OVER_BOUND}: more than ${limits.maxPendingCalls.toLocaleString('en-US')} calls without a result at once`,
  });
  const source = fs.createReadStream(file);
  const input: Readable = decompress
    ? source.pipe(decompress() as unknown as NodeJS.WritableStream & Readable)
    : source;
  if (decompress) source.on('error', (error) => input.destroy(error));
  const abort = () => input.destroy(new Error('interrupted'));
  signal?.addEventListener('abort', abort, { once: true });
  let endsWithNewline = true;
  try {
    let last: string | undefined;
    let lineNumber = 0;
    for await (const line of boundedLines(capped(input, limits.maxSessionBytes), MAX_LINE_BYTES)) {
      lineNumber += 1;
      if (last !== undefined) parser.push(last);
      // The file is skipped: stop reading it rather than decompress the rest.
      if (line === LINE_TOO_LONG)
        return { skipped: `line ${lineNumber} is longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB` };
      last = line;
    }
    if (signal?.aborted) return { skipped: 'interrupted' };
    if (last !== undefined) {
      try {
        parser.push(last);
      } catch (error) {
        // A last line that is not JSON is a torn line: what a log still being written (or cut short) looks like.
        if (error instanceof SkipSession && error.message.includes('is not JSON')) endsWithNewline = false;
        throw error;
      }
    }
    const after = fs.statSync(file);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs)
      return { skipped: 'changed while it was read (still being written)' };
    return parser.finish(receipts);
  } catch (error) {
    if (signal?.aborted) return { skipped: 'interrupted' };
    if (error instanceof SkipSession)
      return { skipped: endsWithNewline ? error.message : `${error.message}: still being written or truncated` };
    return { skipped: describeError(error) };
  } finally {
    signal?.removeEventListener('abort', abort);
    source.destroy();
    input.destroy();
  }
}

export interface AnalyzeOptions {
  /** The sessions folder (default `$DSH_HOME/sessions`, else `~/.dsh/sessions`). */
  sessionsDir?: string;
  /** Explicit files instead of a folder walk. */
  files?: string[];
  /** The plugin's event log (default: `tool-normalizer-events.jsonl` in the store folder, when present). */
  eventLog?: string;
  /**
   * The telemetry store's folder, whose database (`tool-normalizer.sqlite`) is read for what it counted and its last
   * clear (default: the folder holding the sessions folder, DSH_HOME). No sessions folder and no files: the report is
   * the store's only.
   */
  storeDir?: string;
  /** Called after each file. */
  onProgress?: (done: number, total: number, file: string) => void;
  /** Abort (Ctrl-C): the report covers the files analysed before it. */
  signal?: AbortSignal;
  /** Bounds on one session's cost (default {@link DEFAULT_SESSION_LIMITS}). */
  limits?: Partial<SessionLimits>;
  /** Keep each session's analysis (tests; memory then grows with the number of sessions). */
  keepSessions?: boolean;
  now?: () => number;
}

export interface AnalyzeResult {
  report: AnalysisReport;
  sessions: SessionAnalysis[];
}

/** Analyses every session log of a folder (or the given files) one after another. */
export async function analyzeSessions(options: AnalyzeOptions = {}): Promise<AnalyzeResult> {
  const storeOnly = options.storeDir !== undefined && options.sessionsDir === undefined && options.files === undefined;
  const sessionsDir = storeOnly
    ? undefined
    : (options.sessionsDir ?? (options.files ? undefined : defaultSessionsDir()));
  const files = options.files ?? (sessionsDir ? findSessionFiles(sessionsDir) : []);
  const storeDir = options.storeDir ?? (sessionsDir ? path.dirname(path.resolve(sessionsDir)) : undefined);
  const eventLog = options.eventLog ?? (storeDir ? path.join(storeDir, PLUGIN_EVENT_LOG) : undefined);
  const events = eventLog ? await readEventLog(eventLog) : undefined;
  const receipts = events?.receipts ?? new Map<string, Receipt[]>();
  const limits = { ...DEFAULT_SESSION_LIMITS, ...options.limits };
  const builder = new ReportBuilder();
  const skipped: { file: string; reason: string }[] = [];
  const sessions: SessionAnalysis[] = [];
  let analysed = 0;
  const shown = (file: string) => (sessionsDir ? path.relative(sessionsDir, file) || file : file);
  for (const [index, file] of files.entries()) {
    if (options.signal?.aborted) break;
    const result = await analyzeFile(file, receipts, options.signal, limits);
    if ('skipped' in result) {
      if (result.skipped === 'interrupted' && options.signal?.aborted) break;
      skipped.push({ file: shown(file), reason: result.skipped });
    } else {
      builder.add(result);
      analysed += 1;
      if (options.keepSessions) sessions.push(result);
    }
    options.onProgress?.(index + 1, files.length, file);
  }
  const report = builder.build({
    sessionsDir,
    interrupted: options.signal?.aborted === true,
    filesSeen: files.length,
    filesAnalysed: analysed,
    skipped,
    now: (options.now ?? Date.now)(),
  });
  report.otherHarnesses = events?.otherHarnesses ?? [];
  if (eventLog && events) report.eventLog = { file: eventLog, skippedLines: events.skippedLines };
  const store = storeDir ? await readStore(storeDir) : undefined;
  if (store) report.store = store;
  return { report, sessions };
}
