/**
 * The READMEs cannot drift from the code or from each other: every generated part (options table from the config
 * schema, rule catalogue from core-rules, the prompt section and its size) equals what scripts/gen-readme-tables.mjs
 * renders from the TypeScript sources imported here, and each README.zh.md has the same sections (heading levels,
 * in order), as many list items and table rows in each, the same code blocks byte for byte and the same generated
 * markers as its English twin.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '@dsh-tool-normalizer/dsh-adapter/config';
import { PROMPT_SECTION_TEXT } from '@dsh-tool-normalizer/dsh-adapter/prompt-section';
import { ruleCatalogue } from '@dsh-tool-normalizer/core-rules/catalogue';
import {
  README_TARGETS,
  applyTables,
  renderTables,
  renderOptionsTable,
  estimateTokens,
} from '../../../scripts/gen-readme-tables.mjs';

interface Target {
  file: string;
  lang: 'en' | 'zh';
  parts: string[];
}

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');
const sources = { ConfigSchema, ruleCatalogue, PROMPT_SECTION_TEXT };
const targets = README_TARGETS as readonly Target[];

/** Heading levels in order, outside code blocks. */
function headingLevels(markdown: string): number[] {
  return withoutCode(markdown)
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.indexOf(' '));
}

function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```[^\n]*\n[\s\S]*?^```/gm)].map((match) => match[0]);
}

/** Per section (split at headings, code removed): how many list items and table rows it has. */
function sectionShape(markdown: string): string[] {
  const shape: string[] = [];
  let items = 0;
  let rows = 0;
  const flush = () => shape.push(`${items} items, ${rows} table rows`);
  for (const line of withoutCode(markdown).split('\n')) {
    if (/^#{1,6} /.test(line)) {
      flush();
      items = 0;
      rows = 0;
    } else if (/^\s*(?:[-*] |\d+\. )/.test(line)) items++;
    else if (line.startsWith('|')) rows++;
  }
  flush();
  return shape;
}

function markers(markdown: string): string[] {
  return [...markdown.matchAll(/<!-- (?:BEGIN|END) [^>]*-->/g)].map((match) => match[0]);
}

describe('generated README parts', () => {
  it.each(targets.map((t) => [t.file, t] as const))('%s matches the sources', (file, target) => {
    const text = read(file);
    expect(applyTables(text, renderTables(sources, target), file)).toBe(text);
  });

  it('a changed default or a new option changes the options table (the comparison can fail)', () => {
    const changed = structuredClone(ConfigSchema) as { properties: Record<string, { default?: unknown }> };
    changed.properties['errorHints']!.default = false;
    expect(renderOptionsTable(changed)).not.toBe(renderOptionsTable(ConfigSchema));
    for (const option of Object.keys(ConfigSchema.properties))
      expect(read('packages/dsh-tool-normalizer/README.md')).toContain(`| \`${option}\` |`);
  });

  it('lists every catalogue rule and states the prompt size as DSH estimates it (characters / 4)', () => {
    const readme = read('packages/dsh-tool-normalizer/README.md');
    for (const rule of ruleCatalogue) expect(readme).toContain(`| \`${rule.id}\` |`);
    expect(readme).toContain(
      `${PROMPT_SECTION_TEXT.length} characters, about ${estimateTokens(PROMPT_SECTION_TEXT)} tokens`,
    );
    expect(readme).toContain(PROMPT_SECTION_TEXT);
  });

  it('a README without the markers is an error, not silently skipped', () => {
    expect(() => applyTables('# no markers\n', { options: 'x' }, 'X.md')).toThrow(
      /X\.md: missing or misordered markers/,
    );
  });
});

describe('the compatibility table', () => {
  const table = (file: string) =>
    /<!-- BEGIN compatibility[^>]*-->[\s\S]*?<!-- END compatibility -->/.exec(read(file))?.[0];

  it.each([
    ['README.md', 'packages/dsh-tool-normalizer/README.md'],
    ['README.zh.md', 'packages/dsh-tool-normalizer/README.zh.md'],
  ])('%s has the same table as %s', (root, pkg) => {
    expect(table(pkg)).toBeDefined();
    expect(table(root)).toBe(table(pkg));
  });

  it('lists every release the manifest test checks, and names rc.8 as the one proven live', async () => {
    const { DSH_RELEASES, DSH_LIVE } = await import('@dsh-tool-normalizer/dsh-profile');
    const text = table('packages/dsh-tool-normalizer/README.md')!;
    for (const version of DSH_RELEASES) {
      const [line, tag] = version.split('-') as [string, string];
      const row = text
        .split('\n')
        .find((r) => r.startsWith('| ') && r.includes(line) && r.includes(tag.split('.')[0]!));
      expect(row, version).toBeDefined();
      expect(row!.includes(tag.split('.').at(-1)!), version).toBe(true);
    }
    expect(text).toMatch(new RegExp(`^\\| ${DSH_LIVE.replace(/\./g, '\\.')} \\| live, in CI \\|`, 'm'));
  });
});

describe.each([
  ['README.md', 'README.zh.md'],
  ['packages/dsh-tool-normalizer/README.md', 'packages/dsh-tool-normalizer/README.zh.md'],
])('%s and its Chinese twin', (english, chinese) => {
  const en = read(english);
  const zh = read(chinese);

  it('have the same sections (heading levels in order)', () => {
    expect(headingLevels(zh)).toEqual(headingLevels(en));
    expect(headingLevels(en).length).toBeGreaterThan(3);
  });

  it('say as much in each section (same number of list items and table rows per section)', () => {
    expect(sectionShape(zh)).toEqual(sectionShape(en));
  });

  it('have the same code blocks, byte for byte', () => {
    expect(codeBlocks(zh)).toEqual(codeBlocks(en));
    expect(codeBlocks(en).length).toBeGreaterThan(0);
  });

  it('have the same generated parts and markers', () => {
    expect(markers(zh)).toEqual(markers(en));
  });

  it('the Chinese one has Chinese headings and prose', () => {
    const headings = withoutCode(zh)
      .split('\n')
      .filter((line) => /^#{2,6} /.test(line));
    const chineseHeadings = headings.filter((line) => /[\u4e00-\u9fff]/.test(line));
    expect(chineseHeadings.length).toBeGreaterThanOrEqual(headings.length - 1);
    expect(zh).toContain('[English](README.md)');
  });
});

describe('one DSH install block: the tested one, in every README a DSH user starts from', () => {
  /** The fenced block between a README's `dsh-user-path` markers (the one apps/dsh-lab's readme-install test runs). */
  const userPath = (file: string) => {
    const match = /<!-- BEGIN dsh-user-path[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- END dsh-user-path -->/.exec(
      read(file),
    );
    if (!match) throw new Error(`${file}: no dsh-user-path block`);
    return match[1];
  };

  it('the root README.md and README.zh.md carry the package README block verbatim, with both expected warnings named', () => {
    const tested = userPath('packages/dsh-tool-normalizer/README.md');
    expect(tested).toContain('add @deepseek-ai/cordis-plugin-hmr@1.0.17');
    for (const file of [
      'README.md',
      'README.zh.md',
      'packages/dsh-tool-normalizer/README.md',
      'packages/dsh-tool-normalizer/README.zh.md',
    ]) {
      expect(userPath(file), file).toBe(tested);
      const text = read(file);
      expect(text, file).toContain('npm warn install-scripts');
      expect(text, file).toContain('declares no dsh.bundle');
    }
  });
});
