/**
 * The catalogue is the typed source of truth: ids are unique, every rule names a real category and switch,
 * every receipt the engine writes carries a catalogued rule id with that rule's category, and the README
 * tables list every row.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  categories,
  categoryCatalogue,
  categoryOf,
  normalizeCall,
  receipt,
  ruleCatalogue,
  TOGGLE_KEYS,
} from '../src/index.js';
import type { CategoryId, RuleId, ToggleKey } from '../src/index.js';
import { defaultToggles } from '../src/toggles.js';
import { codeEnv, nativeEnv } from './fixtures.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('ruleCatalogue', () => {
  it('has unique ids, known categories and real switches', () => {
    const ids = ruleCatalogue.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    const categoryIds = new Set<string>(categoryCatalogue.map((category) => category.id));
    expect(categoryIds.size).toBe(categoryCatalogue.length);
    for (const rule of ruleCatalogue) {
      expect(categoryIds.has(rule.category)).toBe(true);
      expect(TOGGLE_KEYS as readonly string[]).toContain(rule.option);
      expect(rule.description.length).toBeGreaterThan(20);
    }
    expect(Object.keys(defaultToggles).sort()).toEqual([...TOGGLE_KEYS].sort());
  });

  it('the category table classifyResult uses is the catalogue itself, not a copy', () => {
    expect(categories).toBe(categoryCatalogue);
  });

  it('receipt() fills the category the catalogue gives the rule', () => {
    for (const rule of ruleCatalogue) {
      const made = receipt(rule.id, 'why', 'a', 'b');
      expect(made).toEqual({ ruleId: rule.id, category: rule.category, why: 'why', before: 'a', after: 'b' });
      expect(categoryOf(rule.id)).toBe(rule.category);
    }
  });

  it('the ids are typed: an unknown rule, category or switch does not type-check', () => {
    const rule: RuleId = 'editor.view-range-shape';
    const category: CategoryId = 'editor-range';
    const toggle: ToggleKey = 'autoClampRanges';
    // @ts-expect-error not a catalogued rule id
    const badRule: RuleId = 'editor.no-such-rule';
    // @ts-expect-error not a catalogued category id
    const badCategory: CategoryId = 'no-such-category';
    expect([rule, category, toggle, badRule, badCategory]).toHaveLength(5);
  });

  it('every receipt normalizeCall writes names a catalogued rule with its category', () => {
    const calls = [
      { env: nativeEnv, call: { name: 'bash', arguments: JSON.stringify(JSON.stringify({ command: 'ls' })) } },
      { env: nativeEnv, call: { name: 'bash', arguments: '```json\n{"cmd":"ls"}\n```' } },
      {
        env: nativeEnv,
        call: { name: 'str_replace_editor', arguments: { command: 'view', path: 'a.txt', view_range: ['1', '5'] } },
      },
      { env: codeEnv, call: { name: 'run_code', arguments: { command: 'ls -la' } } },
      {
        env: codeEnv,
        call: { name: 'run_code', arguments: { code: '```ts\nreturn await tools.bash({ command: "ls" });\n```' } },
      },
      { env: codeEnv, call: { name: 'read', arguments: { file_path: '/workspace/a.txt' } } },
    ];
    const seen = new Set<string>();
    for (const { env, call } of calls) {
      const result = normalizeCall(call, env);
      expect(result.changed).toBe(true);
      for (const made of result.receipts) {
        expect(categoryOf(made.ruleId)).toBe(made.category);
        seen.add(made.ruleId);
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(8);
  });

  it('every rule and category appears in the README tables with its switch', () => {
    for (const rule of ruleCatalogue)
      expect(readme).toContain(`| \`${rule.id}\` | ${rule.stage} | \`${rule.category}\``);
    for (const rule of ruleCatalogue)
      expect(readme).toMatch(
        new RegExp(`\\| \`${rule.id.replace(/\./g, '\\.')}\` \\|[^\\n]*\\| \`${rule.option}\` \\|`),
      );
    for (const category of categoryCatalogue)
      expect(readme).toContain(`| \`${category.id}\` | ${category.label} | ${category.known ? 'yes' : 'no'} |`);
  });
});
