/** The rule catalogue is complete, consistent with receipts and plans, and documented in the README. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { categories, ruleCatalogue } from '../src/index.js';
import { defaultToggles } from '../src/toggles.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('ruleCatalogue', () => {
  it('has unique ids, known categories and real switches', () => {
    const ids = ruleCatalogue.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    const categoryIds = new Set(categories.map((category) => category.id));
    for (const rule of ruleCatalogue) {
      expect(categoryIds.has(rule.category)).toBe(true);
      expect(Object.keys(defaultToggles)).toContain(rule.option);
      expect(rule.description.length).toBeGreaterThan(20);
    }
  });

  it('every rule and category appears in the README tables with its switch', () => {
    for (const rule of ruleCatalogue) expect(readme).toContain(`| \`${rule.id}\` | ${rule.stage} | \`${rule.category}\``);
    for (const rule of ruleCatalogue) expect(readme).toMatch(new RegExp(`\\| \`${rule.id.replace(/\./g, '\\.')}\` \\|[^\\n]*\\| \`${rule.option}\` \\|`));
    for (const category of categories) expect(readme).toContain(`| \`${category.id}\` | ${category.label} | ${category.known ? 'yes' : 'no'} |`);
  });

  it('every rule id used in the source is in the catalogue', () => {
    const ids = new Set(ruleCatalogue.map((rule) => rule.id));
    const sources = ['normalize.ts', 'recovery.ts', 'decode-arguments.ts', 'rules/arguments.ts', 'rules/editor.ts', 'rules/run-code.ts'];
    for (const file of sources) {
      const text = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
      for (const match of text.matchAll(/ruleId: '([^']+)'/g)) expect(ids.has(match[1] as string)).toBe(true);
      for (const match of text.matchAll(/'(args\.unwrap-[a-z-]+)'/g)) expect(ids.has(match[1] as string)).toBe(true);
    }
  });
});
