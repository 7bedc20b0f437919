/**
 * Rule switches: every family is on unless the caller turns it off (the seed plugin's defaults). The switches
 * themselves are rows of the catalogue (`switchCatalogue`); this file only resolves a caller's values.
 */
import { type SwitchId, switchCatalogue } from './catalogue.js';

/** The name of one rule switch. */
export type ToggleKey = SwitchId;

/** The switch names, in the order the configuration documents them (the catalogue's order). */
export const TOGGLE_KEYS: readonly ToggleKey[] = Object.freeze(switchCatalogue.map((row) => row.id));

/** Config switches that turn rule families on and off. */
export type RuleToggles = Record<ToggleKey, boolean>;

export const defaultToggles: Readonly<RuleToggles> = Object.freeze(
  Object.fromEntries(TOGGLE_KEYS.map((key) => [key, true])) as RuleToggles,
);

/**
 * Fills unset switches with the defaults; anything that is not `false` counts as on. A switch that cannot be read
 * (a Proxy or a getter that throws) counts as off: the engine then does less, never more.
 */
export function resolveToggles(toggles: Partial<RuleToggles> | undefined): RuleToggles {
  if (!toggles || typeof toggles !== 'object') return defaultToggles;
  const read = (key: ToggleKey): boolean => {
    try {
      return toggles[key] !== false;
    } catch {
      return false;
    }
  };
  return Object.fromEntries(TOGGLE_KEYS.map((key) => [key, read(key)])) as RuleToggles;
}
