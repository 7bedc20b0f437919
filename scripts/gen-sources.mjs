/**
 * Loads the TypeScript sources the generators read (the plugin's config schema and prompt section, core-rules' rule catalogue) on any
 * Node >= 20 without a build: esbuild bundles them into one in-memory ES module, which is imported from a data URL.
 * Reading the sources (not a `dist/`) means a generator never writes text from a stale build.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/**
 * `{ ConfigSchema, ruleCatalogue, PROMPT_SECTION_TEXT }` from packages/dsh-adapter/src/{config,prompt-section}.ts and
 * packages/core-rules/src/catalogue.ts.
 */
export async function loadGeneratorSources() {
  const result = await build({
    stdin: {
      contents: [
        "export { ConfigSchema } from './packages/dsh-adapter/src/config.ts';",
        "export { ruleCatalogue } from './packages/core-rules/src/catalogue.ts';",
        "export { PROMPT_SECTION_TEXT } from './packages/dsh-adapter/src/prompt-section.ts';",
        "export { LIVE_OPTIONS } from './packages/dsh-adapter/src/live-options.ts';",
      ].join('\n'),
      resolveDir: repoRoot,
      loader: 'ts',
      sourcefile: 'generator-sources.ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/**
 * The kind of one option's JSON Schema as both generators render it (the README's options table and the published
 * `.d.ts`): `boolean`, `string`, `integer`, `number`, `string[]` or `string-map` (a typebox Record of strings).
 * Undefined for any other kind: each generator then fails with its own message, never a guess.
 */
export function optionKind(property) {
  switch (property.type) {
    case 'boolean':
    case 'string':
    case 'integer':
    case 'number':
      return property.type;
    case 'array':
      return property.items?.type === 'string' ? 'string[]' : undefined;
    case 'object': {
      // every value schema (pattern keys or additional properties) is a string
      const values = [...Object.values(property.patternProperties ?? {}), property.additionalProperties].filter(
        (v) => typeof v === 'object',
      );
      return values.length > 0 && values.every((v) => v.type === 'string') ? 'string-map' : undefined;
    }
  }
  return undefined;
}
