/**
 * How the plugin's live options reach the host and come back, per release (`liveOptionsTransport`, from
 * @dsh-tool-normalizer/dsh-profile's `releaseFacts(version).liveOptions`; docs/host-facts.md, "Where live options
 * live"):
 * - `volatile-config` (0.1.7-rc.2 on): the host has no `settings.register`; it derives the form from the row
 *   `Config`'s volatile fields (`host-config.ts`) and the loader updates the plugin's references, then emits
 *   `loader/volatile-update`; the plugin re-reads them then.
 * - `settings-namespace` (rc.8 to 0.1.7-rc.1): the rest of this header.
 * A host that has neither is reported once (a `settings` plugin error naming where the options are set) and the
 * plugin keeps the row's values; the options card then shows them read-only.
 *
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
import { DSH_LIVE, type LiveOptionsTransport, releaseFacts } from '@dsh-tool-normalizer/dsh-profile';
import type { Context } from './host.js';
import type { LiveReferences } from './host-config.js';
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
  register?<T>(ns: string, schema: unknown, options: { base: Partial<T>; applies: 'live' }): SettingsScopeLike<T>;
}

/**
 * The transport for DSH `release` (the running `@deepseek-ai/dsh` version, `runningDshVersion()`): its row's
 * `liveOptions` (the nearest known release's for an unknown version); rc.8's when the release cannot be read.
 */
export function liveOptionsTransport(release: string | undefined): LiveOptionsTransport {
  const facts = release === undefined ? undefined : releaseFacts(release);
  return (facts ?? releaseFacts(DSH_LIVE))!.liveOptions;
}

/** Where the options are set when the host offers no way to change them live (the message of the report). */
export const NO_LIVE_SETTINGS =
  'this DSH has no settings service the plugin can register its live options with (no `settings.register`); the options card shows them read-only, and they are set in the "tool-normalizer" row\'s config (cordis.patch.yml) or the plugin entry of the profile';

export interface LiveOptionsWiring {
  /** The loader row's resolved config: the composition layer, and what applies while no settings service exists. */
  config: ToolNormalizerConfig;
  /** How options reach this host (`liveOptionsTransport`; the `Config` export was built for the same one). */
  transport: LiveOptionsTransport;
  /** The loader's references to the live options (`splitLiveReferences`), on `volatile-config` hosts. */
  references: LiveReferences;
  /** Receives every effective value: at registration, after each committed change, and the row's values back. */
  apply(options: LiveOptions): void;
  /** Reports a registration failure (e.g. an invalid stored section); never thrown. */
  report(error: unknown): void;
}

/** The live options as the loader's references hold them now; a field without a reference keeps `fallback`'s. */
export function readLiveReferences(references: LiveReferences, fallback: LiveOptions): LiveOptions {
  const options = { ...fallback };
  for (const name of LIVE_OPTIONS) {
    const value = references[name]?.get();
    if (typeof value === 'boolean') options[name] = value;
  }
  return options;
}

/**
 * `volatile-config`: applies the references' values on every `loader/volatile-update` of this plugin (the loader
 * emits it to the owning fiber only, after committing the new values). `settings-namespace`: registers the
 * namespace while DSH's `settings` service exists (web, tui and headless all have one), applies the resolved
 * options now and on every change, and falls back to the row's config when the service goes away.
 */
export function installLiveOptions(ctx: Context, wiring: LiveOptionsWiring): void {
  const base = pickLiveOptions(wiring.config);
  if (wiring.transport === 'volatile-config') {
    const on = (ctx as unknown as { on(name: string, listener: () => void): () => void }).on.bind(ctx);
    on('loader/volatile-update', () => wiring.apply(readLiveReferences(wiring.references, base)));
    return;
  }
  const schema = liveOptionsSchema();
  ctx.inject(['settings'], (scoped) => {
    const settings = (scoped as unknown as { settings: SettingsServiceLike }).settings;
    if (typeof settings?.register !== 'function') {
      wiring.report(new Error(NO_LIVE_SETTINGS));
      return;
    }
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
