/**
 * Where dsh-lab keeps things. Everything it downloads or writes lives under one git-ignored folder of the
 * repo (`.dsh-lab/`, or `$DSH_LAB_CACHE`), so nothing outside the checkout is touched and a warm cache
 * survives between runs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file sits in `apps/dsh-lab/{src,dist}/`. */
export const repoRoot = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)));

/** The cache root (`.dsh-lab/` at the repo root unless `DSH_LAB_CACHE` says otherwise). */
export const cacheRoot = process.env.DSH_LAB_CACHE
  ? path.resolve(process.env.DSH_LAB_CACHE)
  : path.join(repoRoot, '.dsh-lab');

/** The DSH version this lab provisions and every capture was taken with. */
export const DSH_VERSION = '0.1.0-rc.8';
/** The last `@deepseek-ai/cordis-plugin-hmr` that still has `registerConfig()` (rc.8's dsh-app-boot calls it). */
export const HMR_PIN = '1.0.17';

export const labPaths = {
  /** The DSH install (`@deepseek-ai/dsh` and its closure), shared by every DSH_HOME. */
  dshInstall: path.join(cacheRoot, 'dsh'),
  /** The pnpm content store used for the DSH install and every `dsh plugin add`. */
  pnpmStore: path.join(cacheRoot, 'pnpm-store'),
  /** One DSH_HOME per run kind (see {@link RunKind}). */
  home: (kind: RunKind) => path.join(cacheRoot, 'home', kind),
  /** Per-run folders: workspace, recorded requests, stdout/stderr, decompressed session log. */
  runs: path.join(cacheRoot, 'runs'),
  /** Where the provisioning lock lives. */
  lock: path.join(cacheRoot, 'provision.lock'),
  /** The pinned pnpm the repo's scripts install (`scripts/lib.sh`). */
  pnpmBin: path.join(repoRoot, '.cache', 'pnpm', 'node_modules', '.bin', 'pnpm'),
  /** Packed tarballs of the meta-package (`pnpm pack`), named by content hash. */
  pack: path.join(cacheRoot, 'pack'),
  /** The built meta-package users install. */
  pluginPackage: path.join(repoRoot, 'packages', 'dsh-tool-normalizer'),
};

/**
 * A run kind owns a DSH_HOME: `plain` never has the plugin, `plugin` has the meta-package folder installed as a
 * `link:` (rebuilds are live), `tarball` has it installed from its packed tarball (exactly what npm would
 * deliver: the `files` list, the bundled entry, the patch). Separate homes (rather than profiles in one home)
 * keep the installs side by side, keep the plugin's own event log and summary (written under DSH_HOME) out of
 * the baseline, and leave the standard `headless`/`web` profile names, which DSH initializes itself, untouched.
 */
export type RunKind = 'plain' | 'plugin' | 'tarball';

/**
 * The DSH profiles dsh-lab boots. `headless` and `web` are rc.8's shipped templates. rc.8 ships no terminal UI:
 * `tui` is the profile `dsh plugin --profile tui add <pkg>` creates (bundles: `@deepseek-ai/dsh-base` plus the
 * added plugins), which has no app of its own (see `runSession`'s `profile` option).
 */
export type DshProfile = 'headless' | 'web' | 'tui';
