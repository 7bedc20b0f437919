/**
 * Builds the standalone browser file after `tsc -b`: `dist/tn-dashboard.js`, an ES module (element + lit + the
 * diff library) that registers `<tn-dashboard>`, for any page without a build step. The DSH client bundle is
 * built by the published meta-package (`dsh-tool-normalizer`), which owns its module id.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

await build({
  entryPoints: [here('./src/define.ts')],
  outfile: here('./dist/tn-dashboard.js'),
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  format: 'esm',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
