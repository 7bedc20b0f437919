/**
 * The shape every argument rule returns: a repaired argument object with its receipt, nothing (the rule
 * does not apply), or an ambiguity (two different repairs would pass, so nothing is changed:
 * docs/architecture.md#rules-every-change-keeps).
 */
import type { Receipt } from '../types.js';

export type RuleOutcome =
  | { kind: 'repaired'; args: Record<string, unknown>; receipt: Receipt }
  | { kind: 'ambiguous'; reason: string }
  | undefined;

/** A copy of `args` with `from` renamed to `to` in the same position. */
export function renameKey(args: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (key === from) renamed[to] = value;
    else if (key !== to) renamed[key] = value;
  }
  return renamed;
}
