/**
 * The catalogue is the typed source of truth: ids are unique, every rule names a real category, switch and
 * implementation, every rule id written in the engine's source is a row and every row's id is written where it
 * acts, every argument rule is registered, every receipt the engine writes carries a catalogued rule id with that
 * rule's category, and the README tables list every row.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  categories,
  categoryCatalogue,
  categoryOf,
  normalizeCall,
  receipt,
  ruleCatalogue,
  ruleOn,
  switchCatalogue,
  switchOf,
  TOGGLE_KEYS,
} from '../src/index.js';
import type { CategoryId, Diagnostic, Receipt, RuleId, SwitchId, ToggleKey } from '../src/index.js';
import { ARGUMENT_RULES } from '../src/normalize.js';
import { defaultToggles } from '../src/toggles.js';
import { codeEnv, nativeEnv } from './fixtures.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

const srcRoot = new URL('../src/', import.meta.url);
/** Every source file of the engine except the catalogue itself, relative to src/. */
const sourceFiles = (readdirSync(srcRoot, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts') && file !== 'catalogue.ts')
  .map((file) => ({ file, text: readFileSync(new URL(file, srcRoot), 'utf8') }));
/** A quoted string shaped like a rule id (`family.kebab-name`) in the engine's source. */
const RULE_ID_LITERAL = /'((?:args|run_code|code|editor|call|recover|hint)\.[a-z][a-z-]*)'/g;

describe('one row per rule: the catalogue and the code agree', () => {
  it('every rule id the engine writes is a catalogue row', () => {
    const catalogued = new Set<string>(ruleCatalogue.map((rule) => rule.id));
    const written = sourceFiles.flatMap(({ file, text }) =>
      [...text.matchAll(RULE_ID_LITERAL)].map((match) => ({ file, id: match[1] as string })),
    );
    expect(written.length).toBeGreaterThan(20);
    expect(written.filter(({ id }) => !catalogued.has(id))).toEqual([]);
  });

  it('every normalize and recover row is written where it acts (its receipt or plan names it)', () => {
    const written = new Set(sourceFiles.flatMap(({ text }) => [...text.matchAll(RULE_ID_LITERAL)].map((m) => m[1])));
    const silent = ruleCatalogue.filter((rule) => rule.stage !== 'hint' && !written.has(rule.id)).map((r) => r.id);
    expect(silent).toEqual([]);
  });

  it("every row's implementation is a real export of the file it names", async () => {
    for (const rule of ruleCatalogue) {
      const [file, name] = rule.implementation.split('#') as [string, string];
      const module = (await import(`../src/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
      expect(typeof module[name], `${rule.id}: ${rule.implementation}`).toBe('function');
    }
  });

  it('every argument rule of the catalogue is registered exactly once', () => {
    const registered = ARGUMENT_RULES.map(([id]) => id);
    expect(new Set(registered).size).toBe(registered.length);
    const argumentRows = ruleCatalogue.filter(
      (rule) =>
        rule.implementation.startsWith('rules/arguments.ts#') || rule.implementation.startsWith('rules/editor.ts#'),
    );
    expect([...registered].sort()).toEqual(argumentRows.map((rule) => rule.id).sort());
  });

  it('each registered argument rule runs only when its own switch is on', () => {
    // One call per switch family: an alias key (autoWrapRunCode) and a relative editor path (autoClampRanges).
    const bash = { name: 'bash', arguments: { cmd: 'ls', description: 'List files' } };
    const editor = { name: 'str_replace_editor', arguments: { command: 'view', path: 'a.txt' } };
    for (const key of TOGGLE_KEYS) {
      const toggles = { [key]: false };
      const renamed = normalizeCall(bash, nativeEnv, toggles).changed;
      const resolved = normalizeCall(editor, nativeEnv, toggles).changed;
      expect(renamed, key).toBe(switchOf('args.rename-alias') !== key);
      expect(resolved, key).toBe(switchOf('editor.absolute-path') !== key);
    }
  });

  it('rules run by one shared entry (normalizeRunCode, decodeArguments, planInnerFills) share their gate', () => {
    // normalize.ts gates all run_code.* rules by one row's switch and decodeArguments' steps by UNWRAP_RULES.
    const gate = switchOf('run_code.command-to-code');
    for (const rule of ruleCatalogue.filter((r) => r.id.startsWith('run_code.'))) expect(rule.option).toBe(gate);
  });

  it('every switch has rules and a card text; ruleOn reads the row', () => {
    expect([...TOGGLE_KEYS]).toEqual(switchCatalogue.map((row) => row.id));
    for (const row of switchCatalogue) {
      expect(
        ruleCatalogue.some((rule) => rule.option === row.id),
        row.id,
      ).toBe(true);
      for (const text of [row.description, row.label, row.hint]) expect(text.trim().length).toBeGreaterThan(5);
    }
    for (const rule of ruleCatalogue) {
      expect(ruleOn({ ...defaultToggles, [rule.option]: false }, rule.id)).toBe(false);
      expect(ruleOn(defaultToggles, rule.id)).toBe(true);
    }
  });
});

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

  it('the ids are typed: an unknown rule, category, switch or diagnostic kind does not type-check', () => {
    // Proven by `tsc --noEmit` over the tests: each @ts-expect-error fails the type-check if its line compiles.
    const rule: RuleId = 'editor.view-range-shape';
    const category: CategoryId = 'editor-range';
    const toggle: ToggleKey = 'autoClampRanges';
    // @ts-expect-error not a catalogued rule id
    const badRule: RuleId = 'editor.no-such-rule';
    // @ts-expect-error not a catalogued category id
    const badCategory: CategoryId = 'no-such-category';
    // @ts-expect-error not a catalogued switch
    const badSwitch: SwitchId = 'autoWrapRunCodes';
    // @ts-expect-error a receipt's rule id is a catalogued id, not any string
    const badReceipt: Receipt = { ruleId: 'args.typo', category: 'invalid-args', why: '', before: '', after: '' };
    // @ts-expect-error a diagnostic's kind is one the healer names
    const badDiagnostic: Diagnostic = { kind: 'no-such-kind', message: '' };
    // @ts-expect-error receipt() takes catalogued ids only
    receipt('args.no-such-rule', 'why', 'a', 'b');
    expect([rule, category, toggle, badRule, badCategory, badSwitch, badReceipt, badDiagnostic]).toHaveLength(8);
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
