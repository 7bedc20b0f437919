/**
 * pnpm hooks for this workspace. `beforePacking` runs on `pnpm pack` and `pnpm publish` (so on every tarball
 * `changeset publish` and `scripts/release-check.mjs` make): it removes the `@dsh-tool-normalizer/source` export
 * condition, which points workspace tools (vitest, esbuild) at a package's TypeScript sources. Tarballs ship no
 * `src/`, so the published manifest must not name those files; an entry that only existed for the workspace
 * (internal modules the tests and the bundle import) is dropped with it.
 */
const SOURCE_CONDITION = '@dsh-tool-normalizer/source';

function withoutSourceCondition(exports) {
  if (typeof exports !== 'object' || exports === null || Array.isArray(exports)) return exports;
  const kept = {};
  for (const [key, target] of Object.entries(exports)) {
    if (key === SOURCE_CONDITION) continue;
    const stripped = withoutSourceCondition(target);
    if (typeof stripped === 'object' && stripped !== null && Object.keys(stripped).length === 0) continue;
    kept[key] = stripped;
  }
  return kept;
}

module.exports = {
  hooks: {
    beforePacking(pkg) {
      if (pkg.exports !== undefined) pkg.exports = withoutSourceCondition(pkg.exports);
      return pkg;
    },
  },
};
