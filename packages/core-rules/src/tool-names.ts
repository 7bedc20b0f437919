/**
 * Which registered tool an unknown name most likely meant: the same name spelled differently
 * (`Read`, `str-replace-editor`) or a well-known alias from other harnesses (`read_file` -> `read`).
 * Only tools present in the environment are candidates. `resolveToolAlias` answers the one target whose
 * schema the call's arguments fit (after the argument repairs), so an adapter can rename the call before it
 * runs instead of waiting for the host's "unknown tool" error.
 */
import { receipt } from './catalogue.js';
import { decodeArguments } from './decode-arguments.js';
import { repairArguments } from './normalize.js';
import { preview } from './text.js';
import { resolveToggles } from './toggles.js';
import { findTool, RUN_CODE, toolNames } from './tools.js';
import type { Environment, Receipt, RuleToggles, ToolCall } from './types.js';

/** Target tool -> names other harnesses use for it (compared after `squash`). */
const NAME_ALIASES: Record<string, readonly string[]> = {
  read: ['read_file', 'file_read', 'view_file', 'open_file', 'get_file', 'cat', 'read_text_file'],
  write: ['write_file', 'create_file', 'save_file', 'file_write', 'write_to_file'],
  edit: ['edit_file', 'replace_in_file', 'file_edit', 'apply_edit', 'str_replace'],
  bash: [
    'shell',
    'run_shell',
    'run_command',
    'execute_command',
    'exec',
    'terminal',
    'run_bash',
    'sh',
    'execute_bash',
    'run_terminal_cmd',
  ],
  grep: ['grep_search', 'ripgrep', 'rg', 'search_files', 'find_in_files', 'search_file_content'],
  glob: ['find_files', 'list_files', 'file_search', 'glob_files'],
  str_replace_editor: ['str_replace_based_edit_tool', 'text_editor'],
};

/** Lower case, separators removed: `Read_File` and `read-file` both become `readfile`. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const squashedAliases = new Map<string, string[]>();
for (const [target, aliases] of Object.entries(NAME_ALIASES)) {
  for (const alias of aliases) {
    const key = squash(alias);
    squashedAliases.set(key, [...(squashedAliases.get(key) ?? []), target]);
  }
}

/** Registered tools (not run_code) that `name` plausibly stands for, in the environment's order. */
export function toolNameCandidates(name: string, env: Environment): string[] {
  if (typeof name !== 'string' || name.length > 200) return [];
  const key = squash(name);
  if (key === '') return [];
  const aliasTargets = squashedAliases.get(key) ?? [];
  return toolNames(env).filter(
    (tool) => tool !== RUN_CODE && tool !== name && (squash(tool) === key || aliasTargets.includes(tool)),
  );
}

/**
 * The call renamed to the one registered tool an unregistered name stands for, with its arguments repaired
 * for that tool, or undefined (the name is registered, no candidate fits, or more than one does). Never throws.
 */
export function resolveToolAlias(
  call: ToolCall,
  env: Environment,
  toggleInput?: Partial<RuleToggles>,
): { call: ToolCall; receipt: Receipt } | undefined {
  try {
    const toggles = resolveToggles(toggleInput);
    if (!toggles.autoBridgeDirectTools || typeof call?.name !== 'string' || findTool(env, call.name)) return undefined;
    const decoded = decodeArguments(call.arguments);
    if (!decoded.ok) return undefined;
    const fitting = toolNameCandidates(call.name, env).flatMap((name) => {
      const tool = findTool(env, name);
      const repaired = tool ? repairArguments(tool, decoded.value, env, toggles) : undefined;
      return repaired?.ok ? [{ name, arguments: repaired.args }] : [];
    });
    if (fitting.length !== 1) return undefined;
    const target = fitting[0] as ToolCall;
    const why = `"${preview(call.name, 80)}" is registered nowhere; the one tool that fits is "${target.name}"`;
    return { call: target, receipt: receipt('recover.unknown-tool-alias', why, preview(call.name, 80), target.name) };
  } catch {
    return undefined;
  }
}
