/**
 * Host profiles for the repair kit: the checks a host makes beyond the JSON Schema it publishes. DeepSeek
 * Harness refuses a blank `description` on bash and run_code, a relative `str_replace_editor` path and a
 * malformed `view_range` (docs/host-facts.md); these are the same checks normalizeCall gates on
 * (`hostViolations`), without the schema part, which the kit checks itself.
 */
import { hostViolations } from './normalize.js';

/** No declared schema: `hostViolations` then reports only the host's checks beyond the schema. */
const NO_SCHEMA = {};
/** Stands in for an absent description: whether one is required is the tool's schema's call, not the profile's. */
const PRESENT = { description: 'present' };

/** DeepSeek Harness's checks beyond the schema, as a kit `hostChecks` function. */
export function dshHostChecks(tool: string, args: Record<string, unknown>): string[] {
  const checked = Object.hasOwn(args, 'description') ? args : { ...args, ...PRESENT };
  return hostViolations({ name: tool, parameters: NO_SCHEMA }, checked);
}
