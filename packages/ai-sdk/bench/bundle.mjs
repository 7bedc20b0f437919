/**
 * Bundle size of the package for the browser (esbuild, minified ESM), with the AI SDK and zod left external
 * (the app has them anyway) and with everything bundled: the main entry alone (programs off) and with the
 * `programs` entry (programs on), and the main entry with the DSML text middleware. Run: node bench/bundle.mjs. Figures are printed, never asserted.
 */
import { build } from 'esbuild';

const SOURCE_CONDITION = '@dsh-tool-normalizer/source';
const entries = {
  'programs off': "import { healToolCalls } from '@dsh-tool-normalizer/ai-sdk'; console.log(healToolCalls);",
  'programs off + dsmlTextMiddleware':
    "import { healToolCalls, dsmlTextMiddleware } from '@dsh-tool-normalizer/ai-sdk'; console.log(healToolCalls, dsmlTextMiddleware);",
  'programs on':
    "import { healToolCalls } from '@dsh-tool-normalizer/ai-sdk'; import { healProgram } from '@dsh-tool-normalizer/ai-sdk/programs'; console.log(healToolCalls, healProgram);",
};

function byPackage(inputs) {
  const sizes = {};
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const name = path.includes('node_modules/')
      ? path.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1')
      : (/(?:^|\/)([\w-]+)\/src\//.exec(path)?.[1] ?? 'ai-sdk');
    sizes[name] = (sizes[name] ?? 0) + bytesInOutput;
  }
  return Object.entries(sizes)
    .filter(([, bytes]) => bytes > 1024)
    .sort((a, b) => b[1] - a[1])
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(0)} KB`)
    .join(', ');
}

for (const external of [['ai', 'zod'], []]) {
  for (const [label, contents] of Object.entries(entries)) {
    const result = await build({
      stdin: { contents, resolveDir: new URL('.', import.meta.url).pathname, loader: 'js' },
      bundle: true,
      minify: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      metafile: true,
      external,
      conditions: [SOURCE_CONDITION, 'module'],
      logLevel: 'silent',
    });
    const output = Object.values(result.metafile.outputs)[0];
    const what = external.length ? `without ${external.join(' + ')}` : 'everything bundled';
    console.log(`${label}, ${what}: ${(output.bytes / 1024).toFixed(0)} KB (${byPackage(output.inputs)})`);
  }
}
