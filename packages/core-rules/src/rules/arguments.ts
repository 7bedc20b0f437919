/**
 * Generic argument repairs for any tool, gated by the caller on the tool's schema: a well-known alias key
 * renamed to the required key it stands for (`cmd` -> `command`), and a missing required display
 * `description` derived from the other arguments.
 */
import { fillableKeys, propertySchema, requiredKeys } from '../tools.js';
import { describeCall, preview } from '../text.js';
import type { ToolSchema } from '../types.js';
import { renameKey, type RuleOutcome } from './outcome.js';

/** Required key -> the keys models send instead of it. Only used when the alias is not a declared property. */
const KEY_ALIASES: Record<string, readonly string[]> = {
  command: ['cmd'],
  file_path: ['path', 'filePath', 'file'],
  path: ['file_path', 'filePath'],
};

/** `cmd` -> `command`, `path` -> `file_path`, ... when the required key is absent and exactly one alias value is present. */
export function renameAliasKeys(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  for (const target of requiredKeys(tool)) {
    if (Object.hasOwn(args, target)) continue;
    const aliases = (KEY_ALIASES[target] ?? []).filter((alias) => Object.hasOwn(args, alias) && !propertySchema(tool, alias));
    if (aliases.length === 0) continue;
    const distinct = new Set(aliases.map((alias) => JSON.stringify(args[alias])));
    if (distinct.size > 1) return { kind: 'ambiguous', reason: `both ${aliases.join(' and ')} could be "${target}"` };
    const alias = aliases[0] as string;
    return {
      kind: 'repaired',
      args: renameKey(args, alias, target),
      receipt: {
        ruleId: 'args.rename-alias',
        category: 'invalid-args',
        why: `${tool.name} requires "${target}"; the call sent it as "${alias}"`,
        before: preview({ [alias]: args[alias] }),
        after: preview({ [target]: args[alias] }),
      },
    };
  }
  return undefined;
}

/** True for an absent, null or whitespace-only value. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Fills a required display `description` that is absent (or null) from the call's other arguments. */
export function fillDescription(tool: ToolSchema, args: Record<string, unknown>): RuleOutcome {
  const missing = fillableKeys(tool).filter((key) => args[key] === undefined || args[key] === null);
  if (missing.length === 0) return undefined;
  const description = describeCall(tool.name, args);
  const filled = { ...args, description };
  return {
    kind: 'repaired',
    args: filled,
    receipt: {
      ruleId: 'args.fill-description',
      category: 'invalid-args',
      why: `${tool.name} requires "description"; derived one from the call's other arguments`,
      before: preview(args.description),
      after: preview(description),
    },
  };
}
