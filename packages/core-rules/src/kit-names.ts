/**
 * Which registered tool a call's name stands for, for the harness-neutral repair kit: the name itself, the
 * name without a provider prefix (`functions.read`, `default_api.bash`), or the one registered tool an alias
 * stands for (`read_file` -> `read`, through resolveToolAlias). The prefix pattern is tools.ts' one, the one
 * normalizeCall applies.
 */
import { HOST_TEXTS } from '@dsh-tool-normalizer/dsh-profile';
import { receipt, ruleOn } from './catalogue.js';
import { preview } from './text.js';
import { resolveToolAlias } from './tool-names.js';
import { findTool, unprefixedName } from './tools.js';
import type { Environment, Receipt, RuleToggles, ToolSchema } from './types.js';

export type ResolvedName = { tool: ToolSchema; receipts: Receipt[] } | { reason: string };

/**
 * The registered tool for `name`, with a receipt for every renaming step. `args` are the decoded arguments:
 * an alias is chosen only when exactly one candidate's schema fits them (after the argument repairs).
 */
export function resolveToolName(
  name: string,
  args: Record<string, unknown>,
  env: Environment,
  toggles: RuleToggles,
): ResolvedName {
  const exact = findTool(env, name);
  if (exact) return { tool: exact, receipts: [] };
  const unknown = HOST_TEXTS.unknownTool(preview(name, 80));
  if (!ruleOn(toggles, 'call.strip-name-prefix')) return { reason: `${unknown}; name repairs are switched off` };
  const receipts: Receipt[] = [];
  let current = name;
  const bare = unprefixedName(name);
  if (bare !== undefined) {
    receipts.push(
      receipt(
        'call.strip-name-prefix',
        `"${preview(name, 80)}" is registered nowhere; "${bare}" is the name without the provider prefix`,
        preview(name, 80),
        bare,
      ),
    );
    current = bare;
    const tool = findTool(env, bare);
    if (tool) return { tool, receipts };
  }
  const alias = resolveToolAlias({ name: current, arguments: args }, env, toggles);
  const tool = alias ? findTool(env, alias.call.name) : undefined;
  if (!alias || !tool) return { reason: `${unknown}: no single registered tool fits the call` };
  return { tool, receipts: [...receipts, alias.receipt] };
}
