/**
 * Builds the published plugin after `tsc -b` (which only type-checks and checks `src/published.d.ts` against the
 * adapter): one ESM file, `dist/index.js`, with the adapter, the engine (core-rules, syntax-healer, Babel parser,
 * typebox) and telemetry-store inlined. `@deepseek-ai/*` stays external, and the adapter imports it only as
 * types, so the bundle has no runtime import of it at all: a plugin installed from a local path (`link:`) cannot
 * resolve `@deepseek-ai/*` from its own folder (dsh-host.md section 7). No source maps are published. The web
 * client bundle (`./client`) comes from dashboard-lit.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Resolves the workspace packages to their TypeScript sources (like vitest.shared.ts does for tests), so the
 * bundle never picks up a stale `dist/` of a sibling package.
 */
const workspaceSources = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@dsh-tool-normalizer\/[a-z-]+(\/[a-z-]+)?$/ }, (args) => {
      const [, pkg, sub] = /^@dsh-tool-normalizer\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(args.path);
      return { path: here(`../${pkg}/src/${sub ?? 'index'}.ts`) };
    });
  },
};

export async function buildBundle() {
  await mkdir(here('./dist'), { recursive: true });
  const result = await build({
    entryPoints: [here('./src/index.ts')],
    outfile: here('./dist/index.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@deepseek-ai/*'],
    sourcemap: false,
    legalComments: 'inline',
    metafile: true,
    plugins: [workspaceSources],
    logLevel: 'warning',
    banner: { js: '// dsh-tool-normalizer: bundled DSH plugin (adapter + engine + telemetry). Source: the dsh-tool-normalizer monorepo.' },
  });
  await copyFile(here('./src/published.d.ts'), here('./dist/index.d.ts'));
  await copyClientBundle();
  return result;
}

/**
 * The DSH web client (`dsh.client`, the Settings page with `<tn-dashboard>`) is built by dashboard-lit in the
 * host's module-loader format; it is copied here as `dist/client.js`. The web profile refuses to boot when a
 * declared client bundle is missing, so a missing or foreign bundle fails this build instead.
 */
async function copyClientBundle() {
  const source = here('../dashboard-lit/dist/client.js');
  if (!existsSync(source)) execFileSync(process.execPath, [here('../dashboard-lit/build.mjs')], { stdio: 'inherit' });
  const text = await readFile(source, 'utf8');
  if (!text.includes('window.__ModuleLoader__.load(') || !text.includes('id: "dsh-tool-normalizer"')) {
    throw new Error(`dsh-tool-normalizer build: ${source} is not a DSH client bundle with the loader id "dsh-tool-normalizer"`);
  }
  await copyFile(source, here('./dist/client.js'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildBundle();
