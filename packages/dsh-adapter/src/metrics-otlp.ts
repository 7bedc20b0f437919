/**
 * Fleet metrics, the push half: for machines without a web server (headless DSH, CI runners), the process's fleet
 * counters (metrics.ts) are pushed over OTLP/HTTP (JSON) to a collector through OpenTelemetry's metrics SDK and
 * exporter, every `otlpIntervalMs`, as cumulative monotonic sums. Instruments are observable: the SDK reads the
 * counters when it collects, so recording a call costs nothing extra.
 *
 * Resource attributes say who sent the numbers, so a team can group a fleet: `host.name`, `service.name`
 * (dsh-tool-normalizer), `service.version` (the plugin), `service.instance.id` (one per process), `dsh.version`,
 * `dsh.profile` (the DSH profile the process runs, as the Prometheus `profile` label), `process.runtime.version`. The model is a point attribute (`model`) rather than a resource attribute, because one
 * DSH process can talk to several models.
 *
 * Metric names follow OpenTelemetry's dotted convention with UCUM-style units; a collector's Prometheus exporter
 * translates them to the same names the /metrics endpoint serves (`tool_normalizer.calls` -> `tool_normalizer_calls_total`).
 * Stopping (plugin dispose or reload) collects and pushes once more, then shuts the exporter down.
 */
import type { Attributes, ObservableCounter } from '@opentelemetry/api';
import { AggregationTemporalityPreference, OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { redact } from '@dsh-tool-normalizer/telemetry-store';
import type { FleetCounters, ProcessIdentity, Series } from './metrics.js';
import { METRIC_HELP } from './metrics-prometheus.js';

/** OTLP instrument names (dotted, OpenTelemetry convention). */
export const OTLP_METRIC_NAMES = {
  calls: 'tool_normalizer.calls',
  heals: 'tool_normalizer.heals',
  savedTokens: 'tool_normalizer.saved_tokens',
  repeats: 'tool_normalizer.repeats_caught',
  pluginErrors: 'tool_normalizer.plugin_errors',
  droppedEvents: 'tool_normalizer.dropped_events',
} as const;

/** Longest a stop (plugin dispose or reload) waits for the final push. */
export const STOP_WAIT_MS = 2000;

export interface OtlpPushOptions {
  /** The collector's OTLP/HTTP metrics URL, e.g. `http://collector:4318/v1/metrics`. */
  endpoint: string;
  /** Extra request headers (e.g. an `Authorization` for a hosted backend). */
  headers: Readonly<Record<string, string>>;
  intervalMs: number;
  counters: FleetCounters;
  identity: ProcessIdentity;
  hasDroppedEvents(): boolean;
  /** Called when a push fails (the next interval tries again). */
  onError(message: string): void;
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

/** Wraps the exporter to report failed pushes (the SDK otherwise only tells its silent diagnostic logger). */
function reportingExporter(inner: PushMetricExporter, onError: (message: string) => void): PushMetricExporter {
  return {
    export(metrics: ResourceMetrics, done: ExportDone): void {
      inner.export(metrics, (result) => {
        if (result.code !== EXPORT_SUCCESS) {
          const reason = result.error instanceof Error ? result.error.message : 'unknown error';
          try {
            onError(redact(`OTLP metrics push failed: ${reason}`));
          } catch {
            // a broken logger must not break the push
          }
        }
        done(result);
      });
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    ...(inner.selectAggregationTemporality
      ? { selectAggregationTemporality: inner.selectAggregationTemporality.bind(inner) }
      : {}),
    ...(inner.selectAggregation ? { selectAggregation: inner.selectAggregation.bind(inner) } : {}),
  };
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
  const exporter = reportingExporter(
    new OTLPMetricExporter({
      url: options.endpoint,
      headers: { ...options.headers },
      temporalityPreference: AggregationTemporalityPreference.CUMULATIVE,
      timeoutMillis: Math.min(10_000, options.intervalMs),
    }),
    options.onError,
  );
  const reader = new PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: options.intervalMs,
    exportTimeoutMillis: Math.min(10_000, options.intervalMs),
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      'service.name': 'dsh-tool-normalizer',
      'service.version': identity.pluginVersion,
      'service.instance.id': counters.instanceId,
      'host.name': identity.host,
      'dsh.version': identity.dshVersion,
      'dsh.profile': identity.profile,
      'process.runtime.name': 'nodejs',
      'process.runtime.version': identity.nodeVersion,
    }),
    readers: [reader],
  });
  const meter = provider.getMeter('dsh-tool-normalizer', identity.pluginVersion);
  const counter = (key: keyof typeof OTLP_METRIC_NAMES, unit: string): ObservableCounter =>
    meter.createObservableCounter(OTLP_METRIC_NAMES[key], { description: METRIC_HELP[key], unit });
  // Counters with label rows, each read from the per-process counter of the same name.
  const labelled = [
    [counter('calls', '{call}'), counters.calls],
    [counter('heals', '{call}'), counters.heals],
    [counter('savedTokens', '{token}'), counters.savedTokens],
    [counter('repeats', '{call}'), counters.repeats],
  ] as const;
  const pluginErrors = counter('pluginErrors', '{error}');
  const droppedEvents = options.hasDroppedEvents() ? counter('droppedEvents', '{event}') : undefined;
  const instruments: ObservableCounter[] = [...labelled.map(([instrument]) => instrument), pluginErrors];
  if (droppedEvents) instruments.push(droppedEvents);
  meter.addBatchObservableCallback((result) => {
    for (const [instrument, source] of labelled) {
      observeRows((value, attributes) => result.observe(instrument, value, attributes), source.rows());
    }
    result.observe(pluginErrors, counters.pluginErrors.value);
    if (droppedEvents) result.observe(droppedEvents, counters.droppedEvents.value);
  }, instruments);
  let stopping: Promise<void> | undefined;
  return {
    flush: () => provider.forceFlush(),
    stop: () =>
      (stopping ??= (async () => {
        // The final push may hit an unreachable collector (the exporter retries): a dispose or reload waits at most
        // STOP_WAIT_MS for it, and the shutdown finishes in the background.
        const done = provider.shutdown().catch(() => {});
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, STOP_WAIT_MS);
          timer.unref();
        });
        await Promise.race([done, waited]);
        clearTimeout(timer);
      })()),
  };
}
