/**
 * Fleet metrics, the push half: for machines without a web server (headless DSH, CI runners), the process's fleet
 * counters (metrics.ts) are pushed over OTLP/HTTP (JSON) to a collector through OpenTelemetry's metrics SDK and
 * exporter, every `otlpIntervalMs`, as cumulative monotonic sums. Instruments are observable: the SDK reads the
 * counters when it collects, so recording a call costs nothing extra.
 *
 * Resource attributes say who sent the numbers, so a team can group a fleet: `host.name`, `dsh.profile`,
 * `service.name` (dsh-tool-normalizer), `service.version` (the plugin), `service.instance.id` (the instance name:
 * `<host>/<profile>` or the `metricsInstance` option, stable across restarts, so a CI fleet does not mint new series
 * every run), `dsh.version`, `process.runtime.version`; `tool_normalizer.build_info` carries the same labels as the
 * Prometheus info metric. The model is a point attribute of the per-model counters, because one DSH process can
 * talk to several models. Every data point starts when this process started counting, not at its first collection.
 * `tool_normalizer.store_harness_calls` is the shared store's count of other harnesses' calls (the MCP proxy's),
 * built by the same `harnessSeries` as the endpoint's series, known harnesses from 0.
 * A failed push is counted (`counters.otlp`, `tool_normalizer.otlp_push_failures`) and reported once per episode.
 *
 * Metric names follow OpenTelemetry's dotted convention with UCUM-style units; a collector's Prometheus exporter
 * translates them to the same names the /metrics endpoint serves (`tool_normalizer.calls` -> `tool_normalizer_calls_total`).
 * Stopping (plugin dispose or reload, and so DSH's exit) collects and pushes once more under one deadline counted
 * from the stop itself: the exporters send through agents of their own, and at the deadline every socket of them is
 * destroyed, so a collector that accepts the connection and never answers holds the stop (and the process's exit)
 * at most STOP_WAIT_MS in all, and nothing of the push is left open after `stop` resolves.
 */
import http from 'node:http';
import https from 'node:https';
import type { Attributes, ObservableCounter, ObservableGauge } from '@opentelemetry/api';
import { AggregationTemporalityPreference, OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { type HarnessCalls, redact } from '@dsh-tool-normalizer/telemetry-store';
import { type FleetCounters, harnessSeries, type ProcessIdentity, type Series } from './metrics.js';
import { METRIC_HELP, infoLabels } from './metrics-prometheus.js';

/** OTLP instrument names (dotted, OpenTelemetry convention). */
export const OTLP_METRIC_NAMES = {
  calls: 'tool_normalizer.calls',
  modelCalls: 'tool_normalizer.model_calls',
  heals: 'tool_normalizer.heals',
  savedTokens: 'tool_normalizer.saved_tokens',
  modelSavedTokens: 'tool_normalizer.model_saved_tokens',
  repeats: 'tool_normalizer.repeats_caught',
  pluginErrors: 'tool_normalizer.plugin_errors',
  droppedEvents: 'tool_normalizer.dropped_events',
  otlpFailures: 'tool_normalizer.otlp_push_failures',
  harnessCalls: 'tool_normalizer.store_harness_calls',
  info: 'tool_normalizer.build_info',
} as const;

/** Longest a stop (plugin dispose or reload, and so DSH's exit) waits for the final push, retries included. */
export const STOP_WAIT_MS = 2000;
/** The final push is aborted this long before STOP_WAIT_MS, leaving the rest for the abort to settle. */
const ABORT_MARGIN_MS = 150;

export interface OtlpPushOptions {
  /** The collector's OTLP/HTTP metrics URL, e.g. `http://collector:4318/v1/metrics`. */
  endpoint: string;
  /** Extra request headers (e.g. an `Authorization` for a hosted backend). */
  headers: Readonly<Record<string, string>>;
  intervalMs: number;
  counters: FleetCounters;
  identity: ProcessIdentity;
  hasDroppedEvents(): boolean;
  /** Calls other harnesses recorded into the shared store (`TelemetryStore.harnessCalls`), read at each collection. */
  harnessCalls?(): readonly HarnessCalls[] | undefined;
  /**
   * Called once per failure episode (the first failed push after a success or after the start), with one line that
   * says what failed; `counters.otlp` keeps the running figures. The next interval tries again.
   */
  onError(message: string): void;
  /** Called when a push succeeds again after an episode of failures (optional). */
  onRecover?(message: string): void;
}

export interface OtlpPush {
  /** Collects and pushes now (used by tests and by `stop`). */
  flush(): Promise<void>;
  /** Pushes a final collection and shuts the exporter down. Safe to call twice. */
  stop(): Promise<void>;
}

/** `ExportResultCode.SUCCESS` of `@opentelemetry/core` (not a direct dependency; the value is part of the SDK's API). */
const EXPORT_SUCCESS = 0;

type ExportDone = Parameters<PushMetricExporter['export']>[1];
type HrTime = [number, number];

function hrTime(epochMs: number): HrTime {
  const seconds = Math.floor(epochMs / 1000);
  return [seconds, Math.round((epochMs - seconds * 1000) * 1e6)];
}

/**
 * Every data point's start time set to when this process started counting: the SDK would otherwise start a
 * cumulative series at its first collection, and a backend would lose what was counted before it.
 */
function withStartTime(metrics: ResourceMetrics, startTime: HrTime): ResourceMetrics {
  return {
    ...metrics,
    scopeMetrics: metrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map(
        (metric) =>
          ({
            ...metric,
            dataPoints: (metric.dataPoints as { startTime: HrTime }[]).map((point) => ({ ...point, startTime })),
          }) as typeof metric,
      ),
    })),
  };
}

/** The HTTP agents one exporter sends through (one per protocol it used), so its sockets can be destroyed at once. */
class Agents {
  readonly #agents: http.Agent[] = [];
  #destroyed = false;
  readonly factory = async (protocol: string): Promise<http.Agent> => {
    const agent = protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.#agents.push(agent);
    if (this.#destroyed) agent.destroy();
    return agent;
  };
  /** Destroys every socket, in flight or idle: a pending request fails at once instead of at its timeout. */
  destroy(): void {
    this.#destroyed = true;
    for (const agent of this.#agents) agent.destroy();
  }
}

function exporterFor(options: OtlpPushOptions, timeoutMillis: number, agents: Agents): PushMetricExporter {
  return new OTLPMetricExporter({
    url: options.endpoint,
    headers: { ...options.headers },
    temporalityPreference: AggregationTemporalityPreference.CUMULATIVE,
    timeoutMillis,
    httpAgentOptions: agents.factory,
  });
}

/**
 * The exporter the reader pushes through: it stamps start times, keeps `counters.otlp` (pushes, failures, episodes,
 * last error), reports the first failure of each episode, and at stop switches to an exporter whose whole budget
 * (retries included) is `STOP_WAIT_MS`, so a dead collector cannot hold DSH's exit for the regular timeout.
 */
class ReportingExporter implements PushMetricExporter {
  #current: PushMetricExporter;
  readonly #regular: PushMetricExporter;
  readonly #regularAgents = new Agents();
  readonly #stopAgents = new Agents();
  constructor(
    readonly options: OtlpPushOptions,
    timeoutMillis: number,
  ) {
    this.#regular = exporterFor(options, timeoutMillis, this.#regularAgents);
    this.#current = this.#regular;
  }

  /**
   * From now on, pushes get at most `budgetMs` in all (retries included); a regular push still in flight is
   * abandoned (its sockets destroyed), so its longer timeout cannot hold the exit.
   */
  stopping(budgetMs: number): void {
    if (this.#current !== this.#regular) return;
    this.#current = exporterFor(this.options, budgetMs, this.#stopAgents);
    this.#regularAgents.destroy();
    this.#regular.shutdown().catch(() => {});
  }

  /** Destroys every socket the pushes hold (the stop's deadline): a pending push fails now. */
  abort(): void {
    this.#regularAgents.destroy();
    this.#stopAgents.destroy();
  }

  export(metrics: ResourceMetrics, done: ExportDone): void {
    const { counters } = this.options;
    const status = counters.otlp;
    status.pushes += 1;
    this.#current.export(withStartTime(metrics, hrTime(counters.startedAt)), (result) => {
      try {
        if (result.code === EXPORT_SUCCESS) {
          if (status.failing) {
            status.failing = false;
            this.options.onRecover?.(`OTLP metrics push to ${redact(this.options.endpoint)} works again`);
          }
          status.lastSuccessAt = Date.now();
        } else {
          const reason = redact(result.error instanceof Error ? result.error.message : 'unknown error');
          status.failures += 1;
          status.lastError = reason.slice(0, 300);
          status.lastFailureAt = Date.now();
          if (!status.failing) {
            status.failing = true;
            status.episodes += 1;
            this.options.onError(
              `OTLP metrics push to ${redact(this.options.endpoint)} failed: ${status.lastError} (retrying every interval; one message per episode)`,
            );
          }
        }
      } catch {
        // a broken logger must not break the push
      }
      done(result);
    });
  }

  forceFlush(): Promise<void> {
    return this.#current.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.#current.shutdown();
  }

  selectAggregationTemporality(...args: Parameters<NonNullable<PushMetricExporter['selectAggregationTemporality']>>) {
    return this.#regular.selectAggregationTemporality!(...args);
  }
}

function observeRows(
  observe: (value: number, attributes: Attributes) => void,
  rows: Iterable<Pick<Series<string>, 'value'> & { readonly labels: object }>,
): void {
  for (const row of rows) observe(row.value, row.labels as Attributes);
}

/** Starts pushing; the caller owns the returned handle (the plugin registers `stop` with `ctx.effect`). */
export function startOtlpPush(options: OtlpPushOptions): OtlpPush {
  const { counters, identity } = options;
  const timeoutMillis = Math.min(10_000, options.intervalMs);
  const exporter = new ReportingExporter(options, timeoutMillis);
  const reader = new PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: options.intervalMs,
    exportTimeoutMillis: timeoutMillis,
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      'service.name': 'dsh-tool-normalizer',
      'service.version': identity.pluginVersion,
      // Stable across restarts (host and profile, or the metricsInstance option): a CI fleet does not mint a new
      // series set per run.
      'service.instance.id': identity.instance,
      'host.name': identity.host,
      'dsh.profile': identity.profile,
      'dsh.version': identity.dshVersion,
      'process.runtime.name': 'nodejs',
      'process.runtime.version': identity.nodeVersion,
    }),
    readers: [reader],
  });
  const meter = provider.getMeter('dsh-tool-normalizer', identity.pluginVersion);
  const counter = (key: keyof typeof OTLP_METRIC_NAMES, unit: string): ObservableCounter =>
    meter.createObservableCounter(OTLP_METRIC_NAMES[key], {
      description: METRIC_HELP[key as keyof typeof METRIC_HELP],
      unit,
    });
  // Counters with label rows, each read from the per-process counter of the same name.
  const labelled = [
    [counter('calls', '{call}'), counters.calls],
    [counter('modelCalls', '{call}'), counters.modelCalls],
    [counter('heals', '{call}'), counters.heals],
    [counter('savedTokens', '{token}'), counters.savedTokens],
    [counter('modelSavedTokens', '{token}'), counters.modelSavedTokens],
    [counter('repeats', '{call}'), counters.repeats],
    // The shared store's count, not this process's (as on /metrics): every known harness is pushed from 0 on.
    [counter('harnessCalls', '{call}'), { rows: () => harnessSeries(options.harnessCalls) }],
  ] as const;
  const totals: [ObservableCounter, () => number][] = [
    [counter('pluginErrors', '{error}'), () => counters.pluginErrors.value],
    [counter('otlpFailures', '{push}'), () => counters.otlp.failures],
  ];
  if (options.hasDroppedEvents())
    totals.push([counter('droppedEvents', '{event}'), () => counters.droppedEvents.value]);
  const info: ObservableGauge = meter.createObservableGauge(OTLP_METRIC_NAMES.info, { description: METRIC_HELP.info });
  const instruments: (ObservableCounter | ObservableGauge)[] = [
    ...labelled.map(([instrument]) => instrument),
    ...totals.map(([instrument]) => instrument),
    info,
  ];
  const infoAttributes: Attributes = infoLabels(identity);
  meter.addBatchObservableCallback((result) => {
    for (const [instrument, source] of labelled) {
      observeRows((value, attributes) => result.observe(instrument, value, attributes), source.rows());
    }
    for (const [instrument, read] of totals) result.observe(instrument, read());
    result.observe(info, 1, infoAttributes);
  }, instruments);
  let stopping: Promise<void> | undefined;
  return {
    flush: () => provider.forceFlush(),
    stop: () =>
      (stopping ??= (async () => {
        // The final push may hit a collector that refuses, or accepts and never answers: one deadline from now
        // covers it, retries included. At the deadline its sockets are destroyed, so the push fails at once; the
        // backstop resolves the stop even if the SDK does not settle. A dispose, a reload or DSH's exit is never
        // held longer than STOP_WAIT_MS, and nothing of the push stays open after it.
        const budget = STOP_WAIT_MS - ABORT_MARGIN_MS;
        exporter.stopping(budget);
        const done = provider.shutdown().catch(() => {});
        const deadline = setTimeout(() => exporter.abort(), budget);
        deadline.unref();
        let backstop: NodeJS.Timeout | undefined;
        const waited = new Promise<void>((resolve) => {
          backstop = setTimeout(resolve, STOP_WAIT_MS);
          backstop.unref();
        });
        await Promise.race([done, waited]);
        clearTimeout(deadline);
        clearTimeout(backstop);
        exporter.abort();
        // two turns of the event loop: the destroyed sockets' handles close in the first one's close phase
        await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
      })()),
  };
}
