/**
 * Fleet metrics, the counting half: per-process counters of what the plugin recorded (calls by tool, category,
 * outcome and model; heals by rule; tokens saved; repeats caught; plugin errors; events the store dropped), read by
 * the Prometheus endpoint (metrics-prometheus.ts) and the OTLP push (metrics-otlp.ts) at collection time.
 *
 * Why the counters live on `globalThis` and not in the plugin's fiber: a plugin reload (config change, HMR) disposes
 * the fiber and may re-import this module, but it is the same process, and a Prometheus counter must only go up
 * within a process. So the counters are one object per process, found under a `Symbol.for` key; each activation
 * counts into it through the store it records to, and what a disposed activation counted (its plugin errors, its
 * store's dropped events) is added to a "retired" total, so nothing is counted twice and nothing is lost.
 *
 * Why not the store's totals: the telemetry store is shared by every process using the same directory and keeps
 * counts across restarts and until a clear; exporting them per process would double count across a fleet's
 * processes and make counters go down. These counters see exactly the calls this process recorded, the same calls
 * (and the same acceptance rule) the store counts.
 *
 * Labels are bounded: a tool, category, model or rule name is its own label value only when it is a plain
 * identifier-like name that redaction leaves unchanged (telemetry-store's `plainName`); any other name is shown as
 * "redacted". The store's second redaction layer (secretlint) is asynchronous and cannot run at count time, so a
 * name that merely looks unusual is folded rather than trusted. Names fold into "other" past a cap, as do label
 * combinations past `MAX_SERIES`.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DEFAULT_PROFILE } from './dsh-profile.js';
import {
  inputProblem,
  isRepeatCaught,
  OTHER,
  plainName,
  REDACTED,
  REPEAT_RULE_ID,
  redact,
  type TelemetryEventInput,
  type TelemetryStore,
} from '@dsh-tool-normalizer/telemetry-store';

/** This plugin's version (kept equal to the published package's version by a test). */
export const PLUGIN_VERSION = '0.1.0';

/** Distinct names counted separately per label before folding into "other" (tools and categories as the store does). */
export const LABEL_CAPS = { tool: 200, category: 100, model: 32, rule: 64 } as const;
/**
 * Distinct label combinations per metric before new ones fold into all-"other" labels. prom-client writes about
 * 300 series per millisecond on this project's 2-vCPU machines, so this keeps a scrape well under 10 ms even when
 * every cap is reached (see bench/metrics.bench.mjs).
 */
export const MAX_SERIES = 1000;
/** The model label when the agent did not say which model it talks to. */
export const UNKNOWN_MODEL = 'unknown';

export type Outcome = TelemetryEventInput['outcome'];

/** One counted series: its label values and its value. */
export interface Series<L extends string> {
  readonly labels: Readonly<Record<L, string>>;
  value: number;
}

/** Series of one metric keyed by their label values, folded into one all-"other" series past `MAX_SERIES`. */
class SeriesTable<L extends string> {
  readonly #rows = new Map<string, Series<L>>();
  constructor(readonly labelNames: readonly L[]) {}

  add(labels: Record<L, string>, amount: number): void {
    let key = '';
    for (const name of this.labelNames) key += `${labels[name]}\u0000`;
    let row = this.#rows.get(key);
    if (!row) {
      if (this.#rows.size >= MAX_SERIES) {
        const folded = { ...labels };
        for (const name of this.labelNames) if (name !== 'outcome') folded[name] = OTHER;
        let foldedKey = '';
        for (const name of this.labelNames) foldedKey += `${folded[name]}\u0000`;
        key = foldedKey;
        labels = folded;
        row = this.#rows.get(key);
      }
      if (!row) {
        row = { labels, value: 0 };
        this.#rows.set(key, row);
      }
    }
    row.value += amount;
  }

  rows(): IterableIterator<Series<L>> {
    return this.#rows.values();
  }

  get size(): number {
    return this.#rows.size;
  }
}

/** The label value of a name that is not a plain identifier-like name (it may hold a secret). */
export const REDACTED_LABEL = 'redacted';

/** Raw name -> label value ("redacted" for a name that is not plain), decided once per distinct name, "other" past the cap. */
class LabelNames {
  readonly #names = new Map<string, string>();
  constructor(readonly cap: number) {}

  label(raw: string): string {
    const known = this.#names.get(raw);
    if (known !== undefined) return known;
    if (this.#names.size >= this.cap) return OTHER;
    const label = plainName(raw) ?? REDACTED_LABEL;
    this.#names.set(raw, label);
    return label;
  }
}

/** A per-activation source of a count (plugin errors, dropped events) whose total must outlive the activation. */
class RetiringTotal {
  #retired = 0;
  readonly #live = new Set<() => number>();

  /** Adds a live source; the returned function retires it (its last value is kept). */
  attach(read: () => number): () => void {
    this.#live.add(read);
    let detached = false;
    return () => {
      if (detached) return;
      detached = true;
      this.#retired += safeCount(read);
      this.#live.delete(read);
    };
  }

  get value(): number {
    let total = this.#retired;
    for (const read of this.#live) total += safeCount(read);
    return total;
  }

  get attached(): number {
    return this.#live.size;
  }
}

function safeCount(read: () => number): number {
  try {
    const value = read();
    return Number.isFinite(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** The process's fleet counters. */
export class FleetCounters {
  /** When this process started counting (epoch ms): the start of every cumulative series. */
  readonly startedAt = Date.now();
  /** Unique per process (OTLP `service.instance.id`), so two processes on one host never merge. */
  readonly instanceId = randomUUID();
  readonly calls = new SeriesTable(['tool', 'category', 'outcome', 'model'] as const);
  readonly heals = new SeriesTable(['rule', 'outcome'] as const);
  readonly savedTokens = new SeriesTable(['tool', 'model'] as const);
  readonly repeats = new SeriesTable(['tool', 'model'] as const);
  readonly pluginErrors = new RetiringTotal();
  readonly droppedEvents = new RetiringTotal();
  readonly #tools = new LabelNames(LABEL_CAPS.tool);
  readonly #categories = new LabelNames(LABEL_CAPS.category);
  readonly #models = new LabelNames(LABEL_CAPS.model);
  readonly #rules = new LabelNames(LABEL_CAPS.rule);

  /** Counts one recorded call. Inputs the store would reject (and not count) are not counted either. */
  count(input: TelemetryEventInput): void {
    if (inputProblem(input) !== undefined) return;
    const tool = this.#tools.label(input.tool);
    const category = this.#categories.label(input.category);
    const model =
      typeof input.model === 'string' && input.model !== '' ? this.#models.label(input.model) : UNKNOWN_MODEL;
    const outcome = input.outcome;
    this.calls.add({ tool, category, outcome, model }, 1);
    const saved = input.tokensSaved;
    if (typeof saved === 'number' && Number.isFinite(saved) && saved > 0) this.savedTokens.add({ tool, model }, saved);
    if (isRepeatCaught(input)) this.repeats.add({ tool, model }, 1); // the store's own definition, same input
    const healed = outcome === 'healed-success' || outcome === 'healed-failed';
    const seen = input.ruleIds.length > 1 ? new Set<string>() : undefined;
    for (const ruleId of input.ruleIds) {
      if (typeof ruleId !== 'string' || seen?.has(ruleId)) continue;
      seen?.add(ruleId);
      if (healed && ruleId !== REPEAT_RULE_ID) this.heals.add({ rule: this.#rules.label(ruleId), outcome }, 1);
    }
  }
}

const PROCESS_KEY = Symbol.for('dsh-tool-normalizer.fleet-counters.v1');

/** The counters of this process, created on first use and shared by every activation (and module copy) after it. */
export function processFleetCounters(): FleetCounters {
  const holder = globalThis as { [PROCESS_KEY]?: FleetCounters };
  const existing = holder[PROCESS_KEY];
  // A module copy loaded by an earlier activation made it: same shape (the key is versioned), so it is reused.
  if (existing !== undefined) return existing;
  const created = new FleetCounters();
  holder[PROCESS_KEY] = created;
  return created;
}

/** A store that counts this process's events it dropped from its write queue (optional store API). */
interface DroppedEventsCount {
  readonly droppedEvents: number;
}

function countsDroppedEvents(store: TelemetryStore): store is TelemetryStore & DroppedEventsCount {
  return typeof (store as Partial<DroppedEventsCount>).droppedEvents === 'number';
}

/**
 * The store, with `record` also counting into `counters`; everything else is the store's own (methods bound to it).
 * When the store reports its dropped events, they join the process total, and `close` retires them (kept, no longer read).
 */
export function meterStore(counters: FleetCounters, store: TelemetryStore): TelemetryStore {
  const record = (input: TelemetryEventInput): void => {
    store.record(input);
    try {
      counters.count(input);
    } catch {
      // Counting must never break recording; a hostile input is the store's to reject.
    }
  };
  const release = countsDroppedEvents(store) ? counters.droppedEvents.attach(() => store.droppedEvents) : () => {};
  const close = async (): Promise<void> => {
    try {
      await store.close();
    } finally {
      release();
    }
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'record') return record;
      if (property === 'close') return close;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The configuration as the dashboard may show it: OTLP header values and any credentials in the OTLP URL redacted
 * (the stats route serves every option's value).
 */
export function configForDisplay<C extends { otlpEndpoint: string; otlpHeaders: Record<string, string> }>(
  config: C,
): C {
  if (config.otlpEndpoint === '' && Object.keys(config.otlpHeaders).length === 0) return config;
  const headers = Object.fromEntries(Object.keys(config.otlpHeaders).map((name) => [name, REDACTED]));
  return { ...config, otlpEndpoint: redact(config.otlpEndpoint), otlpHeaders: headers };
}

/** True when the process's store reports its dropped events (the metric is only exported then). */
export function storeCountsDroppedEvents(store: TelemetryStore | undefined): boolean {
  return store !== undefined && countsDroppedEvents(store);
}

/** Who this process is, for grouping a fleet: resource attributes and the Prometheus info metric. */
export interface ProcessIdentity {
  host: string;
  /** The DSH profile the process runs (a plain name, else "redacted"): the `profile` label of every series. */
  profile: string;
  dshVersion: string;
  pluginVersion: string;
  nodeVersion: string;
}

let cachedDshVersion: string | undefined;

/**
 * The version of the `@deepseek-ai/dsh` package this process was started from (found by walking up from the
 * launcher script to its package.json), or "unknown".
 */
export function dshVersion(entry: string | undefined = process.argv[1]): string {
  if (entry === process.argv[1] && cachedDshVersion !== undefined) return cachedDshVersion;
  let found = 'unknown';
  try {
    let dir = dirname(realpathSync(entry ?? ''));
    for (let depth = 0; depth < 8; depth += 1) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest)) {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
        if (parsed.name === '@deepseek-ai/dsh' && typeof parsed.version === 'string') {
          found = parsed.version;
          break;
        }
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  } catch {
    found = 'unknown';
  }
  if (entry === process.argv[1]) cachedDshVersion = found;
  return found;
}

export function processIdentity(profile: string = DEFAULT_PROFILE): ProcessIdentity {
  return {
    host: hostname(),
    profile: plainName(profile) ?? REDACTED_LABEL,
    dshVersion: dshVersion(),
    pluginVersion: PLUGIN_VERSION,
    nodeVersion: process.versions.node,
  };
}
