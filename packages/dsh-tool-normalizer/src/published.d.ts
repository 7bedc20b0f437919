/**
 * Public types of `dsh-tool-normalizer`, self-contained: the bundle inlines the workspace packages, so its
 * declarations cannot point at them. Kept in step with `@dsh-tool-normalizer/dsh-adapter` by `src/types-check.ts`
 * (a compile-time check that fails the build when they drift).
 */
import type { Context } from '@deepseek-ai/cordis';

/** The plugin's configuration (all options optional in `cordis.patch.yml`; defaults shown). */
export interface ToolNormalizerConfig {
  /** Repair run_code calls: {command}/{cmd} to {code}, missing description, fenced or broken programs. Default true. */
  autoWrapRunCode: boolean;
  /** Code Mode: turn a direct call to a visible tool into a run_code call. Default true. */
  autoBridgeDirectTools: boolean;
  /** Edit/write of an unread file: read it, then retry once. Default true. */
  autoObserveFiles: boolean;
  /** Clamp a str_replace_editor view_range that runs past the end of the file. Default true. */
  autoClampRanges: boolean;
  /** Add a short static tool-call guidance section to the system prompt. Default true. */
  injectPrompt: boolean;
  /** Append one actionable hint to errors nobody could heal. Default true. */
  errorHints: boolean;
  /** Remove stack-frame lines pointing into node_modules/.pnpm or worker internals from error text. Default true. */
  trimStackTraces: boolean;
  /** Also write calls that needed no healing to the JSONL log (they are always counted). Default false. */
  persistPassthrough: boolean;
  /** Directory of the JSONL log and summary; empty means $DSH_HOME (default ~/.dsh). Default ''. */
  logDir: string;
  /** Size at which the JSONL log rotates, at least 65536. Default 4194304. */
  maxLogBytes: number;
  /** Extra Host names (besides IP literals, localhost and *.localhost) the web routes answer to. Default []. */
  allowedHosts: string[];
}

/** A Standard Schema v1 validator (what the cordis loader calls to validate a row's `config:`). */
export interface ConfigValidator {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { readonly value: ToolNormalizerConfig; readonly issues?: undefined } | { readonly issues: readonly { readonly message: string; readonly path?: readonly PropertyKey[] }[] };
  };
  /** The typebox JSON Schema of the config. */
  readonly schema: unknown;
}

/** The plugin (and loader row) name. */
export declare const name: 'tool-normalizer';
/** Required services. */
export declare const inject: string[];
/** Validates a config row and fills defaults; an invalid value names the option and the expected type. */
export declare const Config: ConfigValidator;
/** Installs the plugin's listeners, prompt section and (in the web profile) routes on `ctx`. */
export declare function apply(ctx: Context, config?: Partial<ToolNormalizerConfig>): void;
