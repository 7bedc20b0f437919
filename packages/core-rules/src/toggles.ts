/** Rule switches: every family is on unless the caller turns it off (the seed plugin's defaults). */
import type { RuleToggles } from './types.js';

export const defaultToggles: Readonly<RuleToggles> = Object.freeze({
  autoWrapRunCode: true,
  autoBridgeDirectTools: true,
  autoObserveFiles: true,
  autoClampRanges: true,
  errorHints: true,
});

/** Fills unset switches with the defaults; anything that is not `false` counts as on. */
export function resolveToggles(toggles: Partial<RuleToggles> | undefined): RuleToggles {
  if (!toggles || typeof toggles !== 'object') return defaultToggles;
  return {
    autoWrapRunCode: toggles.autoWrapRunCode !== false,
    autoBridgeDirectTools: toggles.autoBridgeDirectTools !== false,
    autoObserveFiles: toggles.autoObserveFiles !== false,
    autoClampRanges: toggles.autoClampRanges !== false,
    errorHints: toggles.errorHints !== false,
  };
}
