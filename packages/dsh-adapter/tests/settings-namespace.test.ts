/**
 * The live options' settings-namespace schema (real Schemastery, what DSH's settings service resolves with and
 * serializes to the browser): same defaults and descriptions as the typebox ConfigSchema, user values layered over
 * the row's, wrong types refused, and the serialized form rehydrates to a schema that judges the same. The host
 * wiring itself runs in the real DSH web profile (apps/dsh-lab plugin-web-plugin-configuration.test.ts).
 */
import Schema from '@deepseek-ai/schemastery';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, resolveConfig } from '../src/config.js';
import { LIVE_OPTIONS, assignLiveOptions, liveOptionsSchema, pickLiveOptions } from '../src/settings-namespace.js';

const properties = ConfigSchema.properties as Record<string, { default?: unknown; description?: string }>;

describe('liveOptionsSchema', () => {
  it('has one boolean per live option with the ConfigSchema default and description', () => {
    // Schemastery's wire form: a table of nodes (`refs`), the root at `uid`, children by ref number.
    type Node = { type: string; meta: { default?: unknown; description?: unknown }; dict?: Record<string, number> };
    const json = liveOptionsSchema().toJSON() as unknown as { uid: number; refs: Record<string, Node> };
    const root = json.refs[json.uid];
    expect(root?.type).toBe('object');
    expect(Object.keys(root?.dict ?? {})).toEqual([...LIVE_OPTIONS]);
    for (const name of LIVE_OPTIONS) {
      const node = json.refs[String(root?.dict?.[name])];
      expect(node?.type, name).toBe('boolean');
      expect(node?.meta.default, name).toBe(properties[name]?.default);
      expect(node?.meta.description, name).toBe(properties[name]?.description);
    }
  });

  it('resolves the user layer over the row config, and the defaults under both', () => {
    const schema = liveOptionsSchema();
    expect(schema({})).toEqual(pickLiveOptions(resolveConfig({})));
    const base = pickLiveOptions(resolveConfig({ autoClampRanges: false }));
    expect(schema({ ...base, errorHints: false })).toMatchObject({
      autoClampRanges: false,
      errorHints: false,
      breakLoops: true,
    });
  });

  it('refuses a wrong type (the host then keeps the last good value, or reports the failed registration)', () => {
    // @ts-expect-error a string where the option is a boolean: what this test sends
    expect(() => liveOptionsSchema()({ errorHints: 'no' })).toThrow();
  });

  it('serializes to a form the browser rehydrates into the same judgement', () => {
    const rehydrated = Schema(JSON.parse(JSON.stringify(liveOptionsSchema().toJSON())));
    expect(rehydrated({ breakLoops: false })).toMatchObject({ breakLoops: false, errorHints: true });
    expect(() => rehydrated({ breakLoops: 1 })).toThrow();
  });
});

describe('assignLiveOptions', () => {
  it('updates only the live keys each target has, in place', () => {
    const config = resolveConfig({});
    const toggles = { autoWrapRunCode: true, errorHints: true };
    const next = { ...pickLiveOptions(config), errorHints: false, trimStackTraces: false };
    assignLiveOptions(next, config, toggles);
    expect(config).toMatchObject({ errorHints: false, trimStackTraces: false, injectPrompt: true });
    expect(toggles).toEqual({ autoWrapRunCode: true, errorHints: false });
  });
});
