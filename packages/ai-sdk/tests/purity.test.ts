/**
 * The package is pure: its sources import nothing from `node:*`, the DOM or DSH, and the whole package with its
 * dependencies (the AI SDK included) bundles for the browser with no Node built-in left to resolve.
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
});
