/**
 * The plugin's live options in DSH's settings document, so they appear (and can be changed) under Plugins > Plugin
 * configuration: rc.8 lists a plugin there only when it registers a settings namespace on the host
 * (`ctx.settings.register(namespace, schemasterySchema, {base})`) and ships a card for it in the browser.
 *
 * Only the options the seams read per call are in the namespace: the rule switches, `errorHints`, `breakLoops`,
 * `trimStackTraces`. A change applies to the next tool call, no restart. The other options shape resources made
 * once at load (the telemetry store, routes, the prompt section, the OTLP push) and stay in the loader row's
 * config (`cordis.patch.yml`). The row's values are the namespace's composition layer (`base`); the user's
 * overrides live in `$DSH_HOME/settings.yaml`.
 *
 * The host resolves a namespace with a Schemastery schema (it calls `schema(value)` and serializes
 * `schema.toJSON()` for the browser, which rehydrates it). The schema is built here from the typebox `ConfigSchema`
 * (same defaults and descriptions), with the Schemastery library bundled into the published file because a linked
 * plugin cannot import `@deepseek-ai/*` at runtime (docs/host-facts.md, "Linked plugins").
 *
 * Never breaks boot: a stored section the schema refuses makes the host's `register` throw; that is reported as a
 * plugin error, and the plugin keeps running on the row's config.
 */
import Schema from '@deepseek-ai/schemastery';
import { ConfigSchema, type ToolNormalizerConfig } from './config.js';
import type { Context } from './host.js';
import { LIVE_OPTIONS, SETTINGS_NAMESPACE, type LiveOptionName } from './live-options.js';

export { LIVE_OPTIONS, SETTINGS_NAMESPACE, type LiveOptionName };

export type LiveOptions = Pick<ToolNormalizerConfig, LiveOptionName>;

/** The namespace schema: one boolean per live option, default and description taken from `ConfigSchema`. */
export function liveOptionsSchema(): Schema<Partial<LiveOptions>, LiveOptions> {
  const properties = ConfigSchema.properties as Record<
    string,
    { type?: string; default?: unknown; description?: string }
  >;
  const fields: Record<string, Schema> = {};
  for (const name of LIVE_OPTIONS) {
    const property = properties[name];
    if (property?.type !== 'boolean' || typeof property.default !== 'boolean')
      throw new Error(`live option ${name} is not a boolean in ConfigSchema`);
    fields[name] = Schema.boolean()
      .default(property.default)
      .description(property.description ?? '');
  }
  return Schema.object(fields) as unknown as Schema<Partial<LiveOptions>, LiveOptions>;
}

/** The live options of a resolved config (the namespace's `base` layer). */
export function pickLiveOptions(config: LiveOptions): LiveOptions {
  return Object.fromEntries(LIVE_OPTIONS.map((name) => [name, config[name]])) as LiveOptions;
}

/** The slice of `@deepseek-ai/dsh-settings`' `SettingsScope` used here. */
interface SettingsScopeLike<T> {
  get(): T;
  watch(callback: (next: T, prev: T) => void | Promise<void>): () => void;
}

interface SettingsServiceLike {
  register<T>(ns: string, schema: unknown, options: { base: Partial<T>; applies: 'live' }): SettingsScopeLike<T>;
}

export interface LiveOptionsWiring {
  /** The loader row's resolved config: the composition layer, and what applies while no settings service exists. */
  config: ToolNormalizerConfig;
  /** Receives every effective value: at registration, after each committed change, and the row's values back. */
  apply(options: LiveOptions): void;
  /** Reports a registration failure (e.g. an invalid stored section); never thrown. */
  report(error: unknown): void;
}

/**
 * Registers the namespace while DSH's `settings` service exists (web, tui and headless all have one), applies
 * the resolved options now and on every change, and falls back to the row's config when the service goes away.
 */
export function installLiveOptions(ctx: Context, wiring: LiveOptionsWiring): void {
  const base = pickLiveOptions(wiring.config);
  const schema = liveOptionsSchema();
  ctx.inject(['settings'], (scoped) => {
    const settings = (scoped as unknown as { settings: SettingsServiceLike }).settings;
    let scope: SettingsScopeLike<LiveOptions>;
    try {
      scope = settings.register<LiveOptions>(SETTINGS_NAMESPACE, schema, { base, applies: 'live' });
    } catch (error) {
      wiring.report(error);
      return;
    }
    wiring.apply(pickLiveOptions(scope.get()));
    scope.watch((next) => wiring.apply(pickLiveOptions(next)));
    scoped.effect(() => () => wiring.apply(base), 'tool-normalizer: live options back to the row config');
  });
}

/**
 * Writes live options into the objects the seams read per call (the plugin state's config and rule switches,
 * the dashboard's view of the config). They are the plugin's own plain objects, updated in place so every seam
 * holding them sees the change on its next call.
 */
export function assignLiveOptions(options: LiveOptions, ...targets: Partial<LiveOptions>[]): void {
  for (const target of targets) {
    for (const name of LIVE_OPTIONS) if (name in target) target[name] = options[name];
  }
}
