/**
 * The plugin's `Config` export as the DSH loader and settings service read it. From DSH 0.1.7-rc.2 on there is no
 * settings namespace to register: the host derives the plugin's settings form from the fields of the row's `Config`
 * schema marked `.volatile()` (a Schemastery schema is required: `toJSON`, `meta.volatile`, `dict`, and the Standard
 * Schema vendor `schemastery`, which the loader checks before it commits a volatile-only change live), stores edits
 * in the profile patch, and hands them to the running plugin through `Volatile` references (`get()`) followed by a
 * `loader/volatile-update` event. Facts and sources: docs/host-facts.md ("Where live options live").
 *
 * So `Config` is a real Schemastery object schema, built here from the typebox `ConfigSchema` (same defaults and
 * descriptions); its validation is still `validateConfig` (the typebox rules and the messages that name the option
 * and where it was set). Which release's way applies is decided once, when the host loads the module
 * (`liveOptionsTransport`, from the running release's row in @dsh-tool-normalizer/dsh-profile):
 * - `volatile-config`: the live options are volatile and a valid config comes back with each of them wrapped in a
 *   `Volatile` reference made by Schemastery itself (the cross-copy cosmokit protocol the loader updates). `apply`
 *   takes them apart again with `splitLiveReferences`, so the rest of the plugin sees plain values.
 * - `settings-namespace` (rc.8 to 0.1.7-rc.1, and a host whose release cannot be read): nothing is volatile, so a
 *   change of the row's config restarts the plugin as before, and the live options go through the namespace
 *   (`settings-namespace.ts`). A volatile field there would make the loader take a row edit as a live change the
 *   namespace layer never sees.
 */
import Schema from '@deepseek-ai/schemastery';
import { ConfigSchema, type ToolNormalizerConfig, validateConfig } from './config.js';
import { LIVE_OPTIONS, type LiveOptionName } from './live-options.js';
import type { LiveOptionsTransport } from '@dsh-tool-normalizer/dsh-profile';

/** A live option's value as the host's loader hands it over (`Volatile<boolean>` of `@deepseek-ai/cordis`). */
export interface LiveReference {
  get(): boolean;
}

export type LiveReferences = Partial<Record<LiveOptionName, LiveReference>>;

/** The resolved config the loader hands `apply`: on `volatile-config` hosts the live options are references. */
export type HostConfigValue = Omit<ToolNormalizerConfig, LiveOptionName> &
  Record<LiveOptionName, LiveReference | boolean>;

interface StandardIssue {
  readonly message: string;
  readonly path?: readonly PropertyKey[];
}

/** The Standard Schema surface the loader calls (`Config['~standard'].validate(raw)`), vendor `schemastery`. */
export interface HostConfigValidator {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'schemastery';
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: HostConfigValue; readonly issues?: undefined }
      | { readonly issues: readonly StandardIssue[] };
  };
  /** Schemastery's serialized form (the settings service sends it to the browser). */
  toJSON(): unknown;
  /** How live options reach this process's host (decided when the module was loaded). */
  readonly transport: LiveOptionsTransport;
  /** The typebox schema, for tools that render settings forms or documentation. */
  readonly schema: typeof ConfigSchema;
}

type Property = { type?: string; default?: unknown; description?: string };

const LIVE = new Set<string>(LIVE_OPTIONS);

/** One option's Schemastery node, shaped as its typebox property (type, default, description). */
function fieldSchema(name: string, property: Property, volatile: boolean): Schema {
  let node: Schema;
  if (property.type === 'boolean') node = Schema.boolean();
  else if (property.type === 'integer' || property.type === 'number') node = Schema.number();
  else if (property.type === 'string') node = Schema.string();
  else if (property.type === 'array') node = Schema.array(Schema.string());
  else if (property.type === 'object') node = Schema.dict(Schema.string());
  else node = Schema.any();
  if (property.default !== undefined) node = node.default(property.default as never);
  if (property.description) node = node.description(property.description);
  if (LIVE.has(name) && property.type !== 'boolean')
    throw new Error(`live option ${name} is not a boolean in ConfigSchema`);
  if (LIVE.has(name) && volatile) node = node.volatile();
  return node;
}

/** A live option's reference, made by Schemastery's volatile resolution (the protocol the host's loader updates). */
const referenceSchema = Schema.boolean().volatile();
function reference(value: boolean): LiveReference {
  return referenceSchema(value) as unknown as LiveReference;
}

function isReference(value: unknown): value is LiveReference {
  return typeof value === 'object' && value !== null && typeof (value as { get?: unknown }).get === 'function';
}

/**
 * Splits a config as `apply` receives it: the loader's references for the live options (each read to its current
 * value), everything else as given. A config passed without the loader (tests, `ctx.plugin(plugin, {...})`) has no
 * references and comes back unchanged.
 */
export function splitLiveReferences(raw: unknown): { config: unknown; references: LiveReferences } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { config: raw, references: {} };
  const references: LiveReferences = {};
  const config: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const name of LIVE_OPTIONS) {
    const value = config[name];
    if (!isReference(value)) continue;
    references[name] = value;
    config[name] = value.get();
  }
  return { config, references };
}

/** Validates with `validateConfig`; with `volatile`, wraps each live option in a reference. */
function validator(volatile: boolean) {
  return (value: unknown) => {
    const result = validateConfig(splitLiveReferences(value).config);
    if (result.issues) return { issues: result.issues };
    if (!volatile) return { value: result.value as unknown as HostConfigValue };
    const resolved: Record<string, unknown> = { ...result.value };
    for (const name of LIVE_OPTIONS) resolved[name] = reference(result.value[name]);
    return { value: resolved as HostConfigValue };
  };
}

/** Builds the `Config` export for a transport: the Schemastery schema of every option, validated as above. */
export function createHostConfig(transport: LiveOptionsTransport): HostConfigValidator {
  const volatile = transport === 'volatile-config';
  const properties = ConfigSchema.properties as Record<string, Property>;
  const schema = Schema.object(
    Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, fieldSchema(name, property, volatile)]),
    ),
  );
  const hidden = (value: unknown) => ({ value, enumerable: false });
  Object.defineProperty(
    schema,
    '~standard',
    hidden(Object.freeze({ version: 1, vendor: 'schemastery', validate: validator(volatile) })),
  );
  Object.defineProperty(schema, 'schema', hidden(ConfigSchema));
  Object.defineProperty(schema, 'transport', hidden(transport));
  return schema as unknown as HostConfigValidator;
}
