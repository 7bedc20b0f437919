/**
 * The catalogue in both languages: every rule of core-rules' catalogue has a Chinese title and description here
 * (a rule added to the catalogue without one fails with its id named), no Chinese row is left for a rule the
 * catalogue dropped, and the category labels match core-rules' English labels and have Chinese for every id.
 */
import { describe, expect, it } from 'vitest';
import { categoryCatalogue, ruleCatalogue } from '../../core-rules/src/catalogue.js';
import { categoryLabels, ruleText, ruleTextsZh } from '../src/catalogue-messages.js';

describe('rule texts', () => {
  it('every catalogue rule has a Chinese title and description', () => {
    const missing = ruleCatalogue
      .map((rule) => rule.id)
      .filter((id) => !ruleTextsZh[id]?.title.trim() || !ruleTextsZh[id]?.description.trim());
    expect(
      missing,
      `rules without a Chinese title and description in catalogue-messages.ts: ${missing.join(', ')}`,
    ).toEqual([]);
  });

  it('has no Chinese row for a rule the catalogue does not have', () => {
    const known = new Set<string>(ruleCatalogue.map((rule) => rule.id));
    const stale = Object.keys(ruleTextsZh).filter((id) => !known.has(id));
    expect(stale, `Chinese rows for unknown rule ids: ${stale.join(', ')}`).toEqual([]);
  });

  it('picks Chinese for zh and the payload English otherwise, and English for a rule without a row', () => {
    const rule = ruleCatalogue[0];
    expect(ruleText('en', rule)).toEqual({ title: rule.title, description: rule.description });
    expect(ruleText('zh', rule)).toEqual(ruleTextsZh[rule.id]);
    const unknown = { id: 'future.rule', title: 'Future', description: 'Not translated yet' };
    expect(ruleText('zh', unknown)).toEqual({ title: 'Future', description: 'Not translated yet' });
  });
});

describe('category labels', () => {
  it("English equals core-rules' labels and Chinese covers every category id", () => {
    const ids = categoryCatalogue.map((category) => category.id);
    expect(categoryLabels.en).toEqual(Object.fromEntries(categoryCatalogue.map((c) => [c.id, c.label])));
    const missing = ids.filter((id) => !categoryLabels.zh[id]);
    expect(missing, `categories without a Chinese label: ${missing.join(', ')}`).toEqual([]);
    expect(Object.keys(categoryLabels.zh).sort()).toEqual([...ids].sort());
  });
});
