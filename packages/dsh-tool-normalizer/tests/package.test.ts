/**
 * The published package as users get it: `build.mjs` bundles one ESM file with no runtime `@deepseek-ai/*`
 * import and no source map, plus the web client bundle; `npm pack` ships exactly those, the types, the bundle
 * patch, the README and the licence;
 * the patch inserts the `tool-normalizer` row with a config the plugin accepts; and the BUILT bundle loads as a
 * plugin in a real cordis Context with the real DSH tool runtime (Node 20), then disposes cleanly.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { Context } from '@deepseek-ai/cordis';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime from '@deepseek-ai/dsh-tools';
import { buildBundle } from '../build.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const bundlePath = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, any>;

interface PackFile {
  path: string;
}

let bundle: string;
let plugin: any;
let packed: { files: PackFile[]; name: string };

beforeAll(async () => {
  await buildBundle();
  bundle = readFileSync(bundlePath, 'utf8');
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: packageDir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'silent' },
  });
  packed = (JSON.parse(out) as (typeof packed)[])[0]!;
  plugin = await import(pathToFileURL(bundlePath).href);
}, 120_000);

describe('the bundle', () => {
  it('has no runtime import of @deepseek-ai/* and no source map', () => {
    expect(bundle).not.toMatch(/(?:from|import)\s*\(?\s*["']@deepseek-ai\//);
    expect(bundle).not.toMatch(/require\(["']@deepseek-ai\//);
    expect(bundle).not.toContain('sourceMappingURL');
  });

  it('inlines the workspace packages (nothing left to resolve but Node built-ins)', () => {
    const bare = [...bundle.matchAll(/^\s*import\s[^'"]*["']([^'"]+)["']/gm)].map((match) => match[1] ?? '');
    for (const specifier of bare) expect(isBuiltin(specifier), `${specifier} is not a Node built-in`).toBe(true);
  });
});

describe('npm pack', () => {
  it('ships exactly the plugin, its types, the web client, the CLI with its report element, the patch, the manifest, the READMEs (en, zh) and the licence', () => {
    expect(packed.name).toBe('dsh-tool-normalizer');
    expect(packed.files.map((file) => file.path).sort()).toEqual([
      'LICENSE',
      'README.md',
      'README.zh.md',
      'cordis.patch.yml',
      'dist/THIRD_PARTY_NOTICES.md',
      'dist/cli.js',
      'dist/client.js',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/sbom.cdx.json',
      'dist/tn-dashboard.js',
      'package.json',
    ]);
    expect(packed.files.some((file) => /\.map$|tests?\//.test(file.path))).toBe(false);
  });

  it('every export target and the dsh bundle patch are in the package', () => {
    const files = new Set(packed.files.map((file) => file.path));
    const targets = [
      manifest.main,
      manifest.types,
      manifest.exports['.'].types,
      manifest.exports['.'].default,
      manifest.exports['./client'],
      manifest.exports['./cordis.patch.yml'],
      manifest.dsh.bundle.patch,
    ];
    for (const target of targets) expect(files.has(String(target).replace(/^\.\//, ''))).toBe(true);
    expect(manifest.type).toBe('module');
    expect(manifest.dsh.client).toEqual({
      platform: 'web',
      inject: [
        '@deepseek-ai/dsh-client-runtime',
        '@deepseek-ai/dsh-client-ui-settings',
        '@deepseek-ai/dsh-client-locale',
      ],
    });
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([]);
  });
});

describe('the web client bundle', () => {
  it('is in the host module-loader format under this package name (the host keys client modules by package name)', () => {
    const client = readFileSync(new URL('../dist/client.js', import.meta.url), 'utf8');
    expect(client.startsWith('window.__ModuleLoader__.load({')).toBe(true);
    expect(client).toContain(`id: ${JSON.stringify(manifest.name)}`);
    expect(client).not.toContain('sourceMappingURL');
  });
});

describe('cordis.patch.yml', () => {
  it('inserts the tool-normalizer row with a config the plugin accepts', async () => {
    const patch = yaml.load(readFileSync(new URL('../cordis.patch.yml', import.meta.url), 'utf8')) as {
      insert: { id: string; name: string; config: unknown }[];
    }[];
    expect(patch).toHaveLength(1);
    const [row] = patch[0]!.insert;
    expect(row).toMatchObject({ id: 'tool-normalizer', name: 'dsh-tool-normalizer' });
    const result = plugin.Config['~standard'].validate(row!.config);
    expect(result.issues).toBeUndefined();
  });
});

describe('the built bundle as a plugin', () => {
  it('loads in a real Context with the real tool runtime and disposes cleanly', async () => {
    const ctx = new Context();
    await ctx.plugin(SystemPrompt);
    await ctx.plugin(ToolRuntime);
    const hooks = (ctx.events as unknown as { _hooks: Record<string, unknown[] | undefined> })._hooks;
    const before = hooks['tools/execute']?.length ?? 0;
    const logDir = mkdtempSync(join(tmpdir(), 'tn-bundle-'));
    const fiber = await ctx.plugin(plugin, { logDir });
    expect(hooks['tools/execute']?.length).toBe(before + 1);
    const assembled = await ctx.systemPrompt.assemble();
    expect(assembled.sections.some((section: { name: string }) => section.name === 'tool-normalizer')).toBe(true);
    await fiber.dispose();
    expect(hooks['tools/execute']?.length ?? 0).toBe(before);
    rmSync(logDir, { recursive: true, force: true });
  });

  it('rejects an invalid option at load, naming it', async () => {
    const result = plugin.Config['~standard'].validate({ errorHints: 'no' });
    expect(result.issues?.[0]?.message).toMatch(/option "errorHints" must be a boolean/);
  });
});
