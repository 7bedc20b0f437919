/**
 * Provisioning of a real DeepSeek Harness, idempotent and cached under `.dsh-lab/`: a Node >= 22.15
 * (`scripts/ensure-node22.sh`), the pinned pnpm, `@deepseek-ai/dsh@0.1.0-rc.8` from npm, one DSH_HOME per
 * run kind with the rc.8 workarounds applied by configuration only, and the plugin installed the way users
 * install it (`dsh plugin --profile <p> add -w <path>`). Each step has a timeout and fails with its name.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LabStepError, runStep } from './child-process.js';
import { DSH_VERSION, HMR_PIN, labPaths, repoRoot, type DshProfile, type RunKind } from './lab-paths.js';

const MINUTE = 60_000;

/** What a booted DSH needs: the Node 24 binary, the dsh entry script, and the environment to run it in. */
export interface DshInstall {
  /** The installed `@deepseek-ai/dsh` version (read from its package.json). */
  version: string;
  nodeBin: string;
  dshEntry: string;
  pnpmBin: string;
}

/**
 * The rc.8 HMR-row workaround (docs/host-facts.md#boot-workarounds; measured for both the headless and the web
 * profile): the profile's `hmr` row is not active at boot, yet the launcher reads `ctx.get('hmr')` right
 * after creating it lazily (undefined) and fails with "user patch-layer watching requires the Cordis HMR
 * service". Mounting the row, watching nothing, makes HMR active at boot. Written to both profiles.
 */
export const HMR_ROW_PATCH = `# dsh-lab (rc.8 workaround): dsh-headless disables the hmr row, but the launcher needs the HMR
# service for user patch-layer watching right after boot. Mount it at boot, watching nothing.
- id: hmr
  disabled: false
  config:
    root: []
`;

let cachedInstall: Promise<DshInstall> | undefined;

/** Node >= 22.15, pnpm and `@deepseek-ai/dsh@0.1.0-rc.8`, installed once into the cache. */
export function ensureDshInstalled(): Promise<DshInstall> {
  cachedInstall ??= withProvisionLock(async () => {
    const nodeBin = await ensureNode22();
    const pnpmBin = await ensurePnpm();
    const dshEntry = await ensureDshPackage(pnpmBin);
    return { version: installedDshVersion() ?? DSH_VERSION, nodeBin, dshEntry, pnpmBin };
  }).catch((error: unknown) => {
    cachedInstall = undefined;
    throw error;
  });
  return cachedInstall;
}

async function ensureNode22(): Promise<string> {
  const result = await runStep('bash', [path.join(repoRoot, 'scripts', 'ensure-node22.sh')], {
    step: 'provision Node >= 22.15 (scripts/ensure-node22.sh)',
    timeoutMs: 5 * MINUTE,
  });
  const bin = result.stdout.trim().split('\n').pop() ?? '';
  if (!bin || !fs.existsSync(bin))
    throw new LabStepError('provision Node >= 22.15', `ensure-node22.sh printed no usable path (${bin})`);
  return bin;
}

async function ensurePnpm(): Promise<string> {
  if (!fs.existsSync(labPaths.pnpmBin)) {
    await runStep('bash', ['-c', `source "${path.join(repoRoot, 'scripts', 'lib.sh')}" && ensure_pnpm`], {
      step: 'install the pinned pnpm (scripts/lib.sh ensure_pnpm)',
      timeoutMs: 5 * MINUTE,
    });
  }
  return labPaths.pnpmBin;
}

function installedDshVersion(): string | undefined {
  const manifest = path.join(labPaths.dshInstall, 'node_modules', '@deepseek-ai', 'dsh', 'package.json');
  try {
    return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

async function ensureDshPackage(pnpmBin: string): Promise<string> {
  const entry = path.join(labPaths.dshInstall, 'node_modules', '@deepseek-ai', 'dsh', 'lib', 'bin.js');
  if (installedDshVersion() === DSH_VERSION && fs.existsSync(entry)) return entry;
  fs.mkdirSync(labPaths.dshInstall, { recursive: true });
  // A standalone project (not part of the repo's workspace) so the host's own dependency closure never
  // mixes with ours. Build scripts stay off: the only one that matters on Linux (node-pty's spawn-helper
  // chmod) has no Linux prebuild to fix.
  const manifest = { name: 'dsh-lab-host', private: true, dependencies: { '@deepseek-ai/dsh': DSH_VERSION } };
  fs.writeFileSync(path.join(labPaths.dshInstall, 'package.json'), `${JSON.stringify(manifest)}\n`);
  // Bounded network waits: an unreachable registry fails in about a minute, not after pnpm's long backoff.
  const args = [
    'install',
    '--ignore-workspace',
    '--store-dir',
    labPaths.pnpmStore,
    '--reporter=append-only',
    '--config.fetch-timeout=60000',
    '--config.fetch-retries=2',
  ];
  await runStep(pnpmBin, args, {
    step: `install @deepseek-ai/dsh@${DSH_VERSION} from the npm registry into .dsh-lab/dsh`,
    cwd: labPaths.dshInstall,
    timeoutMs: 10 * MINUTE,
  });
  if (installedDshVersion() !== DSH_VERSION || !fs.existsSync(entry)) {
    throw new LabStepError(`install @deepseek-ai/dsh@${DSH_VERSION}`, `pnpm finished but ${entry} is missing`);
  }
  return entry;
}

/** The environment every dsh command of a run kind gets: Node 24 and pnpm first on PATH, DSH_HOME in the cache. */
export function dshEnvironment(install: DshInstall, dshHome: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Never pass a real provider key or a stray DSH setting into the lab's host.
    if (/^(DSH_|DEEPSEEK_|OPENAI_|ANTHROPIC_)/.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    PATH: [path.dirname(install.nodeBin), path.dirname(install.pnpmBin), process.env.PATH ?? ''].join(path.delimiter),
    DSH_HOME: dshHome,
    DSH_TELEMETRY_DISABLED: '1',
    npm_config_store_dir: labPaths.pnpmStore,
    ...extra,
  };
}

/** Runs `dsh <args>` with Node 24 against the given DSH_HOME. */
export function runDsh(
  install: DshInstall,
  dshHome: string,
  args: readonly string[],
  step: string,
  timeoutMs = 5 * MINUTE,
) {
  return runStep(install.nodeBin, [install.dshEntry, ...args], {
    step,
    env: dshEnvironment(install, dshHome),
    cwd: dshHome,
    timeoutMs,
  });
}

function profileDir(dshHome: string, profile: DshProfile): string {
  return path.join(dshHome, 'profiles', profile);
}

function profileDependencies(dshHome: string, profile: DshProfile): Record<string, string> {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(profileDir(dshHome, profile), 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    return manifest.dependencies ?? {};
  } catch {
    return {};
  }
}

/**
 * Makes `profile` bootable in the DSH_HOME of `kind`: pins cordis-plugin-hmr 1.0.17 (rc.8's `^1.0.16` now
 * resolves to 1.0.19, which lost `registerConfig()`; this first `dsh plugin add` also creates a `tui` profile,
 * as it would for a user), writes the HMR-row patch (headless, web), and for the
 * `plugin` kind installs the built meta-package. Returns the DSH_HOME.
 */
export async function ensureProfile(
  kind: RunKind,
  profile: DshProfile,
): Promise<{ install: DshInstall; dshHome: string }> {
  const install = await ensureDshInstalled();
  const dshHome = labPaths.home(kind);
  await withProvisionLock(async () => {
    fs.mkdirSync(dshHome, { recursive: true });
    if (profileDependencies(dshHome, profile)['@deepseek-ai/cordis-plugin-hmr'] !== HMR_PIN) {
      // -w: the profile's pnpm-workspace.yaml makes a plain `add` fail with ERR_PNPM_ADDING_TO_ROOT.
      // auto-install-peers=false: otherwise pnpm installs a second @deepseek-ai/cordis into the profile.
      await runDsh(
        install,
        dshHome,
        [
          'plugin',
          '--profile',
          profile,
          'add',
          '-w',
          '--config.auto-install-peers=false',
          `@deepseek-ai/cordis-plugin-hmr@${HMR_PIN}`,
        ],
        `pin @deepseek-ai/cordis-plugin-hmr@${HMR_PIN} in the ${kind}/${profile} profile`,
      );
    }
    // The HMR-row race is in the headless and web bundles; a `tui` profile (dsh-base only) keeps the user layer
    // `dsh plugin` created, so a test may write a user override there.
    if (profile !== 'tui') {
      const patchFile = path.join(profileDir(dshHome, profile), 'cordis.patch.yml');
      if (!fs.existsSync(patchFile) || fs.readFileSync(patchFile, 'utf8') !== HMR_ROW_PATCH)
        fs.writeFileSync(patchFile, HMR_ROW_PATCH);
    }
  });
  if (kind === 'plugin') await installPlugin({ dshHome, profile, pluginDir: labPaths.pluginPackage });
  if (kind === 'tarball') await installPluginTarball({ dshHome, profile, pluginDir: labPaths.pluginPackage });
  return { install, dshHome };
}

/** Whether a plugin package can be installed, and if not, why. */
export function pluginStatus(pluginDir: string = labPaths.pluginPackage): {
  available: boolean;
  name?: string;
  reason: string;
} {
  let manifest: { name?: string; main?: string; exports?: unknown; dsh?: { bundle?: { patch?: string } } };
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(pluginDir, 'package.json'), 'utf8'));
  } catch {
    return { available: false, reason: `no package.json in ${pluginDir}` };
  }
  const patch = manifest.dsh?.bundle?.patch;
  if (!patch)
    return {
      available: false,
      name: manifest.name,
      reason: `${manifest.name ?? pluginDir} declares no "dsh.bundle.patch" yet (the plugin is not wired into the meta-package)`,
    };
  if (!fs.existsSync(path.join(pluginDir, patch)))
    return { available: false, name: manifest.name, reason: `its bundle patch ${patch} does not exist` };
  const main = manifest.main ?? 'index.js';
  if (!fs.existsSync(path.join(pluginDir, main)))
    return { available: false, name: manifest.name, reason: `${main} is missing: build it first (pnpm run build)` };
  return { available: true, name: manifest.name, reason: 'built and declares a dsh bundle' };
}

/**
 * Builds the meta-package's plugin and client bundles (the package's own `build.mjs`) and checks the result can be
 * installed; throws with {@link pluginStatus}'s reason when it cannot. Every real-host test with the plugin starts here.
 */
export async function ensureBuiltPlugin(): Promise<void> {
  const buildScript = pathToFileURL(path.join(labPaths.pluginPackage, 'build.mjs')).href;
  const { buildBundle } = (await import(buildScript)) as { buildBundle: () => Promise<void> };
  await buildBundle();
  const status = pluginStatus();
  if (!status.available) throw new Error(`the meta-package cannot be installed: ${status.reason}`);
}

export interface InstallPluginOptions {
  dshHome: string;
  profile: DshProfile;
  /** The built package directory, e.g. packages/dsh-tool-normalizer. */
  pluginDir: string;
}

/**
 * Installs a plugin exactly the way a user does: `dsh plugin --profile <p> add -w <path>`. A local path becomes
 * a `link:` dependency, so later rebuilds are picked up without reinstalling. Idempotent.
 */
export async function installPlugin(options: InstallPluginOptions): Promise<void> {
  const status = pluginStatus(options.pluginDir);
  if (!status.available) throw new LabStepError(`install the plugin from ${options.pluginDir}`, status.reason);
  const install = await ensureDshInstalled();
  const pluginDir = path.resolve(options.pluginDir);
  const wanted = `link:${pluginDir}`;
  await withProvisionLock(async () => {
    if (status.name && profileDependencies(options.dshHome, options.profile)[status.name] === wanted) return;
    await runDsh(
      install,
      options.dshHome,
      ['plugin', '--profile', options.profile, 'add', '-w', pluginDir],
      `dsh plugin --profile ${options.profile} add -w ${pluginDir}`,
    );
  });
}

/**
 * Installs the plugin the way a registry user gets it: `pnpm pack` of the built package (so only its `files`
 * ship), then `dsh plugin --profile <p> add -w --config.auto-install-peers=false <tarball>`. The tarball is named
 * by its content hash, so an unchanged build is not reinstalled and a changed one always is. Returns its path.
 */
export async function installPluginTarball(options: InstallPluginOptions): Promise<string> {
  const status = pluginStatus(options.pluginDir);
  if (!status.available) throw new LabStepError(`pack the plugin from ${options.pluginDir}`, status.reason);
  const install = await ensureDshInstalled();
  return withProvisionLock(async () => {
    fs.mkdirSync(labPaths.pack, { recursive: true });
    pruneTarballs();
    const staging = fs.mkdtempSync(path.join(labPaths.pack, 'staging-'));
    try {
      await runStep(install.pnpmBin, ['pack', '--pack-destination', staging], {
        step: `pnpm pack ${options.pluginDir}`,
        cwd: options.pluginDir,
        timeoutMs: 2 * MINUTE,
      });
      const packed = fs.readdirSync(staging).find((name) => name.endsWith('.tgz'));
      if (!packed) throw new LabStepError(`pnpm pack ${options.pluginDir}`, 'no tarball was written');
      const bytes = fs.readFileSync(path.join(staging, packed));
      const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
      const tarball = path.join(labPaths.pack, packed.replace(/\.tgz$/, `-${hash}.tgz`));
      if (!fs.existsSync(tarball)) fs.renameSync(path.join(staging, packed), tarball);
      if (status.name && profileDependencies(options.dshHome, options.profile)[status.name] === `file:${tarball}`)
        return tarball;
      if (status.name) forgetMissingTarball(options.dshHome, options.profile, status.name);
      await runDsh(
        install,
        options.dshHome,
        ['plugin', '--profile', options.profile, 'add', '-w', '--config.auto-install-peers=false', tarball],
        `dsh plugin --profile ${options.profile} add -w ${path.basename(tarball)}`,
      );
      return tarball;
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  });
}

/**
 * Another lab run may have pruned the tarball this profile was installed from; pnpm then fails the next `add` with
 * ENOENT while re-resolving the old `file:` dependency. Dropping that dead entry lets the new tarball replace it.
 */
function forgetMissingTarball(dshHome: string, profile: DshProfile, name: string): void {
  const manifestPath = path.join(profileDir(dshHome, profile), 'package.json');
  const spec = profileDependencies(dshHome, profile)[name];
  if (!spec?.startsWith('file:') || fs.existsSync(spec.slice('file:'.length))) return;
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> };
  delete manifest.dependencies?.[name];
  fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Keeps the newest five packed tarballs (a profile whose tarball was pruned is repaired by `forgetMissingTarball`). */
function pruneTarballs(): void {
  const tarballs = fs
    .readdirSync(labPaths.pack)
    .filter((name) => name.endsWith('.tgz'))
    .map((name) => path.join(labPaths.pack, name))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  for (const old of tarballs.slice(5)) fs.rmSync(old, { force: true });
}

const LOCK_STALE_MS = 15 * MINUTE;
let lockQueue: Promise<unknown> = Promise.resolve();

/**
 * Serializes provisioning: in this process through a promise queue, between processes (a demo and a test run
 * at once) with an atomic lock folder that records its owner's pid; a lock whose owner is gone (or older than
 * 15 minutes) is taken over. Not re-entrant: provisioning steps never nest.
 */
function withProvisionLock<T>(fn: () => Promise<T>): Promise<T> {
  const result = lockQueue.then(() => withFileLock(fn));
  lockQueue = result.catch(() => undefined);
  return result;
}

async function withFileLock<T>(fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(labPaths.lock), { recursive: true });
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      fs.mkdirSync(labPaths.lock);
      fs.writeFileSync(path.join(labPaths.lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new LabStepError('take the provisioning lock', String(error));
      const age = Date.now() - safeMtime(labPaths.lock);
      if (age > LOCK_STALE_MS || lockOwnerIsGone()) fs.rmSync(labPaths.lock, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new LabStepError('take the provisioning lock', `${labPaths.lock} is held by another process`);
      else await new Promise((r) => setTimeout(r, 300));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(labPaths.lock, { recursive: true, force: true });
  }
}

function lockOwnerIsGone(): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(labPaths.lock, 'pid'), 'utf8'));
  } catch {
    return false; // being written right now, or an old lock without a pid: wait for it or for staleness
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function safeMtime(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return Date.now();
  }
}
