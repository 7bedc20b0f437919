/**
 * Builds the published plugin after `tsc -b` (which only type-checks and checks `src/published.d.ts` against the
 * adapter): one ESM file, `dist/index.js`, with the adapter, the engine (core-rules, syntax-healer, Babel parser,
 * typebox, the host's Schemastery) and telemetry-store inlined. Other `@deepseek-ai/*` stay external, and the
 * adapter imports them only as types, so the bundle has no runtime import of them at all: a plugin installed from a
 * local path (`link:`) cannot resolve `@deepseek-ai/*` from its own folder (see docs/host-facts.md). No source maps
 * are published. The web
 * client bundle (`./client`) is built here from `client/index.ts`. `dist/cli.js` is the `dsh-tool-normalizer` command (doctor).
 * Every build keeps esbuild's metafile: dist/THIRD_PARTY_NOTICES.md and dist/sbom.cdx.json list what the shipped files bundle
 * (`third-party.mjs`).
 */
import { build, version as esbuildVersion } from 'esbuild';
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundledPackages, renderNotices, renderSbom } from './third-party.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Workspace packages resolve to their TypeScript sources through their `@dsh-tool-normalizer/source` export
 * condition (as vitest.shared.ts does for tests), so the bundle never picks up a stale `dist/` of a sibling package.
 * Listing conditions drops esbuild's implicit `module` condition, so it is listed again.
 */
const SOURCE_CONDITIONS = ['@dsh-tool-normalizer/source', 'module'];

/**
 * `@deepseek-ai/*` stays external (types only in the adapter), except the host's Schemastery library and its
 * one helper package: the settings namespace needs a live Schemastery schema, so they are bundled (MIT).
 */
const BUNDLED_HOST_LIBRARIES = new Set(['@deepseek-ai/schemastery', '@deepseek-ai/cosmokit']);
const hostExternals = {
  name: 'host-externals',
  setup(build) {
    build.onResolve({ filter: /^@deepseek-ai\// }, (args) => {
      const pkg = args.path.split('/').slice(0, 2).join('/');
      return BUNDLED_HOST_LIBRARIES.has(pkg) ? undefined : { path: args.path, external: true };
    });
  },
};

/**
 * What the plugin file and the command file share: one ESM file for Node 20+, workspace sources, host packages
 * external. Bundled CommonJS dependencies (secretlint's rules, prom-client) call `require('tty')` and other
 * built-ins; an ESM file has no `require`, so each file starts by making one. Without it the secret scan fails
 * closed and stores no free text, and the metrics route cannot load.
 */
const NODE_FILE = {
  absWorkingDir: here('.'),
  metafile: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'inline',
  plugins: [hostExternals],
  conditions: SOURCE_CONDITIONS,
  logLevel: 'warning',
};
const CREATE_REQUIRE = [
  "import { createRequire as __tnCreateRequire } from 'node:module';",
  'const require = __tnCreateRequire(import.meta.url);',
];

export async function buildBundle() {
  await mkdir(here('./dist'), { recursive: true });
  const result = await build({
    ...NODE_FILE,
    entryPoints: [here('./src/index.ts')],
    outfile: here('./dist/index.js'),
    banner: {
      js: [
        '// dsh-tool-normalizer: bundled DSH plugin (adapter + engine + telemetry). Source: the dsh-tool-normalizer monorepo.',
        ...CREATE_REQUIRE,
      ].join('\n'),
    },
  });
  const cli = await build({
    ...NODE_FILE,
    entryPoints: [here('./src/cli/bin.ts')],
    outfile: here('./dist/cli.js'),
    banner: {
      js: [
        '#!/usr/bin/env node',
        '// dsh-tool-normalizer command line (doctor, analyze). Source: the dsh-tool-normalizer monorepo.',
        ...CREATE_REQUIRE,
      ].join('\n'),
    },
  });
  await chmod(here('./dist/cli.js'), 0o755);
  // `analyze --html` inlines the standalone <tn-dashboard> bundle; it looks for it beside the running script.
  await copyFile(here('../dashboard-lit/dist/tn-dashboard.js'), here('./dist/tn-dashboard.js'));
  await copyFile(here('./src/published.d.ts'), here('./dist/index.d.ts'));
  const client = await buildClientBundle();
  await writeThirdParty([result.metafile, cli.metafile, client.metafile, await dashboardInputs()]);
  return result;
}

/**
 * What `dist/tn-dashboard.js` bundles: it is dashboard-lit's build output, copied, so its inputs are read by
 * resolving the same entry (`src/define.ts`, bundled for the browser) without writing anything.
 */
async function dashboardInputs() {
  const analysis = await build({
    entryPoints: [here('../dashboard-lit/src/define.ts')],
    absWorkingDir: here('.'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  return analysis.metafile;
}

/** The two third-party files `files` ships beside the bundles; both come from the metafiles of this build. */
async function writeThirdParty(metafiles) {
  const self = JSON.parse(await readFile(here('./package.json'), 'utf8'));
  const packages = bundledPackages(metafiles, here('.'));
  await writeFile(here('./dist/THIRD_PARTY_NOTICES.md'), renderNotices(self, packages));
  await writeFile(
    here('./dist/sbom.cdx.json'),
    renderSbom(self, packages, [{ name: 'esbuild', version: esbuildVersion }]),
  );
}

/** The client bundle's module id: the name of the package that declares `dsh.client` (this one). */
export const CLIENT_MODULE_ID = JSON.parse(await readFile(here('./package.json'), 'utf8')).name;

/**
 * The DSH web client (`dsh.client`, the Settings page with `<tn-dashboard>`): `client/index.ts` bundled with lit,
 * the diff library and dashboard-lit's sources into `dist/client.js` in the host's module-loader format
 * `window.__ModuleLoader__.load({ id, factory: (require) => module.exports })`. React and host modules are left to
 * the loader's `require`. The web profile refuses to boot when a declared client bundle is missing.
 */
export async function buildClientBundle() {
  const client = await build({
    entryPoints: [here('./client/index.ts')],
    absWorkingDir: here('.'),
    metafile: true,
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'cjs',
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
    external: ['react', 'react/jsx-runtime', 'react-dom', '@deepseek-ai/*'],
    conditions: SOURCE_CONDITIONS,
  });
  const body = client.outputFiles[0].text;
  const wrapped = `window.__ModuleLoader__.load({
\tid: ${JSON.stringify(CLIENT_MODULE_ID)},
\tfactory: (require) => {
\t\tvar module = { exports: {} };
\t\tvar exports = module.exports;
${body}
\t\treturn module.exports;
\t}
});
`;
  await writeFile(here('./dist/client.js'), wrapped);
  return client;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildBundle();
