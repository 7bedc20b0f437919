/**
 * Builds the two browser files after `tsc -b`:
 * - `dist/tn-dashboard.js`: a standalone ES module (element + lit) that registers `<tn-dashboard>`, for any page;
 * - `dist/client.js`: the DSH web client plugin in the host's module-loader format
 *   `window.__ModuleLoader__.load({ id, factory: (require) => module.exports })`, with lit bundled in and React
 *   and host modules left to the loader's `require`.
 */
import { build } from 'esbuild';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The loader id is the name of the server package that declares `dsh.client`. */
export const CLIENT_MODULE_ID = 'dsh-tool-normalizer';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

const common = { bundle: true, platform: 'browser', target: 'es2022', legalComments: 'none', logLevel: 'warning' };

await build({
  ...common,
  entryPoints: [here('./src/define.ts')],
  outfile: here('./dist/tn-dashboard.js'),
  format: 'esm',
  minify: true,
});

const client = await build({
  ...common,
  entryPoints: [here('./src/client.ts')],
  format: 'cjs',
  write: false,
  external: ['react', 'react/jsx-runtime', 'react-dom', '@deepseek-ai/*'],
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
