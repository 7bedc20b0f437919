/**
 * The options of `createTelemetryStore`, their defaults, and their one validation: a whole-number option that is not
 * a whole number is a clear TypeError at creation, never a silent default. Node-free, but only the store uses it.
 */
import { DEFAULT_PROFILE } from './database-layout.js';

export const LOG_FILE_NAME = 'tool-normalizer-events.jsonl';
export const DATABASE_FILE_NAME = 'tool-normalizer.sqlite';
export const DEFAULT_MAX_LOG_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_STORED_EVENTS = 200_000;
export const DEFAULT_MAX_STORED_BYTES = 256 * 1024 * 1024;
export const DEFAULT_MAX_QUEUED_EVENTS = 1000;
export { DEFAULT_PROFILE };
/** Longest profile name accepted (DSH profile names are short file names). */
export const MAX_PROFILE_CHARS = 128;

export interface TelemetryStoreOptions {
  /** Directory of the database and the journal (the adapter passes `$DSH_HOME`, or `~/.dsh`). */
  dir: string;
  /**
   * The DSH profile this process records under (default `default`): every event and counter row carries it, and
   * `stats()`/`queryEvents()` show this profile unless the query names another one or `'*'` (every profile).
   */
  profile?: string;
  /**
   * The harness this store records for when it is not DSH itself: a short lower-case name (`mcp` for the MCP healing
   * proxy), written on every event (`event.harness`) and counted per harness and outcome (`harnessCalls()`), so
   * readers (the DSH plugin's `/metrics`, `analyze`, the dashboard) can show those calls as what they are. Leave it
   * out for DSH's own calls.
   */
  harness?: string;
  /** Size at which the JSONL journal is rotated, keeping its newest half (default 4 MiB, minimum 64 KiB). */
  maxLogBytes?: number;
  /** Event rows kept in the database; the oldest are deleted past it (default 200,000). Counters are kept. */
  maxStoredEvents?: number;
  /**
   * Bytes on disk of the database file plus its WAL (default 256 MiB, minimum 1 MiB): the oldest event rows are
   * deleted past it; counters are kept. Measured as page_count x page_size plus the WAL file's size.
   */
  maxStoredBytes?: number;
  /** Events waiting for the writer; past it the oldest is dropped and counted as `dropped` (default 1000). */
  maxQueuedEvents?: number;
  /** Also store successful untouched calls as events (default false: they live only in counters). */
  persistPassthrough?: boolean;
  /** The clock (epoch ms); a value that is not a finite number >= 0 is replaced by `Date.now()`. */
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

/** True for a profile name the store accepts: 1 to 128 characters, no control characters, not `*`. */
export function isProfileName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_PROFILE_CHARS &&
    value !== '*' &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this rejects
    !/[\u0000-\u001f\u007f]/.test(value)
  );
}

export interface ResolvedOptions {
  dir: string;
  profile: string;
  harness?: string;
  maxLogBytes: number;
  persistPassthrough: boolean;
  now: () => number;
  warn: (message: string) => void;
  flushIntervalMs: number;
  busyTimeoutMs: number;
  minCalls: number;
  recentCapacity: number;
  maxQueued: number;
  caps: { maxTools: number; maxCategories: number };
  retention: { maxRows: number; maxBytes: number };
  /**
   * Snapshots one writer step turns into rows and commits (a bounded transaction; the rest follows at once): 128, or
   * fewer under a small `maxStoredBytes`, so one transaction's WAL stays within the WAL's share of the cap (1/8).
   */
  sliceEvents: number;
}

/** A clock that never answers NaN, Infinity, a negative number or an exception: those become `Date.now()`. */
function safeClock(now: (() => number) | undefined): () => number {
  if (now === undefined) return Date.now;
  return () => {
    try {
      const value = now();
      return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : Date.now();
    } catch {
      return Date.now();
    }
  };
}

/**
 * The harnesses other than DSH that record into a store (the `harness` option), defined once: `mcp`, the MCP healing
 * proxy (`dsh-tool-normalizer mcp-proxy --store`). Readers that must show a harness's series before its first call
 * (DSH's `/metrics` serves them at 0) list these. A store accepts any harness name `isHarnessName` allows.
 */
export const HARNESSES = Object.freeze({ mcp: 'mcp' } as const);

/** A harness name: a lower-case letter, then up to 31 lower-case letters, digits and dashes (a safe label value). */
export function isHarnessName(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z][a-z0-9-]{0,31}$/.test(value);
}

/** Validated options with their defaults; throws TypeError for a bad one. */
export function resolveOptions(options: TelemetryStoreOptions): ResolvedOptions {
  if (typeof options?.dir !== 'string' || options.dir === '')
    throw new TypeError('createTelemetryStore needs a non-empty `dir`');
  if (options.profile !== undefined && !isProfileName(options.profile)) {
    throw new TypeError(
      `createTelemetryStore: \`profile\` must be 1 to ${MAX_PROFILE_CHARS} characters without control characters (not '*'), got ${JSON.stringify(String(options.profile)).slice(0, 80)}`,
    );
  }
  if (options.harness !== undefined && !isHarnessName(options.harness)) {
    throw new TypeError(
      `createTelemetryStore: \`harness\` must be a lower-case name of 1 to 32 letters, digits and dashes, got ${JSON.stringify(String(options.harness)).slice(0, 80)}`,
    );
  }
  const warn = options.warn ?? ((message: string) => console.warn(`[tool-normalizer] ${message}`));
  const maxBytes = countOption(options, 'maxStoredBytes', DEFAULT_MAX_STORED_BYTES, 1024 * 1024);
  return {
    dir: options.dir,
    profile: options.profile ?? DEFAULT_PROFILE,
    ...(options.harness === undefined ? {} : { harness: options.harness }),
    maxLogBytes: Math.max(64 * 1024, countOption(options, 'maxLogBytes', DEFAULT_MAX_LOG_BYTES)),
    persistPassthrough: options.persistPassthrough ?? false,
    now: safeClock(options.now),
    warn: (message) => {
      try {
        warn(message);
      } catch {
        // a failing logger must not turn telemetry into a failure of the call being recorded
      }
    },
    flushIntervalMs: countOption(options, 'flushIntervalMs', 200, 0),
    busyTimeoutMs: countOption(options, 'busyTimeoutMs', 1000, 0),
    minCalls: countOption(options, 'minCalls', 5),
    recentCapacity: countOption(options, 'recentCapacity', 500),
    maxQueued: countOption(options, 'maxQueuedEvents', DEFAULT_MAX_QUEUED_EVENTS),
    caps: {
      maxTools: countOption(options, 'maxTools', 200),
      maxCategories: countOption(options, 'maxCategories', 100),
    },
    retention: {
      maxRows: countOption(options, 'maxStoredEvents', DEFAULT_MAX_STORED_EVENTS),
      maxBytes,
    },
    sliceEvents: Math.max(8, Math.min(128, Math.floor(maxBytes / (64 * 1024)))),
  };
}

/** An error's code (`ENOSPC`, `EACCES`), or its message for SQLite errors (which carry the useful text there). */
export function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && code !== 'ERR_SQLITE_ERROR') return code;
  return error instanceof Error ? error.message : String(error);
}
