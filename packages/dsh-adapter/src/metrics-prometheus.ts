/**
 * Fleet metrics, the Prometheus half: `GET /plugin-api/tool-normalizer/metrics` on the DSH web server, in the
 * Prometheus text format (or OpenMetrics when the scraper asks for it), written by prom-client from the process's
 * fleet counters (metrics.ts) at scrape time. Each endpoint has its own prom-client Registry, never the library's
 * global one, so nothing else in the process (another plugin using prom-client) can add to or read from it.
 *
 * Same guard as the stats route (route-guard.ts): a loopback or listed `Host`, no cross-site reader, and the token
 * when DSH listens on a non-loopback address. Every series carries the DSH `profile` this process runs in (a
 * default label of the registry). The response is never cached.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
// prom-client is CommonJS and requires Node built-ins while it loads: an ES-module bundle of this file must define
// `require` (the published bundle and the test bundle do, with a `createRequire` banner).
import { Counter, Gauge, Registry } from 'prom-client';
import type { HarnessCalls } from '@dsh-tool-normalizer/telemetry-store';
import {
  type FleetCounters,
  HARNESS_LABELS,
  harnessSeries,
  type ProcessIdentity,
  type SeedRows,
  type Series,
} from './metrics.js';
import type { RouteGuard } from './route-guard.js';
import { ROUTE_PREFIX } from './routes.js';

/** The metrics endpoint's path. */
export const METRICS_PATH = `${ROUTE_PREFIX}/metrics`;

/** Every metric name the endpoint serves (the `_total` suffix of counters included). */
export const METRIC_NAMES = {
  calls: 'tool_normalizer_calls_total',
  modelCalls: 'tool_normalizer_model_calls_total',
  heals: 'tool_normalizer_heals_total',
  savedTokens: 'tool_normalizer_saved_tokens_total',
  modelSavedTokens: 'tool_normalizer_model_saved_tokens_total',
  repeats: 'tool_normalizer_repeats_caught_total',
  pluginErrors: 'tool_normalizer_plugin_errors_total',
  droppedEvents: 'tool_normalizer_dropped_events_total',
  otlpFailures: 'tool_normalizer_otlp_push_failures_total',
  harnessCalls: 'tool_normalizer_store_harness_calls_total',
  startTime: 'tool_normalizer_start_time_seconds',
  info: 'tool_normalizer_build_info',
} as const;

/** Help texts, shared with the OTLP push so both say the same thing. */
export const METRIC_HELP = {
  calls: 'Model-visible tool calls this process recorded, by tool, error category ("ok" when none) and outcome.',
  modelCalls: 'Model-visible tool calls this process recorded, by model and outcome.',
  heals:
    'Calls a healing rule was applied to, by catalogue rule id and outcome (healed-success: the model saw a success).',
  savedTokens:
    'Tokens the model did not have to re-read: measured request pressure times round-trips avoided by healed calls.',
  modelSavedTokens: 'Tokens saved (as tool_normalizer_saved_tokens_total), by model.',
  repeats: 'Identical failures (same tool, arguments and error code) caught again in the same session and hinted.',
  pluginErrors: 'Exceptions inside the plugin that were contained (the host behaved as without the plugin).',
  droppedEvents:
    'Telemetry events this process dropped because the write queue was full (counters still include them).',
  otlpFailures:
    'OTLP metric pushes of this process that failed (the next interval pushes the cumulative values again).',
  harnessCalls:
    'Tool calls other harnesses than DSH (harness "mcp": the MCP healing proxy) recorded into the telemetry store this process uses, by harness and outcome, as the shared store counts them (every process and profile using it; back to 0 when the store is cleared). Not part of tool_normalizer_calls_total, which counts only this process\'s own calls.',
  startTime: 'When this process started counting (Unix seconds): the start of every cumulative series here.',
  info: 'Always 1; labels say which instance (host, profile) and which plugin, DSH and Node versions this process runs.',
} as const;

export interface MetricsSource {
  counters: FleetCounters;
  identity: ProcessIdentity;
  /** Whether the store reports dropped events (the metric is left out otherwise rather than shown as 0). */
  hasDroppedEvents(): boolean;
  /** Calls other harnesses recorded into the shared store (`TelemetryStore.harnessCalls`), read at each scrape. */
  harnessCalls?(): readonly HarnessCalls[] | undefined;
}

/** Sets the counter to the rows' values; `zeros` are label sets served at 0 until they count something. */
function fill<L extends string>(
  counter: Counter<L>,
  rows: Iterable<Series<L>>,
  zeros: readonly Record<L, string>[] = [],
): void {
  counter.reset();
  for (const labels of zeros) counter.inc(labels as Partial<Record<L, string>>, 0);
  for (const row of rows) counter.inc(row.labels as Partial<Record<L, string>>, row.value);
}

/** A registry whose metrics read the fleet counters each time it is collected. */
export function createMetricsRegistry(
  source: MetricsSource,
  format: 'prometheus' | 'openmetrics' = 'prometheus',
): Registry {
  const registry = new Registry();
  if (format === 'openmetrics') registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE as never);
  const { counters, identity } = source;
  registry.setDefaultLabels({ profile: identity.profile });
  const registers = [registry];
  // Read at each collection, so tools registered since the last scrape are served at 0 too.
  const seedRows = (): SeedRows => counters.seedRows();
  const labelled = <L extends string>(
    key: keyof typeof METRIC_NAMES,
    table: { labelNames: readonly L[]; rows(): Iterable<Series<L>> },
    zeros?: () => readonly Record<L, string>[],
  ): void => {
    new Counter({
      name: METRIC_NAMES[key],
      help: METRIC_HELP[key as keyof typeof METRIC_HELP],
      labelNames: table.labelNames,
      registers,
      collect() {
        fill(this, table.rows(), zeros?.());
      },
    });
  };
  labelled('calls', counters.calls, () => seedRows().calls);
  labelled('modelCalls', counters.modelCalls, () => seedRows().modelCalls);
  labelled('heals', counters.heals, () => seedRows().heals);
  labelled('savedTokens', counters.savedTokens, () => seedRows().savedTokens);
  labelled('modelSavedTokens', counters.modelSavedTokens, () => seedRows().modelSavedTokens);
  labelled('repeats', counters.repeats, () => seedRows().repeats);
  const total = (key: keyof typeof METRIC_NAMES, read: () => number): void => {
    new Counter({
      name: METRIC_NAMES[key],
      help: METRIC_HELP[key as keyof typeof METRIC_HELP],
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  };
  total('pluginErrors', () => counters.pluginErrors.value);
  if (source.hasDroppedEvents()) total('droppedEvents', () => counters.droppedEvents.value);
  total('otlpFailures', () => counters.otlp.failures);
  // Read from the shared store at each scrape; every known harness is served at 0 before its first call.
  labelled('harnessCalls', { labelNames: HARNESS_LABELS, rows: () => harnessSeries(source.harnessCalls) });
  new Gauge({ name: METRIC_NAMES.startTime, help: METRIC_HELP.startTime, registers }).set(counters.startedAt / 1000);
  const info = new Gauge({
    name: METRIC_NAMES.info,
    help: METRIC_HELP.info,
    labelNames: INFO_LABELS,
    registers,
  });
  info.set(infoLabels(identity), 1);
  return registry;
}

/** The labels of `tool_normalizer_build_info` (the OTLP push sends the same gauge with the same attributes). */
export const INFO_LABELS = ['instance_name', 'host', 'version', 'dsh_version', 'node_version'] as const;

export function infoLabels(identity: ProcessIdentity): Record<(typeof INFO_LABELS)[number], string> {
  return {
    instance_name: identity.instance,
    host: identity.host,
    version: identity.pluginVersion,
    dsh_version: identity.dshVersion,
    node_version: identity.nodeVersion,
  };
}

function sendText(res: ServerResponse, status: number, contentType: string, text: string): void {
  res.writeHead(status, {
    'content-type': contentType,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** True when the scraper prefers OpenMetrics (Prometheus sends `application/openmetrics-text` first by default). */
export function wantsOpenMetrics(accept: string | undefined): boolean {
  return accept !== undefined && /application\/openmetrics-text/i.test(accept);
}

/** The `GET /metrics` handler; registries are built once per format and reused. */
export function createMetricsHandler(source: MetricsSource, guard: RouteGuard) {
  let prometheus: Registry | undefined;
  let openMetrics: Registry | undefined;
  return async function handleMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const plain = 'text/plain; charset=utf-8';
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, plain, 'use GET\n');
    const refused = guard.read(req);
    if (refused) return sendText(res, refused.status, plain, `${refused.error}\n`);
    let registry: Registry;
    let text: string;
    try {
      if (wantsOpenMetrics(req.headers.accept)) {
        openMetrics ??= createMetricsRegistry(source, 'openmetrics');
        registry = openMetrics;
      } else {
        prometheus ??= createMetricsRegistry(source);
        registry = prometheus;
      }
      text = await registry.metrics();
    } catch {
      return sendText(res, 503, plain, 'metrics are unavailable\n');
    }
    sendText(res, 200, registry.contentType, text); // node:http sends no body for HEAD
  };
}
