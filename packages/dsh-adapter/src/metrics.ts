/**
 * Fleet metrics, the counting half: per-process counters of what the plugin recorded (calls by tool, category and
 * outcome; calls by model; heals by rule; tokens saved; repeats caught; plugin errors; events the store dropped;
 * failed OTLP pushes), read by the Prometheus endpoint (metrics-prometheus.ts) and the OTLP push (metrics-otlp.ts)
 * at collection time.
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
 * Why every known series starts at 0 (`seedRows`): Prometheus' `increase()` and `rate()` need a sample before the
 * first increment, so a series first scraped at 3 loses those 3. The Prometheus endpoint therefore also serves, at
 * 0, every series it can know before a call happens: each tool the host registered (globally, or for an agent when
 * the agent is created) under each category and outcome a call can end in, each healing rule under both healed
 * outcomes, and each model an agent was created with. The model is a label of its own metrics only, so the main
 * series never wait for a model to be known. The calls other harnesses recorded into the shared store
 * (`harnessSeries`) start at 0 too, for every harness telemetry-store names (`HARNESSES`) under every outcome.
 *
 * Labels are bounded: the tool label is the name of a tool the host registered, and every other name (one the model
 * invented, however it looks) is "unregistered", so no invented name, path or secret ever becomes a label and every
 * tool series can start at 0. A category, model or rule name is its own label value only when it is a plain
 * identifier-like name that redaction leaves unchanged (telemetry-store's `plainName`), categories not path-like;
 * any other name is "redacted" and uses up no slot. Catalogue categories and rules and registered models always keep
 * their own; other plain names fold into "other" past a cap, as do label combinations past `MAX_SERIES`.
 */
import type { OtlpPushStatus } from '@dsh-tool-normalizer/telemetry-store/feed';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { categoryCatalogue, ruleCatalogue } from '@dsh-tool-normalizer/core-rules';
import { OUTCOMES } from '@dsh-tool-normalizer/telemetry-store/outcomes';
import { DEFAULT_PROFILE } from './dsh-profile.js';
import {
  inputProblem,
  isRepeatCaught,
  OTHER,
  plainName,
  REDACTED,
  REPEAT_RULE_ID,
  redact,
  rowWithinCap,
  HARNESSES,
  type HarnessCalls,
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
    const folded = (): Record<L, string> => {
      const other = { ...labels };
      for (const name of this.labelNames) if (name !== 'outcome') other[name] = OTHER;
      return other;
    };
    const row = rowWithinCap(
      this.#rows,
      this.#key(labels),
      MAX_SERIES,
      () => this.#key(folded()),
      (isFolded) => ({ labels: isFolded ? folded() : labels, value: 0 }),
    );
    row.value += amount;
  }

  #key(labels: Record<L, string>): string {
    let key = '';
    for (const name of this.labelNames) key += `${labels[name]}\u0000`;
    return key;
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

/** True for a name that reads like a file path (a slash, or a leading dot or tilde): never a label value. */
export function isPathLike(name: string): boolean {
  return name.includes('/') || name.includes('\\') || name.startsWith('.') || name.startsWith('~');
}

/** The tool label of a call to a name the host has not registered (a name the model invented). */
export const UNREGISTERED_LABEL = 'unregistered';

/** Most registered names kept per label (a host registers a few dozen tools; this only bounds a broken host). */
const REGISTERED_CAP = 500;

/** Distinct unusual names whose "redacted" verdict is remembered (a cache only: it never uses up a label slot). */
const REDACTED_MEMORY = 4096;

/**
 * Raw name -> label value, decided once per distinct name. A registered name (a tool the host registered) is always
 * its own label; any other plain name takes one of `cap` slots, then folds into "other"; a name that is not plain
 * (or is path-like) is "redacted" and takes no slot, so junk names cannot push real ones into "other".
 */
class LabelNames {
  readonly #names = new Map<string, string>();
  readonly #redacted = new Set<string>();
  readonly #registered = new Set<string>();
  #capped = 0;
  /** `pathsAllowed`: model names such as `openrouter/gpt-x` are not paths; tool and category names never are. */
  constructor(
    readonly cap: number,
    readonly pathsAllowed = false,
  ) {}

  #plain(name: string): boolean {
    return plainName(name) !== undefined && (this.pathsAllowed || !isPathLike(name));
  }

  /** Names that always get their own label (the host's registered tools); returns the ones that are label-safe. */
  register(names: Iterable<string>): void {
    for (const name of names) {
      if (typeof name !== 'string' || this.#registered.has(name)) continue;
      if (!this.#plain(name) || this.#registered.size >= REGISTERED_CAP) continue;
      this.#registered.add(name);
      const earlier = this.#names.get(name);
      if (earlier === name) this.#capped -= 1; // it held a capped slot; now it is reserved
      this.#names.set(name, name);
    }
  }

  get registered(): ReadonlySet<string> {
    return this.#registered;
  }

  /** The label of a registered name; any other name is `UNREGISTERED_LABEL` (tools: the model invented the name). */
  registeredLabel(raw: string): string {
    return this.#registered.has(raw) ? raw : UNREGISTERED_LABEL;
  }

  label(raw: string): string {
    const known = this.#names.get(raw);
    if (known !== undefined) return known;
    if (this.#redacted.has(raw)) return REDACTED_LABEL;
    if (!this.#plain(raw)) {
      if (this.#redacted.size >= REDACTED_MEMORY) this.#redacted.clear();
      this.#redacted.add(raw);
      return REDACTED_LABEL;
    }
    if (this.#capped >= this.cap) return OTHER;
    this.#capped += 1;
    this.#names.set(raw, raw);
    return raw;
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

/** The outcomes a call can end in, by whether it had an error category ("ok" calls either passed or were healed). */
const OK_OUTCOMES: readonly Outcome[] = ['passthrough', 'healed-success'];
const HEALED_OUTCOMES: readonly Outcome[] = ['healed-success', 'healed-failed'];

/** OTLP push health, per process: the stats feed's type (telemetry-store/feed), which the push fills. */
export type { OtlpPushStatus };

/** The process's fleet counters. */
export class FleetCounters {
  /** When this process started counting (epoch ms): the start of every cumulative series. */
  readonly startedAt = Date.now();
  readonly calls = new SeriesTable(['tool', 'category', 'outcome'] as const);
  readonly modelCalls = new SeriesTable(['model', 'outcome'] as const);
  readonly heals = new SeriesTable(['rule', 'outcome'] as const);
  readonly savedTokens = new SeriesTable(['tool'] as const);
  readonly modelSavedTokens = new SeriesTable(['model'] as const);
  readonly repeats = new SeriesTable(['tool'] as const);
  readonly pluginErrors = new RetiringTotal();
  readonly droppedEvents = new RetiringTotal();
  readonly otlp: OtlpPushStatus = { pushes: 0, failures: 0, episodes: 0, failing: false };
  readonly #tools = new LabelNames(LABEL_CAPS.tool);
  readonly #categories = new LabelNames(LABEL_CAPS.category);
  readonly #models = new LabelNames(LABEL_CAPS.model, true);
  readonly #rules = new LabelNames(LABEL_CAPS.rule, true);

  constructor() {
    this.#categories.register(categoryCatalogue.map((category) => category.id));
    this.#rules.register(ruleCatalogue.map((rule) => rule.id));
  }

  /** Tools the host registered: they always keep their own label and their series start at 0 (`seedRows`). */
  registerTools(names: Iterable<string>): void {
    this.#tools.register(names);
  }

  /** Models an agent was created with: their per-model series start at 0 (`seedRows`). */
  registerModels(names: Iterable<string>): void {
    this.#models.register(names);
  }

  /** Counts one recorded call. Inputs the store would reject (and not count) are not counted either. */
  count(input: TelemetryEventInput): void {
    if (inputProblem(input) !== undefined) return;
    const tool = this.#tools.registeredLabel(input.tool);
    const category = this.#categories.label(input.category);
    const model =
      typeof input.model === 'string' && input.model !== '' ? this.#models.label(input.model) : UNKNOWN_MODEL;
    const outcome = input.outcome;
    this.calls.add({ tool, category, outcome }, 1);
    this.modelCalls.add({ model, outcome }, 1);
    const saved = input.tokensSaved;
    if (typeof saved === 'number' && Number.isFinite(saved) && saved > 0) {
      this.savedTokens.add({ tool }, saved);
      this.modelSavedTokens.add({ model }, saved);
    }
    if (isRepeatCaught(input)) this.repeats.add({ tool }, 1); // the store's own definition, same input
    const healed = outcome === 'healed-success' || outcome === 'healed-failed';
    const seen = input.ruleIds.length > 1 ? new Set<string>() : undefined;
    for (const ruleId of input.ruleIds) {
      if (typeof ruleId !== 'string' || seen?.has(ruleId)) continue;
      seen?.add(ruleId);
      if (healed && ruleId !== REPEAT_RULE_ID) this.heals.add({ rule: this.#rules.label(ruleId), outcome }, 1);
    }
  }

  /**
   * The series the Prometheus endpoint serves at 0 until they count something: every registered tool under each
   * category and outcome a call can end in (a healable category also under both healed outcomes), and every
   * healing rule under both healed outcomes. Rows already counted are left out.
   */
  seedRows(): SeedRows {
    const tools = [...this.#tools.registered, UNREGISTERED_LABEL];
    const calls: Record<'tool' | 'category' | 'outcome', string>[] = [];
    for (const tool of tools) {
      for (const category of categoryCatalogue) {
        const outcomes: readonly Outcome[] =
          category.id === 'ok'
            ? OK_OUTCOMES
            : category.known
              ? [...HEALED_OUTCOMES, 'passthrough-failed']
              : ['passthrough-failed'];
        for (const outcome of outcomes) calls.push({ tool, category: category.id, outcome });
      }
    }
    const heals: Record<'rule' | 'outcome', string>[] = [];
    for (const rule of ruleCatalogue) {
      if (rule.stage === 'hint') continue; // hints never heal
      for (const outcome of HEALED_OUTCOMES) heals.push({ rule: rule.id, outcome });
    }
    const perTool = tools.map((tool) => ({ tool }));
    const models = [...this.#models.registered];
    const modelCalls = models.flatMap((model) => OUTCOMES.map((outcome) => ({ model, outcome })));
    return {
      calls,
      modelCalls,
      heals,
      savedTokens: perTool,
      modelSavedTokens: models.map((model) => ({ model })),
      repeats: perTool,
    };
  }
}

/** Zero rows per metric (label values only), see `FleetCounters.seedRows`. */
export interface SeedRows {
  calls: Record<'tool' | 'category' | 'outcome', string>[];
  modelCalls: Record<'model' | 'outcome', string>[];
  heals: Record<'rule' | 'outcome', string>[];
  savedTokens: Record<'tool', string>[];
  modelSavedTokens: Record<'model', string>[];
  repeats: Record<'tool', string>[];
}

/** The labels of `tool_normalizer_store_harness_calls_total` (Prometheus) and `tool_normalizer.store_harness_calls` (OTLP). */
export const HARNESS_LABELS = ['harness', 'outcome'] as const;
export type HarnessSeries = Series<(typeof HARNESS_LABELS)[number]>;

/**
 * The calls other harnesses recorded into the shared store (`TelemetryStore.harnessCalls`, read now), one series per
 * harness and outcome, for the Prometheus endpoint and the OTLP push alike: every harness telemetry-store names
 * (`HARNESSES`) under every outcome is there at 0 before its first call, so `increase()` sees that call too.
 */
export function harnessSeries(read: (() => readonly HarnessCalls[] | undefined) | undefined): HarnessSeries[] {
  const rows = new Map<string, HarnessSeries>();
  const row = (harness: string, outcome: string): HarnessSeries => {
    const key = `${harness}\u0000${outcome}`;
    let found = rows.get(key);
    if (found === undefined) {
      found = { labels: { harness, outcome }, value: 0 };
      rows.set(key, found);
    }
    return found;
  };
  for (const harness of Object.values(HARNESSES)) for (const outcome of OUTCOMES) row(harness, outcome);
  for (const counted of read?.() ?? []) row(counted.harness, counted.outcome).value += counted.calls;
  return [...rows.values()];
}

/**
 * A reader of the store's harness calls that answers its last reading while the store cannot be read (undefined), so
 * a moment the file is held elsewhere is never served as counters falling to 0 (which Prometheus would take for a
 * reset). A readable store with no rows (after `clear()`) is a real 0.
 */
export function lastReadableHarnessCalls(
  read: () => readonly HarnessCalls[] | undefined,
): () => readonly HarnessCalls[] {
  let last: readonly HarnessCalls[] = [];
  return () => {
    const now = read();
    if (now !== undefined) last = now;
    return last;
  };
}

const PROCESS_KEY = Symbol.for('dsh-tool-normalizer.fleet-counters.v2');

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
  /** The name this instance has in a fleet: the `metricsInstance` option, else `<host>/<profile>` (stable across restarts). */
  instance: string;
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

/** A host name as a label value: the name's own characters when they are label-safe, else "unknown". */
function safeHostName(name: string): string {
  return /^[A-Za-z0-9_.-]{1,253}$/.test(name) ? name : 'unknown';
}

export function processIdentity(profile: string = DEFAULT_PROFILE, instanceOption = ''): ProcessIdentity {
  const host = safeHostName(hostname());
  const shownProfile = plainName(profile) ?? REDACTED_LABEL;
  return {
    host,
    profile: shownProfile,
    instance: instanceOption !== '' ? instanceOption : `${host}/${shownProfile}`,
    dshVersion: dshVersion(),
    pluginVersion: PLUGIN_VERSION,
    nodeVersion: process.versions.node,
  };
}
