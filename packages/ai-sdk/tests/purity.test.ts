/**
 * The package is pure: its sources import nothing from `node:*`, the DOM or DSH, and the whole package with its
 * dependencies (the AI SDK included) bundles for the browser with no Node built-in left to resolve, and Babel's
 * parser is in a bundle only when the `programs` entry is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { SOURCE_CONDITION } from '../../../vitest.shared.js';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

describe('purity', () => {
  it('no source file imports node:*, DSH, cordis or the DOM', () => {
    for (const file of readdirSync(srcDir).filter((name) => name.endsWith('.ts'))) {
      const text = readFileSync(`${srcDir}${file}`, 'utf8');
      const specifiers = [...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)].map((match) => match[1]);
      expect(
        specifiers.filter((s) => /^node:|^@deepseek-ai\/|cordis/.test(s!)),
        file,
      ).toEqual([]);
      expect(text, file).not.toMatch(/\b(document|window)\./);
    }
  });

  it('bundles for the browser, dependencies included, without Node built-ins', async () => {
    const result = await build({
      entryPoints: [`${srcDir}index.ts`],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
      conditions: [SOURCE_CONDITION, 'module'],
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile!.inputs);
    expect(inputs.some((input) => input.includes('node_modules/ai/'))).toBe(true);
    expect(inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
  }, 60_000);

  it("leaves Babel's parser and the healer out unless the programs entry is imported", async () => {
    const inputsOf = async (entry: string) => {
      const result = await build({
        entryPoints: [`${srcDir}${entry}`],
        bundle: true,
        write: false,
        minify: true,
        platform: 'browser',
        format: 'esm',
        metafile: true,
        logLevel: 'silent',
        conditions: [SOURCE_CONDITION, 'module'],
      });
      const output = Object.values(result.metafile!.outputs)[0]!;
      return Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path);
    };
    const main = await inputsOf('index.ts');
    expect(main.filter((path) => path.includes('@babel/'))).toEqual([]);
    // The two leaf entries (`./tool-name`, `./dsml`) import nothing; the healer itself must stay out.
    expect(main.filter((path) => /syntax-healer\/src\/(?!tool-name\.ts$|dsml\.ts$)/.test(path))).toEqual([]);
    expect(main.some((path) => path.includes('core-rules/src/kit.ts'))).toBe(true);
    const programs = await inputsOf('programs.ts');
    expect(programs.some((path) => path.includes('@babel/parser'))).toBe(true);
  }, 60_000);
});
