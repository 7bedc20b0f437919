/**
 * The cordis plugin: validates the config, then wires the engine onto DSH's seams (docs/architecture.md#one-tool-call-through-dsh). Every
 * listener, section, route and the telemetry store belong to this plugin's fiber (`ctx.on`, `ctx.effect`, the
 * host's own disposers), so disposing or hot-reloading the plugin leaves nothing behind. Optional services are
 * reached through `ctx.inject` (webServer exists only in the web profile, systemPrompt nearly everywhere) or read
 * at call time (`tokenMeter`, `agents`), so the plugin loads the same in web, headless and tui.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createTelemetryStore, type TelemetryStoreOptions } from '@dsh-tool-normalizer/telemetry-store';
import { resolveConfig, type ToolNormalizerConfig } from './config.js';
import { EnvironmentReader } from './environment.js';
import { createExecuteListener } from './execute-seam.js';
import { PluginErrors } from './plugin-errors.js';
import { agentModel, type Context } from './host.js';
import { PluginState } from './plugin-state.js';
import { createPostExecuteListener } from './post-execute-seam.js';
import { PROMPT_SECTION_NAME, PROMPT_SECTION_ORDER, PROMPT_SECTION_TEXT } from './prompt-section.js';
import { createResultListener } from './result-seam.js';
import { dshProfileName } from './dsh-profile.js';
import { createFeedBackend } from './feed-backend.js';
import { createRouteGuard } from './route-guard.js';
import {
  type RouteBackend,
  type RouteOptions,
  CLEAR_PATH,
  EVENTS_PATH,
  STATS_PATH,
  TOKEN_PATH,
  createClearHandler,
  createEventsHandler,
  createStatsHandler,
  createTokenHandler,
} from './routes.js';
import { createStreamListener } from './stream-seam.js';
import {
  configForDisplay,
  lastReadableHarnessCalls,
  meterStore,
  processFleetCounters,
  processIdentity,
  storeCountsDroppedEvents,
} from './metrics.js';
import { METRICS_PATH, createMetricsHandler, type MetricsSource } from './metrics-prometheus.js';
import { startOtlpPush } from './metrics-otlp.js';
import { assignLiveOptions, installLiveOptions, liveOptionsTransport } from './settings-namespace.js';
import {
  createHostConfig,
  type HostConfigValidator,
  type HostConfigValue,
  splitLiveReferences,
} from './host-config.js';
import { runningDshVersion } from './host-release.js';

/**
 * The row's config schema, built for the way the running DSH release stores live options (`host-config.ts`): read
 * once, when the host loads this module.
 */
export const Config: HostConfigValidator = createHostConfig(liveOptionsTransport(runningDshVersion()));

/** The plugin (and loader row) name. */
export const name = 'tool-normalizer';

/** Required services; the rest are optional and looked up when used. */
export const inject = ['tools'];

/** Where the JSONL log and summary go when `logDir` is empty: `$DSH_HOME` (default `~/.dsh`). */
export function defaultLogDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env['DSH_HOME'];
  return home !== undefined && home !== '' ? home : join(homedir(), '.dsh');
}

export function apply(ctx: Context, rawConfig?: Partial<ToolNormalizerConfig> | HostConfigValue): void {
  // The loader hands the live options as references on `volatile-config` hosts; the plugin works on plain values.
  const { config: plainConfig, references } = splitLiveReferences(rawConfig);
  const config = resolveConfig(plainConfig);
  const logger = ctx.logger('tool-normalizer');
  // Receipts carry the DSH profile they were recorded in; the dashboard shows its own profile unless asked for all.
  const profile = dshProfileName(ctx as { baseUrl?: unknown });
  const errors = new PluginErrors({ warn: (message) => logger.warn(message) });
  const state = new PluginState(ctx, config, new EnvironmentReader(ctx), errors);
  ctx.effect(() => () => state.clear(), 'tool-normalizer call state');
  // Fleet metrics count per process (they outlive this activation); this activation's plugin errors join them.
  const fleet = processFleetCounters();
  ctx.effect(() => fleet.pluginErrors.attach(() => errors.count), 'tool-normalizer metrics: plugin errors');

  ctx.effect(() => {
    try {
      // `profile` is telemetry-store's per-profile receipts option (a store without it ignores the field).
      const options: TelemetryStoreOptions & { profile?: string } = {
        dir: config.logDir !== '' ? config.logDir : defaultLogDir(),
        profile,
        maxLogBytes: config.maxLogBytes,
        maxStoredEvents: config.maxStoredEvents,
        maxStoredBytes: config.maxStoredBytes,
        persistPassthrough: config.persistPassthrough,
        warn: (message) => logger.warn(message),
      };
      state.telemetry = meterStore(fleet, createTelemetryStore(options));
    } catch (error) {
      errors.report('telemetry', error);
    }
    return async () => {
      const store = state.telemetry;
      state.telemetry = undefined;
      await store?.close();
    };
  }, 'tool-normalizer telemetry');

  ctx.on('llm/stream', createStreamListener(state));
  ctx.on('tools/execute', createExecuteListener(state));
  ctx.on('tools/post-execute', createPostExecuteListener(state));
  ctx.on('tools/result', createResultListener(state));

  if (config.injectPrompt) {
    ctx.inject(['systemPrompt'], (scoped) => {
      scoped.systemPrompt.section({
        name: PROMPT_SECTION_NAME,
        order: PROMPT_SECTION_ORDER,
        text: PROMPT_SECTION_TEXT,
      });
    });
  }

  const metricsSource: MetricsSource = {
    counters: fleet,
    identity: processIdentity(profile, config.metricsInstance),
    hasDroppedEvents: () => storeCountsDroppedEvents(state.telemetry),
    harnessCalls: lastReadableHarnessCalls(() => state.telemetry?.harnessCalls?.()),
  };
  // Registered tools keep their own metric labels and are served at 0 before their first call (metrics.ts).
  const registerTools = (): void => {
    try {
      fleet.registerTools(ctx.tools.schemas().map((tool) => tool.name));
    } catch (error) {
      errors.report('metrics', error);
    }
  };
  registerTools();
  ctx.on('tools/change', registerTools);
  // DSH registers most tools per agent (presets): an agent's tools and model are known when it is created, before
  // its first request.
  ctx.on('agent/created', ({ agent }) => {
    try {
      fleet.registerTools(ctx.tools.schemas(agent).map((tool) => tool.name));
      const model = agentModel(agent);
      if (model !== undefined) fleet.registerModels([model]);
    } catch (error) {
      errors.report('metrics', error);
    }
  });
  if (config.otlpEndpoint !== '') {
    ctx.effect(() => {
      const push = startOtlpPush({
        ...metricsSource,
        endpoint: config.otlpEndpoint,
        headers: config.otlpHeaders,
        intervalMs: config.otlpIntervalMs,
        // Headless DSH prints no plugin log (docs/host-facts.md): one line per failure episode also goes to stderr.
        onError: (message) => {
          logger.warn(message);
          process.stderr.write(`[tool-normalizer] ${message}\n`);
        },
        onRecover: (message) => logger.info(message),
      });
      return () => push.stop();
    }, 'tool-normalizer OTLP push');
  }

  const displayedConfig = configForDisplay(config);
  const feed = createFeedBackend({
    config: displayedConfig,
    store: () => state.telemetry,
    pluginErrors: () => errors.count,
    otlp: () => (config.otlpEndpoint === '' ? undefined : { ...fleet.otlp }),
    profile,
  });
  // The live options (rule switches, hints, loops, stack trimming) also live in DSH's settings document, editable
  // under Plugins > Plugin configuration; a change reaches the seams and the dashboard on the next call.
  installLiveOptions(ctx, {
    config,
    // References exist exactly when the loader validated the row with a volatile `Config` (a 0.1.7-rc.2+ host).
    transport: Object.keys(references).length > 0 ? 'volatile-config' : 'settings-namespace',
    references,
    apply: (options) => assignLiveOptions(options, state.config, state.toggles, displayedConfig),
    report: (error) => errors.report('settings', error),
  });
  // The stats route writes this process's queued events first, so the payload includes the calls just made.
  const backend: RouteBackend = { ...feed, flush: async () => state.telemetry?.flush() };
  ctx.inject(['webServer'], (web) => {
    // One token per activation; the bind address decides whether the reading routes need it too.
    const guard = createRouteGuard({ allowedHosts: config.allowedHosts, bindHost: () => web.webServer.host });
    const routes: RouteOptions = { backend, guard, profile };
    const register = (path: string, handler: Parameters<typeof web.webServer.register>[0]['handler'], label: string) =>
      web.effect(() => web.webServer.register({ kind: 'exact', path, handler }), `tool-normalizer ${label} route`);
    register(STATS_PATH, createStatsHandler(routes), 'stats');
    register(CLEAR_PATH, createClearHandler(routes), 'clear');
    register(EVENTS_PATH, createEventsHandler(routes), 'events');
    register(TOKEN_PATH, createTokenHandler(guard), 'token');
    if (config.metrics) register(METRICS_PATH, createMetricsHandler(metricsSource, guard), 'metrics');
  });
}
