/**
 * The DSH plugin compatibility gate (0.1.7-rc.1 and later, `evaluatePluginCompatibility`), as a rule the doctor and the
 * manifest test apply: which `@deepseek-ai/dsh*` peers of a plugin a running DSH version refuses. Source:
 * zsagi1368/deepseek-harness-zDSH @ 1dd6c6a308f1db1d57f6d117d673e73f00072b68,
 * packages/boot/app-boot/src/plugin-compatibility.ts (read, not copied); docs/host-facts.md ("The compatibility gate").
 */
import semver from 'semver';

/** The first release with the gate. */
export const GATE_SINCE = '0.1.7-rc.1';

const SELF_RANGES = new Set(['workspace:*', 'workspace:^', 'workspace:~']);

/**
 * The peers the gate refuses on `runtime`: every peer named `@deepseek-ai/dsh` or `@deepseek-ai/dsh-*`, optional
 * ones included, must be satisfied by the running version with prereleases taking part in ranges; `workspace:*`,
 * `workspace:^` and `workspace:~` mean the running version; an empty range fails. Other peers are not checked.
 */
export function gateRefusals(peers: Record<string, unknown> | undefined, runtime: string): Record<string, string> {
  const refused: Record<string, string> = {};
  for (const [name, range] of Object.entries(peers ?? {})) {
    if (name !== '@deepseek-ai/dsh' && !name.startsWith('@deepseek-ai/dsh-')) continue;
    const text = String(range);
    const requirement = SELF_RANGES.has(text) ? runtime : text;
    if (requirement.trim() === '' || !semver.satisfies(runtime, requirement, { includePrerelease: true }))
      refused[name] = text;
  }
  return refused;
}
