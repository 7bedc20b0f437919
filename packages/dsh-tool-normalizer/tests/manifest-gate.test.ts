/**
 * The published manifest against DSH's compatibility gate on every release users run. The manifest is the one
 * `pnpm pack` writes into the tarball (what the gate reads after `dsh plugin add`); the rule is the gate's, written
 * here from its public source (zsagi1368/deepseek-harness-zDSH@1dd6c6a3,
 * packages/boot/app-boot/src/plugin-compatibility.ts; see docs/host-facts.md): each peer named `@deepseek-ai/dsh`
 * or `@deepseek-ai/dsh-*`, optional or not, must satisfy the running version with
 * `semver.satisfies(runtime, range, { includePrerelease: true })`, `workspace:*` meaning the runtime itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { beforeAll, describe, expect, it } from 'vitest';
import { DSH_RELEASES, gateRefusals } from '@dsh-tool-normalizer/dsh-profile';
import * as release from '../../../scripts/release-check.mjs';

interface Manifest {
  name: string;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** The gate's rule, independent of the doctor's copy in @dsh-tool-normalizer/dsh-profile (compatibility-gate.ts) (both are checked). */
function refusedByGate(manifest: Manifest, runtime: string): string[] {
  return Object.entries(manifest.peerDependencies ?? {})
    .filter(([name]) => name === '@deepseek-ai/dsh' || name.startsWith('@deepseek-ai/dsh-'))
    .filter(([, range]) => {
      const requirement = /^workspace:[*^~]$/.test(range) ? runtime : range;
      return requirement.trim() === '' || !semver.satisfies(runtime, requirement, { includePrerelease: true });
    })
    .map(([name]) => name);
}

let published: Manifest;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-gate-'));
  try {
    const meta = release
      .publicPackages()
      .find((p: { manifest: Manifest }) => p.manifest.name === 'dsh-tool-normalizer');
    const tarball = await release.pack(meta, dir);
    published = (await release.tarballContents(tarball)).manifest as Manifest;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

describe('the published manifest passes the DSH compatibility gate', () => {
  it('declares the host peers it is gated on (dsh-tools) and cordis, both optional', () => {
    expect(Object.keys(published.peerDependencies ?? {}).sort()).toEqual([
      '@deepseek-ai/cordis',
      '@deepseek-ai/dsh-tools',
    ]);
    for (const name of Object.keys(published.peerDependencies ?? {}))
      expect(published.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
  });

  it.each(DSH_RELEASES.map((v) => [v]))('DSH %s accepts it', (runtime) => {
    expect(refusedByGate(published, runtime)).toEqual([]);
    expect(gateRefusals(published.peerDependencies, runtime)).toEqual({});
  });

  it.each(DSH_RELEASES.map((v) => [v]))(
    'DSH %s also satisfies the peer ranges without includePrerelease (how npm and pnpm check an installed peer)',
    (runtime) => {
      for (const [name, range] of Object.entries(published.peerDependencies ?? {}))
        if (name.startsWith('@deepseek-ai/dsh'))
          expect(semver.satisfies(runtime, range), `${name} ${range}`).toBe(true);
    },
  );

  it('is bounded: a release before rc.8 or of the next minor line (0.3) is refused, so the gate still guards', () => {
    for (const runtime of ['0.1.0-rc.7', '0.0.9', '0.3.0-alpha.1', '0.3.0', '1.0.0'])
      expect(refusedByGate(published, runtime), runtime).toEqual(['@deepseek-ai/dsh-tools']);
  });

  it('the rule can fail: the range shipped before (^0.1.0-rc.8) is refused on the 0.2 line, as measured', () => {
    const old: Manifest = { name: 'x', peerDependencies: { '@deepseek-ai/dsh-tools': '^0.1.0-rc.8' } };
    const refused = DSH_RELEASES.filter((v) => refusedByGate(old, v).length > 0);
    expect(refused).toEqual(['0.2.0-rc.1', '0.2.0-rc.2', '0.2.1-alpha.1', '0.2.1-alpha.2']);
    expect(DSH_RELEASES.filter((v) => Object.keys(gateRefusals(old.peerDependencies, v)).length > 0)).toEqual(refused);
    expect(gateRefusals({ '@deepseek-ai/dsh-x': 'workspace:*', '@deepseek-ai/dsh-y': ' ' }, '0.2.0-rc.2')).toEqual({
      '@deepseek-ai/dsh-y': ' ',
    });
  });
});
