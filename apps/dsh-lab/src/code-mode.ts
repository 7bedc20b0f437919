/**
 * Code Mode as the installed host names it. The lab's `ToolsMode` says `code` for Code Mode on every release; the
 * host accepts one name only (`code` on rc.8 and 0.1.1-rc.2, `ptc` later; the other is a schema error), so the name
 * comes from the DSH host profile for the installed version, in both forms a user has: the `DSH_TOOLS_MODE` variable
 * and a `tools` row patch layer (`--patch`).
 */
import { type CodeModeName, codeModeNameFor } from '@dsh-tool-normalizer/dsh-profile';
import type { ToolsMode } from './run-session.js';

/** How a run turns Code Mode on: the environment variable (default) or a `--patch` layer for the `tools` row. */
export type CodeModeVia = 'env' | 'patch';

export interface CodeModeSetting {
  /** The name the host accepts. */
  name: CodeModeName;
  via: CodeModeVia;
  /** Variables for the DSH process (`DSH_TOOLS_MODE`, when `via` is `env`). */
  env: Record<string, string>;
  /** A loader patch list for `--patch` (when `via` is `patch`): the `tools` row's config. */
  patch: string | undefined;
}

/** The `tools` row patch that selects presentation `name` (the row's config is replaced, not merged). */
export function toolsModePatch(name: string): string {
  return `# dsh-lab: Code Mode under the name the installed host accepts\n- id: tools\n  config:\n    mode: ${name}\n`;
}

/**
 * What a run sets for `mode` on DSH `hostVersion`: nothing for native (`DSH_TOOLS_MODE` must stay unset there: an
 * empty value fails schema validation), else Code Mode's name for that release in the form `via` asks for.
 */
export function codeModeSetting(
  mode: ToolsMode,
  hostVersion: string | undefined,
  via: CodeModeVia = 'env',
): CodeModeSetting | undefined {
  if (mode !== 'code') return undefined;
  const name = codeModeNameFor(hostVersion);
  return via === 'env'
    ? { name, via, env: { DSH_TOOLS_MODE: name }, patch: undefined }
    : { name, via, env: {}, patch: toolsModePatch(name) };
}
