/**
 * A rule switch is one row of core-rules' `switchCatalogue`; everything that lists switches follows from it: the
 * plugin's config schema (name, boolean, on by default, the row's description), the live options the card edits,
 * the card's English label and hint (the row's) and its Chinese ones (typed against the row ids), the README's
 * options table, and the switches the plugin hands the engine. This suite fails when any of them misses a switch
 * or lists one the catalogue does not have.
 */
import { readFileSync } from 'node:fs';
import { ruleCatalogue, switchCatalogue, TOGGLE_KEYS } from '@dsh-tool-normalizer/core-rules';
import { ConfigSchema } from '@dsh-tool-normalizer/dsh-adapter/config';
import { LIVE_OPTIONS } from '@dsh-tool-normalizer/dsh-adapter/live-options';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../client/options-messages.js';

const switchIds = switchCatalogue.map((row) => row.id);
/** Live options that are the plugin's own rather than rule switches (they have no rules). */
const PLUGIN_LIVE = ['trimStackTraces'];

describe('one switch row drives config, live options, the options card and the README', () => {
  it('the config schema has exactly the catalogue switches as on-by-default booleans with the row text', () => {
    const properties = ConfigSchema.properties as Record<
      string,
      { type?: string; default?: unknown; description?: string }
    >;
    for (const row of switchCatalogue) {
      expect(properties[row.id], row.id).toMatchObject({
        type: 'boolean',
        default: true,
        description: row.description,
      });
    }
    // Every boolean option is a switch or one of the plugin's own (named here, so a new one is a decision).
    const booleans = Object.keys(properties).filter((name) => properties[name]?.type === 'boolean');
    const own = ['injectPrompt', 'trimStackTraces', 'persistPassthrough', 'metrics'];
    expect(booleans.filter((name) => !own.includes(name)).sort()).toEqual([...switchIds].sort());
  });

  it('the engine switches are the catalogue rows, and every rule names one of them', () => {
    expect([...TOGGLE_KEYS]).toEqual(switchIds);
    for (const rule of ruleCatalogue) expect(switchIds, rule.id).toContain(rule.option);
  });

  it('the live options are every switch, in catalogue order, then the plugin-own ones, all config options', () => {
    expect([...LIVE_OPTIONS]).toEqual([...switchIds, ...PLUGIN_LIVE]);
    for (const name of LIVE_OPTIONS) expect(Object.keys(ConfigSchema.properties)).toContain(name);
  });

  it('the card has a label and a hint for every live option, in English (the row) and Chinese', () => {
    const english = en as Record<string, string>;
    const chinese = zh as Record<string, string>;
    for (const row of switchCatalogue) {
      expect(english[row.id]).toBe(row.label);
      expect(english[`${row.id}Hint`]).toBe(row.hint);
    }
    for (const name of LIVE_OPTIONS) {
      for (const key of [name, `${name}Hint`]) {
        expect(english[key]?.trim(), key).toBeTruthy();
        expect(chinese[key]?.trim(), key).toBeTruthy();
        expect(chinese[key], `${key} is translated`).not.toBe(english[key]);
      }
    }
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it("the README's options table shows every switch with its row's description", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const row of switchCatalogue)
      expect(readme).toContain(`| \`${row.id}\` | boolean | \`true\` | ${row.description.replace(/\|/g, '\\|')} |`);
  });
});
