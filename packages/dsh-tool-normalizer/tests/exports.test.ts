/**
 * Every export of every public package, as a user gets it: each package is packed with `pnpm pack`, the tarballs
 * are unpacked into one clean `node_modules` (workspace packages only from their tarballs; third-party
 * dependencies linked from the workspace's installed copies, so no registry is needed), and every export path the
 * workspace manifest declares is imported in a plain `node` process (no source condition). An export must survive
 * packing (pnpm drops one whose only target is the workspace's source condition) and import without throwing,
 * or carry a `browser` condition that resolves to a shipped file. The one other kind is a non-module file (the
 * bundle patch, the DSH host-loader client script), which must resolve to a shipped file.
 * The full release dry-run (publint, types, npm install from the registry) is release-check.test.ts.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as release from '../../../scripts/release-check.mjs';

const run = promisify(execFile);

interface Pkg {
  dir: string;
  manifest: {
    name: string;
    exports?: Record<string, unknown>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
}

/** Exports that are files rather than modules: checked to resolve to a shipped file. */
const NOT_MODULES = new Set(['dsh-tool-normalizer/client', 'dsh-tool-normalizer/cordis.patch.yml']);

const packages = release.publicPackages() as Pkg[];
const names = new Set(packages.map((pkg) => pkg.manifest.name));
const nodeBin = execFileSync('bash', [path.join(release.repoRoot, 'scripts', 'ensure-node22.sh')], {
  encoding: 'utf8',
}).trim();
/** A child environment without the workspace's conditions or loaders. */
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_OPTIONS'));
let work = '';
const packed = new Map<string, Pkg['manifest']>();

/** Unpacks a tarball into `node_modules/<name>` and links its third-party dependencies from the workspace copy. */
async function install(pkg: Pkg, tarball: string): Promise<void> {
  const target = path.join(work, 'node_modules', pkg.manifest.name);
  fs.mkdirSync(target, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  const manifest = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8')) as Pkg['manifest'];
  packed.set(pkg.manifest.name, manifest);
  const peers = Object.keys(manifest.peerDependencies ?? {});
  for (const dep of [...Object.keys(manifest.dependencies ?? {}), ...peers]) {
    if (names.has(dep)) continue; // from its own tarball, found by walking up
    const installed = path.join(pkg.dir, 'node_modules', dep);
    if (peers.includes(dep) && !fs.existsSync(installed)) continue; // an optional peer the workspace leaves out
    const link = path.join(target, 'node_modules', dep);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(fs.realpathSync(installed), link);
  }
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tn-exports-'));
  fs.writeFileSync(path.join(work, 'package.json'), '{"name":"exports-check","private":true,"type":"module"}\n');
  const queue = [...packages];
  const worker = async () => {
    for (let pkg = queue.shift(); pkg; pkg = queue.shift())
      await install(pkg, await release.pack(pkg, path.join(work, 'tarballs', path.basename(pkg.dir))));
  };
  await Promise.all([worker(), worker(), worker()]);
}, 600_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Every export path of a workspace manifest, as `[specifier, key]` (package.json left out). */
function exportPaths(manifest: Pkg['manifest']): [string, string][] {
  return Object.keys(manifest.exports ?? { '.': './dist/index.js' })
    .filter((key) => key !== './package.json')
    .map((key) => [key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`, key]);
}

/** Runs `script` as an ES module in a plain Node from the install folder; resolves to its error text or ''. */
async function nodeProblem(script: string, conditions: string[] = []): Promise<string> {
  try {
    await run(nodeBin, [...conditions.map((c) => `--conditions=${c}`), '--input-type=module', '-e', script], {
      cwd: work,
      env,
      timeout: 60_000,
    });
    return '';
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const lines = String(stderr || message).split('\n');
    return lines.find((line) => /^(\w*Error|Error \[\w+\]):/.test(line))?.trim() ?? lines.slice(0, 3).join(' | ');
  }
}

/** Problems with one export path of the packed package. */
async function exportProblem(specifier: string, key: string, name: string): Promise<string> {
  const target = packed.get(name)?.exports?.[key];
  if (target === undefined) return 'missing from the packed manifest (it has no target outside the source condition)';
  const browser = typeof target === 'object' && target !== null && 'browser' in target;
  if (browser || NOT_MODULES.has(specifier)) {
    const resolve = `import { existsSync } from 'node:fs'; import { fileURLToPath as path } from 'node:url';
      const file = path(import.meta.resolve(${JSON.stringify(specifier)}));
      if (!existsSync(file)) throw new Error('resolves to ' + file + ', which is not shipped');`;
    return nodeProblem(resolve, browser ? ['browser'] : []);
  }
  return nodeProblem(
    `const m = await import(${JSON.stringify(specifier)}); if (Object.keys(m).length === 0) throw new Error('no exports');`,
  );
}

describe('every export of every public package, packed', () => {
  const cases = packages.flatMap((pkg) =>
    exportPaths(pkg.manifest).map(([spec, key]) => [spec, key, pkg.manifest.name]),
  );

  it('covers every public package, the meta-package and the browser-only file among them', () => {
    expect(packages.length).toBeGreaterThanOrEqual(9);
    expect(cases.map(([spec]) => spec)).toEqual(
      expect.arrayContaining(['dsh-tool-normalizer', '@dsh-tool-normalizer/dashboard-lit/tn-dashboard.js']),
    );
  });

  it.each(cases)('%s imports in plain Node or is marked for the browser', async (specifier, key, name) => {
    expect(await exportProblem(specifier as string, key as string, name as string)).toBe('');
  });

  it('a browser-only file without the browser condition would fail: the check can fail', async () => {
    const bundle = path.join(release.repoRoot, 'packages', 'dashboard-lit', 'dist', 'tn-dashboard.js');
    expect(await nodeProblem(`await import(${JSON.stringify(bundle)});`)).toMatch(/HTMLElement is not defined/);
  });

  it('an export pnpm pack drops would be reported: the check can fail', async () => {
    const manifest = packed.get('@dsh-tool-normalizer/core-rules');
    expect(manifest).toBeDefined();
    expect(
      await exportProblem('@dsh-tool-normalizer/core-rules/no-such-entry', './no-such-entry', manifest!.name),
    ).toMatch(/missing from the packed manifest/);
  });
});
