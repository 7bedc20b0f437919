/**
 * The plugin's configuration: one typebox schema with the seed plugin's option names and defaults, exposed to
 * cordis as a Standard Schema (`~standard`, what cordis' loader calls to validate a row's `config:`). The rule
 * switches come from core-rules' catalogue (`switchCatalogue`); the options below them belong to the plugin.
 *
 * Why not the host's own schemastery: a plugin installed from a local path (`link:`) resolves imports from its real
 * folder and cannot see `@deepseek-ai/schemastery` in the profile (docs/host-facts.md#linked-plugins-and-runtime-imports), so the published bundle
 * may not import it at runtime. An invalid value fails plugin load with a message naming the option and the
 * expected type.
 */
import { type SwitchId, switchCatalogue } from '@dsh-tool-normalizer/core-rules/catalogue';
import { type Static, type TBoolean, Type } from 'typebox';
import { Value } from 'typebox/value';

/** A bare host name for `allowedHosts`: letters, digits, `.`, `-`, `_`; no scheme, port, path or wildcard. */
const HOST_NAME_PATTERN = '^[A-Za-z0-9_.-]+$';
/** `otlpEndpoint`: empty, or an http(s) URL without spaces. */
const OTLP_URL_PATTERN = '^(|https?://[^\\s]+)$';
/** An HTTP header name (RFC 9110 token) and a value without line breaks, for `otlpHeaders`. */
const HEADER_NAME_PATTERN = "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$";
const HEADER_VALUE_PATTERN = '^[^\\r\\n]*$';
/** A fleet instance name: letters, digits and `_ . : / @ -` (it becomes a label value), or empty for the default. */
const INSTANCE_NAME_PATTERN = '^[A-Za-z0-9_.:/@-]*$';

/** One boolean option per rule switch of core-rules' catalogue (name, description; every switch is on by default). */
const switchOptions = Object.fromEntries(
  switchCatalogue.map((row) => [row.id, Type.Boolean({ default: true, description: row.description })]),
) as { [K in SwitchId]: TBoolean };

export const ConfigSchema = Type.Object(
  {
    ...switchOptions,
    injectPrompt: Type.Boolean({
      default: true,
      description: 'Add a short static tool-call guidance section to the system prompt.',
    }),
    trimStackTraces: Type.Boolean({
      default: true,
      description: 'Remove stack-frame lines pointing into node_modules/.pnpm or worker internals from error text.',
    }),
    persistPassthrough: Type.Boolean({
      default: false,
      description: 'Also write calls that needed no healing to the JSONL log (they are always counted).',
    }),
    logDir: Type.String({
      default: '',
      description:
        'Directory of the SQLite store (tool-normalizer.sqlite) and the JSONL journal; empty means $DSH_HOME (default ~/.dsh).',
    }),
    maxLogBytes: Type.Integer({
      default: 4 * 1024 * 1024,
      minimum: 64 * 1024,
      description: 'Size at which the JSONL log rotates.',
    }),
    maxStoredEvents: Type.Integer({
      default: 200_000,
      minimum: 1,
      description:
        'Event rows kept in the telemetry database; the oldest are deleted past it (counters keep every call).',
    }),
    maxStoredBytes: Type.Integer({
      default: 256 * 1024 * 1024,
      minimum: 1024 * 1024,
      description:
        'Bytes of event rows kept in the telemetry database; the oldest are deleted past it (counters keep every call).',
    }),
    allowedHosts: Type.Array(Type.String({ pattern: HOST_NAME_PATTERN }), {
      default: [],
      description:
        'Host names or IP literals, besides loopback (localhost, *.localhost, 127.0.0.0/8, [::1]), the web routes answer to, e.g. a reverse proxy on this machine. DNS-rebinding and LAN defence: the token the dashboard needs is still handed out only to pages loaded from this machine.',
    }),
    metrics: Type.Boolean({
      default: true,
      description:
        'Serve Prometheus/OpenMetrics counters at GET /plugin-api/tool-normalizer/metrics (web profile only).',
    }),
    otlpEndpoint: Type.String({
      default: '',
      pattern: OTLP_URL_PATTERN,
      description:
        'OTLP/HTTP metrics URL to push the same counters to (e.g. http://collector:4318/v1/metrics); empty means no push.',
    }),
    otlpHeaders: Type.Record(
      Type.String({ pattern: HEADER_NAME_PATTERN }),
      Type.String({ pattern: HEADER_VALUE_PATTERN }),
      {
        default: {},
        additionalProperties: false,
        description: 'Headers sent with each OTLP push (e.g. Authorization). Values are never shown on the dashboard.',
      },
    ),
    otlpIntervalMs: Type.Integer({
      default: 60_000,
      minimum: 1000,
      description: 'Milliseconds between OTLP pushes (one more push when the plugin stops).',
    }),
    metricsInstance: Type.String({
      default: '',
      maxLength: 128,
      pattern: INSTANCE_NAME_PATTERN,
      description:
        'The name this DSH instance has in fleet metrics (build_info labels, OTLP service.instance.id); empty means <host name>/<profile>, stable across restarts.',
    }),
  },
  { additionalProperties: false },
);

/** The validated configuration `apply()` receives. */
export type ToolNormalizerConfig = Static<typeof ConfigSchema>;

interface StandardIssue {
  readonly message: string;
  readonly path?: readonly PropertyKey[];
}

type StandardResult<T> =
  | { readonly value: T; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** The Standard Schema v1 surface cordis' `resolveConfig` calls (`Config['~standard'].validate(config)`). */
export interface ConfigValidator {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<ToolNormalizerConfig>;
  };
  /** The typebox schema, for tools that render settings forms or documentation. */
  readonly schema: typeof ConfigSchema;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function expectedType(option: string): string {
  const property = (ConfigSchema.properties as Record<string, { type?: string; minimum?: number }>)[option];
  if (!property) return 'no such option';
  if (option === 'otlpHeaders') return 'a map of header names to string values (no line breaks)';
  if (option === 'otlpEndpoint') return 'an http:// or https:// URL, or empty';
  if (property.type === 'array')
    return 'an array of host names (strings like "dsh.lan": no scheme, port, path or wildcard)';
  if (property.type === 'integer' && property.minimum !== undefined) return `an integer >= ${property.minimum}`;
  return property.type === 'integer' ? 'an integer' : `a ${property.type}`;
}

/**
 * Where a user sets the options, named in every message: the loader error DSH prints shows the plugin's message
 * but not which layer set the value.
 */
const SET_WHERE =
  '(set in the config of the "tool-normalizer" row: the profile\'s cordis.patch.yml, $DSH_HOME/cordis.patch.yml or a --patch file; `dsh-tool-normalizer doctor` names the file)';

/**
 * Validate a raw config row and fill in defaults. `undefined`/`null` mean "all defaults". The input is never
 * mutated.
 */
export function validateConfig(raw: unknown): StandardResult<ToolNormalizerConfig> {
  const input = raw === undefined || raw === null ? {} : raw;
  if (typeof input !== 'object' || Array.isArray(input)) {
    return {
      issues: [{ message: `tool-normalizer: config must be an object, got ${describeType(input)} ${SET_WHERE}` }],
    };
  }
  const issues: StandardIssue[] = [];
  const known = ConfigSchema.properties as Record<string, unknown>;
  for (const [option, value] of Object.entries(input)) {
    if (!(option in known)) {
      issues.push({
        message: `tool-normalizer: unknown option "${option}" (known: ${Object.keys(known).join(', ')}) ${SET_WHERE}`,
        path: [option],
      });
      continue;
    }
    if (value === undefined) continue;
    const single = Type.Object({ [option]: known[option] as never });
    if (!Value.Check(single, { [option]: value })) {
      issues.push({
        message: `tool-normalizer: option "${option}" must be ${expectedType(option)}, got ${describeType(value)} ${JSON.stringify(value)} ${SET_WHERE}`,
        path: [option],
      });
    }
  }
  if (issues.length > 0) return { issues };
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const value = Value.Default(ConfigSchema, structuredClone(defined)) as ToolNormalizerConfig;
  return { value };
}

/** Resolve a config or throw one Error listing every problem (used when `apply` is called without the loader). */
export function resolveConfig(raw: unknown): ToolNormalizerConfig {
  const result = validateConfig(raw);
  if (result.issues) throw new TypeError(result.issues.map((issue) => issue.message).join('\n'));
  return result.value;
}

/** The plugin's `Config` export. */
export const Config: ConfigValidator = {
  '~standard': { version: 1, vendor: 'dsh-tool-normalizer', validate: validateConfig },
  schema: ConfigSchema,
};
