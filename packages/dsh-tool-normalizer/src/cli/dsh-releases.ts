/**
 * The DSH releases this package knows, and the few per-release facts the doctor acts on: which release needs the
 * rc.8 boot workarounds, which one has the compatibility gate, where the options card sits, how each release was
 * proven. The facts and their sources are in docs/host-facts.md ("Other DSH releases"); the README compatibility
 * table says the same in prose. The manifest test evaluates the published peer ranges over `DSH_RELEASES`.
 */
import semver from 'semver';

/** Every DSH tag users may run, oldest first (issue 22's list; npm `latest` was 0.2.0-rc.2 in October 2026). */
export const DSH_RELEASES = [
  '0.1.0-rc.8',
  '0.1.1-rc.2',
  '0.1.5-rc.1',
  '0.1.5-rc.2',
  '0.1.5-rc.3',
  '0.1.6-alpha.2',
  '0.1.7-alpha.1',
  '0.1.7-alpha.2',
  '0.1.7-rc.1',
  '0.1.7-rc.2',
  '0.2.0-rc.1',
  '0.2.0-rc.2',
  '0.2.1-alpha.1',
  '0.2.1-alpha.2',
] as const;

/** The one release the test suite boots live (apps/dsh-lab provisions it from npm). */
export const DSH_LIVE = '0.1.0-rc.8';

export interface ReleaseFacts {
  version: string;
  /** One of `DSH_RELEASES`; false for a release this package has never seen. */
  known: boolean;
  /** The hmr pin and the hmr row (docs/host-facts.md#boot-workarounds) are needed on this release only. */
  needsRc8Workarounds: boolean;
  /** 0.1.7-rc.1 and later refuse a plugin whose `@deepseek-ai/dsh*` peers do not satisfy the running version. */
  hasCompatibilityGate: boolean;
  /** The client slot the options card is registered on. */
  optionsSeat: 'settings.plugin.item' | 'plugins.row.config';
}

/** What the doctor assumes of a running DSH `version`; undefined when it is not a semantic version. */
export function releaseFacts(version: string): ReleaseFacts | undefined {
  if (semver.valid(version) === null) return undefined;
  return {
    version,
    known: (DSH_RELEASES as readonly string[]).includes(version),
    needsRc8Workarounds: version === DSH_LIVE,
    hasCompatibilityGate: semver.gte(version, '0.1.7-rc.1'),
    optionsSeat: semver.gte(version, '0.2.1-alpha.1') ? 'plugins.row.config' : 'settings.plugin.item',
  };
}

/**
 * The peers the DSH compatibility gate (0.1.7-rc.1 and later, `evaluatePluginCompatibility`) would refuse on
 * `runtime`: every peer named `@deepseek-ai/dsh` or `@deepseek-ai/dsh-*`, optional ones included, must be
 * satisfied by the running version with prereleases taking part in ranges; `workspace:*`, `workspace:^` and
 * `workspace:~` mean the running version. Facts: docs/host-facts.md ("The compatibility gate").
 */
export function gateRefusals(peers: Record<string, unknown> | undefined, runtime: string): Record<string, string> {
  const refused: Record<string, string> = {};
  for (const [name, range] of Object.entries(peers ?? {})) {
    if (name !== '@deepseek-ai/dsh' && !name.startsWith('@deepseek-ai/dsh-')) continue;
    const text = String(range);
    const requirement = ['workspace:*', 'workspace:^', 'workspace:~'].includes(text) ? runtime : text;
    if (requirement.trim() === '' || !semver.satisfies(runtime, requirement, { includePrerelease: true }))
      refused[name] = text;
  }
  return refused;
}
