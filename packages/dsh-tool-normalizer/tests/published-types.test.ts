/**
 * The published declarations are generated, never hand-kept: `src/published.d.ts` equals what
 * gen-published-types.mjs renders from the plugin's config schema (imported here from its TypeScript source), and
 * every option of the schema is a member with its default. `src/types-check.ts` proves type equality at build time;
 * this test catches a stale committed copy.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '@dsh-tool-normalizer/dsh-adapter/config';
import { LIVE_OPTIONS } from '@dsh-tool-normalizer/dsh-adapter/live-options';
import { renderPublishedTypes, tsType } from '../gen-published-types.mjs';

const published = readFileSync(new URL('../src/published.d.ts', import.meta.url), 'utf8');

describe('src/published.d.ts', () => {
  it('is what the generator writes from the current config schema', () => {
    expect(published).toBe(renderPublishedTypes(ConfigSchema, LIVE_OPTIONS));
  });

  it('has one member per option, with its default in the doc comment', () => {
    for (const [option, property] of Object.entries(ConfigSchema.properties)) {
      expect(published).toContain(`  ${option}: ${tsType(option, property)};`);
      const at = published.indexOf(`  ${option}: `);
      const docComment = published.slice(published.lastIndexOf('/**', at), at).replace(/\n\s*\* /g, ' ');
      expect(docComment).toContain(`Default ${JSON.stringify((property as { default?: unknown }).default)}.`);
    }
  });

  it('refuses a schema kind it cannot render instead of guessing', () => {
    expect(() => tsType('x', { type: 'object', properties: { a: { type: 'number' } } })).toThrow(/extend tsType/);
  });
});
