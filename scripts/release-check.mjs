#!/usr/bin/env node
/**
 * The release dry-run: everything `changeset publish` would ship, checked the way a user receives it, without
 * publishing. Needs a build first (`pnpm run build`); it never builds, so it checks exactly what is in `dist/`.
 *
 *   node scripts/release-check.mjs            # all checks, one line per check, exit 1 on any failure
 *   node scripts/release-check.mjs --json     # the same as JSON
 *   node scripts/release-check.mjs --package dsh-tool-normalizer --package @dsh-tool-normalizer/core-rules
 *   node scripts/release-check.mjs --claim-names   # the release workflow: publish names the registry lacks
 *
 * Steps: every public package (packages/*, not private) has its build output (and every export this script treats
 * specially still exists); publint (strict) and "are the
 * types wrong" (esm-only profile: the packages are ESM only) pass on the packed tarball; `pnpm pack` (which
 * rewrites `workspace:*` to exact versions) ships LICENSE, README and package.json, no tests, no source or
 * declaration maps, no build info, and README links that resolve inside the tarball; `npm install` of the tarballs
 * into clean temporary folders (workspace packages come only from the tarballs; third-party dependencies from the
 * registry) followed by an ESM import of every export; the meta-package's `dsh` field, `cordis.patch.yml` and web
 * client bundle in the installed copy, and its parts pinned to exact versions; the GitHub workflows pass
 * actionlint (its WebAssembly build, offline). `apps/dsh-lab/tests` and the package tests import this module and
 * run the steps one by one.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repoRoot = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const metaDir = path.join(repoRoot, 'packages', 'dsh-tool-normalizer');
/** The release tools are dev dependencies of the meta-package (the thing being released). */
const requireTool = createRequire(path.join(metaDir, 'package.json'));
const MINUTE = 60_000;

/**
 * Exports that only make sense in a browser page or the DSH web client (they touch `window`/`customElements`): they
 * are checked to resolve to a file instead of being imported. Each must be a real export (`staleExceptions`).
 */
const BROWSER_ONLY_EXPORTS = new Set([
  '@dsh-tool-normalizer/dashboard-lit/define',
  '@dsh-tool-normalizer/dashboard-lit/tn-dashboard.js',
  'dsh-tool-normalizer/client',
]);

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The packages `changeset publish` would publish: every packages/* folder whose manifest is not private. */
export function publicPackages() {
  const dir = path.join(repoRoot, 'packages');
  return fs
    .readdirSync(dir)
    .map((name) => path.join(dir, name))
    .filter((pkgDir) => fs.existsSync(path.join(pkgDir, 'package.json')))
    .map((pkgDir) => ({ dir: pkgDir, manifest: readJson(path.join(pkgDir, 'package.json')) }))
    .filter(({ manifest }) => !manifest.private)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** Every file the manifest's main/types/exports/bin point at (what a build must have produced). */
export function declaredTargets(manifest) {
  const targets = new Set();
  const visit = (value) => {
    if (typeof value === 'string') targets.add(value.replace(/^\.\//, ''));
    else if (value && typeof value === 'object') for (const inner of Object.values(value)) visit(inner);
  };
  visit(manifest.main);
  visit(manifest.types);
  visit(manifest.exports);
  visit(manifest.bin);
  if (manifest.dsh?.bundle?.patch) visit(manifest.dsh.bundle.patch);
  return [...targets].filter((target) => !target.includes('*'));
}

/** Problems with the build output: declared targets missing from the package folder. */
export function checkBuildOutput(pkg) {
  return declaredTargets(pkg.manifest)
    .filter((target) => !fs.existsSync(path.join(pkg.dir, target)))
    .map((target) => `${pkg.manifest.name}: ${target} is missing (run \`pnpm run build\` first)`);
}

/** The pinned pnpm the repo's scripts install (`scripts/lib.sh`), else whatever `pnpm` is on PATH. */
function pnpmBin() {
  const pinned = path.join(repoRoot, '.cache', 'pnpm', 'node_modules', '.bin', 'pnpm');
  return fs.existsSync(pinned) ? pinned : 'pnpm';
}

/**
 * Changesets drive versions: every public package is in one `fixed` group, so the meta-package and the parts it
 * bundles always carry the same version, and `pnpm pack` pins the parts to exactly that version.
 */
export function checkChangesets() {
  const config = readJson(path.join(repoRoot, '.changeset', 'config.json'));
  const groups = (config.fixed ?? []).map((group) =>
    group.map((pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`)),
  );
  const problems = [];
  for (const { manifest } of publicPackages()) {
    const group = groups.findIndex((patterns) => patterns.some((re) => re.test(manifest.name)));
    if (group === -1) problems.push(`${manifest.name} is in no fixed group of .changeset/config.json`);
    else if (group !== 0) problems.push(`${manifest.name} is in fixed group ${group}, not with dsh-tool-normalizer`);
  }
  if (config.access !== 'public') problems.push('.changeset/config.json: access must be "public"');
  return problems;
}

/** `pnpm pack` of one package into `destination`; returns the tarball path. */
export async function pack(pkg, destination) {
  fs.mkdirSync(destination, { recursive: true });
  const before = new Set(fs.readdirSync(destination));
  await run(pnpmBin(), ['pack', '--pack-destination', destination], { cwd: pkg.dir, timeout: 2 * MINUTE });
  const written = fs.readdirSync(destination).filter((name) => name.endsWith('.tgz') && !before.has(name));
  if (written.length !== 1) throw new Error(`${pkg.manifest.name}: pnpm pack wrote ${written.length} tarballs`);
  return path.join(destination, written[0]);
}

/** The file list and the manifest inside a tarball (paths without the leading `package/`). */
export async function tarballContents(tarball) {
  const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
  const files = stdout
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));
  const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout);
  const readme = files.includes('README.md')
    ? (await run('tar', ['-xzOf', tarball, 'package/README.md'], { maxBuffer: 16 * 1024 * 1024 })).stdout
    : '';
  return { files, manifest, readme };
}

/** Problems with what a tarball ships. */
export function checkTarballContents(name, { files, manifest, readme }) {
  const problems = [];
  for (const required of ['LICENSE', 'README.md', 'package.json']) {
    if (!files.includes(required)) problems.push(`${name}: ${required} is not in the tarball`);
  }
  for (const file of files) {
    if (/(^|\/)(tests?|__tests__|test-bundle|fixtures|bench)\//.test(file) || /\.(test|spec)\.[cm]?[jt]s$/.test(file))
      problems.push(`${name}: ships a test file ${file}`);
    if (/\.map$/.test(file)) problems.push(`${name}: ships a map ${file}`);
    if (/\.tsbuildinfo$/.test(file)) problems.push(`${name}: ships build info ${file}`);
    if (/(^|\/)src\//.test(file)) problems.push(`${name}: ships a source file ${file}`);
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:'))
        problems.push(`${name}: ${field}.${dep} is still "${range}" (pack with pnpm)`);
    }
  }
  for (const target of declaredTargets(manifest)) {
    if (!files.includes(target)) problems.push(`${name}: ${target} (declared in package.json) is not in the tarball`);
  }
  for (const [, link] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:|#)/.test(link) || !/^[.\w][\w./-]*$/.test(link)) continue;
    const target = path.posix.normalize(link.split('#')[0]);
    if (!files.some((file) => file === target || file.startsWith(`${target}/`)))
      problems.push(`${name}: README links to ${link}, which the tarball does not contain`);
  }
  return problems;
}

/** publint in strict mode (warnings are errors) on the packed tarball. */
export async function runPublint(tarball) {
  const { publint } = await import(pathToFileURL(requireTool.resolve('publint')).href);
  const { formatMessage } = await import(pathToFileURL(requireTool.resolve('publint/utils')).href);
  const data = fs.readFileSync(tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    strict: true,
    level: 'warning',
  });
  return messages
    .filter((message) => !isHostLoaderScript(pkg, message))
    .map(
      (message) =>
        `${pkg?.name ?? path.basename(tarball)}: publint ${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`,
    );
}

/**
 * The DSH web client bundle (`exports["./client"]`) is a classic script for the host's module loader
 * (`window.__ModuleLoader__.load({ factory: (require) => … })`), neither ESM nor CommonJS; publint reads its
 * `require` as CommonJS. That one format message, for that one export, is expected.
 */
function isHostLoaderScript(pkg, message) {
  return (
    message.code.endsWith('INVALID_FORMAT') &&
    message.path?.[0] === 'exports' &&
    message.path?.[1] === './client' &&
    HOST_LOADER_PACKAGES.has(pkg?.name)
  );
}
/** Packages shipping a host-loader `./client` (only the meta-package: dashboard-lit ships `./dsh-settings`, an ESM module). */
const HOST_LOADER_PACKAGES = new Set(['dsh-tool-normalizer']);

/** Entry points that are not TypeScript modules: the bundle patch, the host-loader client script, the prebuilt `<script>` bundle. */
const NOT_MODULE_ENTRYPOINTS = {
  'dsh-tool-normalizer': ['./client', './cordis.patch.yml'],
  '@dsh-tool-normalizer/dashboard-lit': ['./tn-dashboard.js'],
};

/**
 * The exceptions above each name an export that exists: an entry left behind after an export was removed or moved
 * would silently skip nothing and hide that the list no longer matches the packages.
 */
export function staleExceptions(packages) {
  const problems = [];
  const byName = new Map(packages.map((pkg) => [pkg.manifest.name, pkg.manifest]));
  const isExport = (name, key) => Object.hasOwn(byName.get(name)?.exports ?? {}, key);
  for (const specifier of BROWSER_ONLY_EXPORTS) {
    const name = [...byName.keys()].find((n) => specifier === n || specifier.startsWith(`${n}/`));
    if (name === undefined) continue; // that package is not part of this run (--package)
    const key = specifier === name ? '.' : `.${specifier.slice(name.length)}`;
    if (!isExport(name, key))
      problems.push(`release-check: BROWSER_ONLY_EXPORTS lists ${specifier}, which ${name} does not export`);
  }
  for (const name of HOST_LOADER_PACKAGES) {
    if (byName.has(name) && !isExport(name, './client'))
      problems.push(`release-check: HOST_LOADER_PACKAGES lists ${name}, which has no ./client export`);
  }
  for (const [name, keys] of Object.entries(NOT_MODULE_ENTRYPOINTS)) {
    if (!byName.has(name)) continue;
    for (const key of keys)
      if (!isExport(name, key))
        problems.push(`release-check: NOT_MODULE_ENTRYPOINTS lists ${name} ${key}, which it does not export`);
  }
  return problems;
}

/** "Are the types wrong" on the packed tarball, esm-only profile (none of the packages promises CommonJS). */
export async function runAttw(tarball, name) {
  const cli = requireTool.resolve('@arethetypeswrong/cli/package.json').replace(/package\.json$/, 'dist/index.js');
  const excluded = NOT_MODULE_ENTRYPOINTS[name] ?? [];
  const args = [
    cli,
    tarball,
    '--profile',
    'esm-only',
    '--format',
    'json',
    '--no-color',
    ...(excluded.length > 0 ? ['--exclude-entrypoints', ...excluded] : []),
  ];
  try {
    await run(process.execPath, args, { timeout: 2 * MINUTE, maxBuffer: 32 * 1024 * 1024 });
    return [];
  } catch (error) {
    let detail = String(error.stderr || error.message).trim();
    try {
      const report = JSON.parse(error.stdout);
      const esm = (report.analysis?.problems ?? []).filter((p) => !['node10', 'node16-cjs'].includes(p.resolutionKind));
      detail = esm.map((p) => `${p.kind} at ${p.entrypoint ?? '?'} (${p.resolutionKind ?? '?'})`).join('; ') || detail;
    } catch {}
    return [`${path.basename(tarball)}: are-the-types-wrong: ${detail}`];
  }
}

/** `npm install` of tarballs into a fresh folder; returns the folder. */
export async function npmInstall(tarballs, label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tn-release-${label}-`));
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: `release-check-${label}`, private: true, type: 'module' })}\n`,
  );
  const args = [
    'install',
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    '--loglevel=error',
    '--ignore-scripts',
    ...tarballs,
  ];
  try {
    await run('npm', args, { cwd: dir, timeout: 5 * MINUTE, env: { ...process.env, npm_config_workspaces: 'false' } });
  } catch (error) {
    throw new Error(
      `npm install of ${tarballs.map((t) => path.basename(t)).join(', ')} failed: ${String(error.stderr || error.message).trim()}`,
    );
  }
  return dir;
}

/** Every import specifier a package's exports map offers (`name`, `name/sub`), skipping package.json and patterns. */
export function exportSpecifiers(manifest) {
  if (!manifest.exports) return [manifest.name];
  return Object.keys(manifest.exports)
    .filter((key) => key.startsWith('.') && !key.includes('*') && !key.endsWith('.json') && !key.endsWith('.yml'))
    .map((key) => (key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`));
}

/** ESM-imports each specifier in a Node child run from `dir` (so only the installed copies can resolve). */
export async function importInstalled(dir, specifiers) {
  const problems = [];
  for (const specifier of specifiers) {
    if (BROWSER_ONLY_EXPORTS.has(specifier)) {
      // a browser-only export may carry only the `browser` condition (dashboard-lit's `./tn-dashboard.js`)
      const resolved = await run(
        process.execPath,
        [
          '--conditions=browser',
          '--input-type=module',
          '-e',
          `console.log(import.meta.resolve(${JSON.stringify(specifier)}))`,
        ],
        { cwd: dir },
      );
      if (!fs.existsSync(fileURLToPath(resolved.stdout.trim())))
        problems.push(`${specifier}: does not resolve to a file`);
      continue;
    }
    const script = `const m = await import(${JSON.stringify(specifier)}); if (Object.keys(m).length === 0) throw new Error('no exports');`;
    try {
      await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, timeout: MINUTE });
    } catch (error) {
      problems.push(
        `${specifier}: ESM import from the npm-installed tarball failed: ${String(error.stderr || error.message)
          .trim()
          .split('\n')
          .slice(0, 6)
          .join(' | ')}`,
      );
    }
  }
  return problems;
}

/** The meta-package as installed: `dsh` field, bundle patch, client bundle; its parts pinned to exact versions. */
export function checkMetaPackage(installedDir, packages) {
  const problems = [];
  const manifest = readJson(path.join(installedDir, 'package.json'));
  const patch = manifest.dsh?.bundle?.patch;
  if (!patch) problems.push('dsh-tool-normalizer: package.json has no dsh.bundle.patch');
  else if (!fs.readFileSync(path.join(installedDir, patch), 'utf8').includes("name: 'dsh-tool-normalizer'"))
    problems.push(`dsh-tool-normalizer: ${patch} does not insert the dsh-tool-normalizer row`);
  if (manifest.dsh?.client?.platform !== 'web')
    problems.push('dsh-tool-normalizer: package.json has no dsh.client for the web platform');
  const client = path.join(installedDir, String(manifest.exports?.['./client'] ?? ''));
  if (!fs.existsSync(client) || !fs.readFileSync(client, 'utf8').startsWith('window.__ModuleLoader__.load('))
    problems.push(
      'dsh-tool-normalizer: the web client bundle (exports["./client"]) is missing or not in the host module-loader format',
    );
  if (Object.keys(manifest.dependencies ?? {}).length > 0)
    problems.push('dsh-tool-normalizer: the bundle must have no runtime dependencies');
  const versions = new Map(packages.map((pkg) => [pkg.manifest.name, pkg.manifest.version]));
  for (const [dep, range] of Object.entries({ ...manifest.devDependencies, ...manifest.dependencies })) {
    if (!versions.has(dep)) continue;
    if (range !== versions.get(dep))
      problems.push(
        `dsh-tool-normalizer: its part ${dep} is pinned as "${range}", not the exact version ${versions.get(dep)}`,
      );
  }
  for (const bin of Object.values(typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {}))) {
    if (!fs.existsSync(path.join(installedDir, bin))) problems.push(`dsh-tool-normalizer: bin ${bin} is missing`);
  }
  return problems;
}

/**
 * The packages (`name@version`, or `name` when the path carries no version) an esbuild bundle holds, read from the
 * `// <input path>` comment esbuild writes above each input of a non-minified bundle: the last `node_modules/<name>`
 * of the path names the package, pnpm's `.pnpm/<name>@<version>` folder its version. This reads the shipped file
 * itself, not the build's metafile, so a package the SBOM generator missed is still seen here.
 */
export function packagesInBundle(text) {
  const found = new Set();
  for (const [, input] of text.matchAll(/^[ \t]*\/\/ (\S*node_modules\/\S+)$/gm)) {
    const match = /(?:^|\/)(?:\.pnpm\/([^/]+)\/)?node_modules\/((?:@[^/]+\/)?[^/.][^/]*)\/(?!.*\/node_modules\/)/.exec(
      input,
    );
    if (!match) continue;
    const [, store, name] = match;
    const prefix = `${name.replace('/', '+')}@`;
    const version = store?.startsWith(prefix) ? store.slice(prefix.length).split(/[_(]/)[0] : undefined;
    found.add(version ? `${name}@${version}` : name);
  }
  return found;
}

/**
 * Minified files carry no input comments: each is named here with the entry it is built from, and the check
 * resolves that entry with esbuild (bundling, writing nothing) to learn what it holds.
 */
const NOTICES = 'dist/THIRD_PARTY_NOTICES.md';
const SBOM = 'dist/sbom.cdx.json';
const MINIFIED_BUNDLES = {
  'dsh-tool-normalizer': { 'dist/tn-dashboard.js': 'packages/dashboard-lit/src/define.ts' },
};

async function packagesOfEntry(entry) {
  const { build } = await import(pathToFileURL(requireTool.resolve('esbuild')).href);
  const result = await build({
    entryPoints: [path.join(repoRoot, entry)],
    absWorkingDir: repoRoot,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const found = new Set();
  for (const input of Object.keys(result.metafile.inputs)) {
    const names = packagesInBundle(`// ${input}\n`);
    for (const name of names) found.add(name);
  }
  return found;
}

/**
 * The meta-package's notices and SBOM against what its files bundle: sbom.cdx.json (CycloneDX 1.5 or 1.6) lists
 * every package any shipped `.js` file holds, with the same version; THIRD_PARTY_NOTICES.md has a section with a
 * licence for each SBOM component; both files are in `files`. `read(file)` returns a file of the tarball.
 */
export async function checkThirdParty(name, files, read) {
  const problems = [];
  for (const required of [NOTICES, SBOM])
    if (!files.includes(required)) problems.push(`${name}: ${required} is not in the tarball`);
  if (problems.length > 0) return problems;
  let sbom;
  try {
    sbom = JSON.parse(await read(SBOM));
  } catch (error) {
    return [`${name}: sbom.cdx.json is not JSON: ${error.message}`];
  }
  if (sbom.bomFormat !== 'CycloneDX' || !['1.5', '1.6'].includes(sbom.specVersion))
    problems.push(`${name}: sbom.cdx.json is not a CycloneDX 1.5/1.6 document`);
  const listed = new Map();
  for (const component of sbom.components ?? []) {
    const full = component.group ? `${component.group}/${component.name}` : component.name;
    listed.set(full, component.version);
    if (!component.licenses?.length) problems.push(`${name}: sbom.cdx.json lists ${full} without a licence`);
    if (component.purl !== `pkg:npm/${full.replace(/^@/, '%40')}@${component.version}`)
      problems.push(`${name}: sbom.cdx.json: ${full} has the purl ${component.purl}`);
  }
  const minified = MINIFIED_BUNDLES[name] ?? {};
  for (const file of files.filter((f) => /\.[cm]?js$/.test(f))) {
    const text = minified[file] ? '' : await read(file);
    const held = minified[file] ? await packagesOfEntry(minified[file]) : packagesInBundle(text);
    // A bundle built minified (or without esbuild's input comments) would list nothing and pass unseen.
    if (!minified[file] && text.length > 64 * 1024 && !/^[ \t]*\/\/ \S+\.[cm]?[jt]sx?$/m.test(text))
      problems.push(`${name}: ${file} has no input comments, so what it bundles cannot be read (minified?)`);
    for (const entry of held) {
      const at = entry.lastIndexOf('@');
      const [pkg, version] = at > 0 ? [entry.slice(0, at), entry.slice(at + 1)] : [entry, undefined];
      if (!listed.has(pkg)) problems.push(`${name}: ${file} bundles ${entry}, which sbom.cdx.json does not list`);
      else if (version && listed.get(pkg) !== version)
        problems.push(`${name}: ${file} bundles ${entry}, sbom.cdx.json lists ${pkg}@${listed.get(pkg)}`);
    }
  }
  const notices = await read(NOTICES);
  for (const [pkg, version] of listed) {
    const section = notices.split(/^## /m).find((part) => part.startsWith(`${pkg} ${version}\n`));
    if (!section) problems.push(`${name}: THIRD_PARTY_NOTICES.md has no section for ${pkg} ${version}`);
    else if (!/^License: \S/m.test(section))
      problems.push(`${name}: THIRD_PARTY_NOTICES.md names no licence for ${pkg} ${version}`);
  }
  return problems;
}

/** actionlint (WebAssembly build, no network) over `.github/workflows/*.yml`. */
export async function lintWorkflows() {
  const { createLinter } = await import(pathToFileURL(requireTool.resolve('actionlint')).href);
  const lint = await createLinter();
  const dir = path.join(repoRoot, '.github', 'workflows');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)) : [];
  if (files.length === 0) return { files, problems: ['.github/workflows has no workflow files'] };
  const problems = [];
  for (const name of files) {
    const file = path.join('.github', 'workflows', name);
    for (const result of lint(fs.readFileSync(path.join(repoRoot, file), 'utf8'), file)) {
      problems.push(`${file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
    }
  }
  return { files, problems };
}

/**
 * The whole dry-run. Returns `{ steps: [{ name, problems, ms }] }`; `problems` empty means the step passed.
 * Packs into (and installs from) a temporary folder that is removed afterwards.
 */
export async function releaseCheck({ log = () => {}, only } = {}) {
  const steps = [];
  const step = async (name, fn) => {
    const started = Date.now();
    let problems;
    try {
      problems = await fn();
    } catch (error) {
      problems = [error instanceof Error ? error.message : String(error)];
    }
    const result = { name, problems, ms: Date.now() - started };
    steps.push(result);
    log(result);
    return result;
  };
  const packages = publicPackages().filter((pkg) => !only || only.includes(pkg.manifest.name));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-release-'));
  const installs = [];
  try {
    const build = await step('build output present', () => [
      ...staleExceptions(packages),
      ...packages.flatMap(checkBuildOutput),
    ]);
    if (build.problems.length > 0) return { steps, packages: packages.map((p) => p.manifest.name) };
    const tarballs = new Map();
    await step('pnpm pack of every public package', async () => {
      for (const pkg of packages) tarballs.set(pkg.manifest.name, await pack(pkg, path.join(work, 'tarballs')));
      return [];
    });
    await step('tarball contents (LICENSE, README, no tests or maps, no workspace: ranges, README links)', async () => {
      const problems = [];
      for (const [name, tarball] of tarballs)
        problems.push(...checkTarballContents(name, await tarballContents(tarball)));
      return problems;
    });
    if (tarballs.has('dsh-tool-normalizer'))
      await step('third-party notices and SBOM list every bundled package', async () => {
        const tarball = tarballs.get('dsh-tool-normalizer');
        const { files } = await tarballContents(tarball);
        const read = async (file) =>
          (await run('tar', ['-xzOf', tarball, `package/${file}`], { maxBuffer: 64 * 1024 * 1024 })).stdout;
        return checkThirdParty('dsh-tool-normalizer', files, read);
      });
    await step('publint --strict', async () => (await Promise.all([...tarballs.values()].map(runPublint))).flat());
    await step('are the types wrong (esm-only)', async () =>
      (await Promise.all([...tarballs].map(([name, tarball]) => runAttw(tarball, name)))).flat(),
    );
    const libraries = packages.filter((pkg) => pkg.dir !== metaDir);
    const meta = packages.find((pkg) => pkg.dir === metaDir);
    await step('npm install of the library tarballs + ESM import of every export', async () => {
      const dir = await npmInstall(
        libraries.map((pkg) => tarballs.get(pkg.manifest.name)),
        'libraries',
      );
      installs.push(dir);
      // The installed (packed) manifests: what a user can import, without the workspace-only source entries.
      const installed = (pkg) => readJson(path.join(dir, 'node_modules', pkg.manifest.name, 'package.json'));
      return importInstalled(
        dir,
        libraries.flatMap((pkg) => exportSpecifiers(installed(pkg))),
      );
    });
    if (meta) {
      await step(
        'npm install of the dsh-tool-normalizer tarball alone + ESM import, dsh field, patch, client, pinned parts',
        async () => {
          const dir = await npmInstall([tarballs.get(meta.manifest.name)], 'meta');
          installs.push(dir);
          const problems = await importInstalled(dir, exportSpecifiers(meta.manifest));
          return [...problems, ...checkMetaPackage(path.join(dir, 'node_modules', meta.manifest.name), packages)];
        },
      );
    }
    await step('changesets: one fixed version group for every public package', checkChangesets);
    await step('GitHub workflows pass actionlint', async () => (await lintWorkflows()).problems);
    return { steps, packages: packages.map((p) => p.manifest.name) };
  } finally {
    for (const dir of [work, ...installs]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Sets `repository` (url + directory) in every public package.json: npm provenance refuses a package whose
 * repository does not match the repository the workflow runs in. The release workflow calls this with its own
 * repository URL; the field then stays (the version pull request carries it).
 */
export function stampRepository(url) {
  const gitUrl = `git+${url.replace(/\.git$/, '')}.git`;
  for (const pkg of publicPackages()) {
    const file = path.join(pkg.dir, 'package.json');
    const manifest = readJson(file);
    manifest.repository = {
      type: 'git',
      url: gitUrl,
      directory: path.relative(repoRoot, pkg.dir).split(path.sep).join('/'),
    };
    fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/** Whether the registry knows a package name: `npm view` answers E404 for a name nobody has published. */
async function registryHas(name) {
  try {
    await run('npm', ['view', name, 'name', '--json'], { timeout: MINUTE });
    return true;
  } catch (error) {
    if (/E404|404 Not Found/.test(`${error.stdout ?? ''}${error.stderr ?? ''}`)) return false;
    throw new Error(`npm view ${name} failed: ${String(error.stderr || error.message).trim()}`);
  }
}

/**
 * The public packages whose names are not on the registry yet, libraries first and the meta-package last (the order
 * to publish them in). `has(name)` asks the registry.
 */
export async function unclaimedPackages(packages = publicPackages(), has = registryHas) {
  const missing = [];
  for (const pkg of packages) if (!(await has(pkg.manifest.name))) missing.push(pkg);
  return missing.sort((a, b) => Number(a.dir === metaDir) - Number(b.dir === metaDir));
}

/**
 * Claims the unscoped name (`dsh-tool-normalizer`) and the `@dsh-tool-normalizer/*` names: publishes the current
 * version of every public package the registry does not know yet, so no one else can take a name before the first
 * release. The release workflow runs it before changesets (which then skips what is already published). Run after
 * a build and the dry-run; needs an npm token with rights to the `@dsh-tool-normalizer` scope.
 */
export async function claimNames({ log = console.log } = {}) {
  const missing = await unclaimedPackages();
  if (missing.length === 0) log('every package name is already on the registry');
  for (const pkg of missing) {
    log(`claiming ${pkg.manifest.name}@${pkg.manifest.version}`);
    await run(pnpmBin(), ['publish', '--access', 'public', '--no-git-checks'], {
      cwd: pkg.dir,
      timeout: 5 * MINUTE,
    });
  }
  return missing.map((pkg) => pkg.manifest.name);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--claim-names')) {
    await claimNames();
    process.exit(0);
  }
  const stamp = process.argv.indexOf('--stamp-repository');
  if (stamp !== -1) {
    if (!/^https:\/\/\S+\/\S+$/.test(process.argv[stamp + 1] ?? ''))
      throw new Error('--stamp-repository needs an https URL');
    stampRepository(process.argv[stamp + 1]);
    process.exit(0);
  }
  const json = process.argv.includes('--json');
  const only = process.argv.flatMap((arg, i) => (process.argv[i - 1] === '--package' ? [arg] : []));
  const report = await releaseCheck({
    only: only.length > 0 ? only : undefined,
    log: json
      ? undefined
      : ({ name, problems, ms }) => {
          console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${name} (${(ms / 1000).toFixed(1)} s)`);
          for (const problem of problems) console.log(`     - ${problem}`);
        },
  });
  if (json) console.log(JSON.stringify(report, null, 2));
  process.exit(report.steps.every((s) => s.problems.length === 0) ? 0 : 1);
}
