/**
 * Writes the README parts that must never drift from the code: the options table (from the plugin's typebox config
 * schema in packages/dsh-adapter/src/config.ts, whose rule switches are core-rules' `switchCatalogue` rows: name,
 * type, default, description), the rule catalogue (from core-rules' typed `ruleCatalogue`: id, stage, category,
 * option, what it does) and the prompt section the model
 * sees with its size (packages/dsh-adapter/src/prompt-section.ts; tokens estimated as DSH's token meter does,
 * characters / 4). Each part goes between a pair of marker comments in every README listed in `README_TARGETS`;
 * text outside the markers is never touched.
 *
 *   node scripts/gen-readme-tables.mjs           # rewrite the generated parts
 *   node scripts/gen-readme-tables.mjs --check   # exit 1 and name the files whose generated parts drifted
 *   node scripts/gen-readme-tables.mjs --prompt  # print the prompt section and its size
 *
 * packages/dsh-tool-normalizer/tests/readme.test.ts runs the same rendering on the sources and fails on drift.
 * The zh READMEs get Chinese header rows; cell text stays English (it comes from the code, which is English).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionKind } from './gen-sources.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Every README that shows generated parts: which parts, and the language of its header rows and sentences. */
export const README_TARGETS = Object.freeze([
  { file: 'README.md', lang: 'en', parts: ['options', 'rules'] },
  { file: 'README.zh.md', lang: 'zh', parts: ['options', 'rules'] },
  { file: 'packages/dsh-tool-normalizer/README.md', lang: 'en', parts: ['options', 'rules', 'prompt'] },
  { file: 'packages/dsh-tool-normalizer/README.zh.md', lang: 'zh', parts: ['options', 'rules', 'prompt'] },
  { file: 'packages/core-rules/README.md', lang: 'en', parts: ['rules'] },
]);

const HEADERS = {
  en: {
    options: ['option', 'type', 'default', 'what it does'],
    rules: ['rule', 'stage', 'category', 'switched by', 'what it does'],
  },
  zh: {
    options: ['选项', '类型', '默认值', '作用'],
    rules: ['规则', '阶段', '类别', '开关', '作用'],
  },
};

export const beginMarker = (part) => `<!-- BEGIN GENERATED ${part}: node scripts/gen-readme-tables.mjs -->`;
export const endMarker = (part) => `<!-- END GENERATED ${part} -->`;

/** Markdown table cell: one line, pipes escaped. */
function cell(text) {
  return String(text).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function code(text) {
  return `\`${String(text).replace(/`/g, "'")}\``;
}

function row(cells) {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function table(header, rows) {
  return [row(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(row)].join('\n');
}

/** The type of one option as a reader writes it; an unknown schema kind is an error, never a guess. */
export function optionType(name, property) {
  const kind = optionKind(property);
  if (kind === 'integer' || kind === 'number')
    return property.minimum === undefined ? kind : `${kind} ≥ ${property.minimum}`;
  if (kind === 'string-map') return 'map of string to string';
  if (kind !== undefined) return kind;
  throw new Error(
    `gen-readme-tables: option "${name}" has a schema kind the generator does not render (${JSON.stringify(property.type)}); extend optionType()`,
  );
}

function optionDefault(property) {
  const value = property.default;
  if (typeof value === 'number' && value >= 1024 * 1024 && value % (1024 * 1024) === 0)
    return `${code(value)} (${value / (1024 * 1024)} MiB)`;
  return code(JSON.stringify(value));
}

/** The options table from the typebox config schema (a JSON Schema object). */
export function renderOptionsTable(configSchema, lang = 'en') {
  const rows = Object.entries(configSchema.properties).map(([name, property]) => [
    code(name),
    optionType(name, property),
    optionDefault(property),
    property.description ?? '',
  ]);
  return table(HEADERS[lang].options, rows);
}

/** The rule catalogue table from core-rules' `ruleCatalogue`. */
export function renderRulesTable(ruleCatalogue, lang = 'en') {
  const rows = ruleCatalogue.map((rule) => [
    code(rule.id),
    rule.stage,
    code(rule.category),
    code(rule.option),
    `**${rule.title}.** ${rule.description}`,
  ]);
  return table(HEADERS[lang].rules, rows);
}

/** DSH's own token estimate for text (`@deepseek-ai/dsh-token-meter`: characters / 4, rounded up). */
export function estimateTokens(text) {
  return Math.ceil(text.length / 4);
}

/** The prompt section exactly as the plugin adds it, and its size. */
export function renderPromptSection(text, lang = 'en') {
  if (text.includes('```'))
    throw new Error('gen-readme-tables: the prompt section contains a Markdown fence; render it another way');
  const size =
    lang === 'zh'
      ? `共 ${text.length} 个字符，按 DSH 自己的估算（字符数 / 4，向上取整）约 ${estimateTokens(text)} 个 token。打印命令：\`node scripts/gen-readme-tables.mjs --prompt\`。`
      : `${text.length} characters, about ${estimateTokens(text)} tokens by DSH's own estimate (characters / 4, rounded up). Printed by \`node scripts/gen-readme-tables.mjs --prompt\`.`;
  return `\`\`\`text\n${text}\n\`\`\`\n\n${size}`;
}

/** The generated parts of one README target, rendered from the sources in its language. */
export function renderTables(sources, target) {
  const render = {
    options: () => renderOptionsTable(sources.ConfigSchema, target.lang),
    rules: () => renderRulesTable(sources.ruleCatalogue, target.lang),
    prompt: () => renderPromptSection(sources.PROMPT_SECTION_TEXT, target.lang),
  };
  return Object.fromEntries(target.parts.map((part) => [part, render[part]()]));
}

/**
 * `text` with each table's marked region replaced by the rendered table. Throws when a README lacks a marker pair
 * (a README that shows the tables must keep both markers, or the drift test could not see it).
 */
export function applyTables(text, tables, file = 'README') {
  let out = text;
  for (const [name, body] of Object.entries(tables)) {
    const begin = out.indexOf(beginMarker(name));
    const end = out.indexOf(endMarker(name));
    if (begin === -1 || end === -1 || end < begin)
      throw new Error(
        `${file}: missing or misordered markers for the generated ${name} (${beginMarker(name)} … ${endMarker(name)})`,
      );
    out = `${out.slice(0, begin + beginMarker(name).length)}\n${body}\n${out.slice(end)}`;
  }
  return out;
}

async function main() {
  const check = process.argv.includes('--check');
  const { loadGeneratorSources } = await import('./gen-sources.mjs');
  const sources = await loadGeneratorSources();
  if (process.argv.includes('--prompt')) {
    const text = sources.PROMPT_SECTION_TEXT;
    console.log(
      `${text}\n\n${text.length} characters, about ${estimateTokens(text)} tokens (characters / 4, DSH's estimate)`,
    );
    return;
  }
  const drifted = [];
  for (const target of README_TARGETS) {
    const file = path.join(root, target.file);
    const text = await readFile(file, 'utf8');
    const next = applyTables(text, renderTables(sources, target), target.file);
    if (next === text) continue;
    drifted.push(target.file);
    if (!check) await writeFile(file, next);
  }
  if (check && drifted.length > 0) {
    console.error(`README tables out of date: ${drifted.join(', ')}\nrun: node scripts/gen-readme-tables.mjs`);
    process.exit(1);
  }
  console.log(drifted.length === 0 ? 'README tables up to date' : `README tables rewritten: ${drifted.join(', ')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
