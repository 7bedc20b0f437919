/**
 * core-rules reads DSH's error vocabulary from @dsh-tool-normalizer/dsh-profile and keeps no copy of it: every
 * example of the vocabulary is settled by `classifyResult` in the category the vocabulary declares, and no string,
 * template or regex literal in core-rules' source holds an error code or a shape's mark (a new DSH text goes into the
 * vocabulary with its captured example, not into a rule file). Moved here from dsh-profile, which depends on nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CODE_RUN_FAILED_PREFIX,
  CODE_RUN_PREFIX,
  DIRECT_CALL_MARK,
  ERROR_CODES,
  MESSAGE_SHAPES,
  type MessageShape,
  READ_THEN_RETRY_MARK,
  TOOL_CALL_ERROR_PREFIX,
} from '@dsh-tool-normalizer/dsh-profile';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { categories, classifyResult, hintFor } from '../src/index.js';
import { codeEnv } from './fixtures.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The result DSH returns for a shape's example, and the call it answers. */
function exampleResult(shape: MessageShape) {
  const program = shape.where === 'program' || shape.code === ERROR_CODES.CODE_RUN_FAILED;
  const message =
    program && !shape.example.startsWith(CODE_RUN_FAILED_PREFIX) ? CODE_RUN_PREFIX + shape.example : shape.example;
  const code = shape.code ?? (program ? ERROR_CODES.CODE_RUN_FAILED : undefined);
  // A program that does not compile like the host compiles it (it never ran), else one that does.
  const source = shape.category === 'code-syntax' ? 'x = """' : 'return 1;';
  const call = program
    ? { name: 'run_code', arguments: JSON.stringify({ code: source, description: 'probe' }) }
    : { name: shape.id.startsWith('editor') ? 'str_replace_editor' : 'read', arguments: '{}' };
  return { call, result: { isError: true, error: { message, ...(code ? { info: { name: 'E', code } } : {}) } } };
}

describe('every vocabulary example is settled in its declared category', () => {
  it.each(MESSAGE_SHAPES.map((shape) => [shape.id, shape] as const))('%s', (_id, shape) => {
    const { call, result } = exampleResult(shape);
    const classification = classifyResult(call, result);
    expect(classification.category).toBe(shape.category);
    expect(classification.code).toBe(result.error.info?.code);
  });

  it.each([
    ['rc.8', 'TypeError: tools.read_file is not a function'],
    ['0.2.x QuickJS', 'TypeError: tools.read_file does not exist. Did you mean tools.read?'],
    ['0.2.x QuickJS, bracket access', 'TypeError: tools["read_file"] does not exist. Did you mean tools.read?'],
  ])('a missing binding (%s) gets the same hint, naming the tool it stands for', (_release, detail) => {
    const call = { name: 'run_code', arguments: { code: 'return await tools.read_file({});', description: 'probe' } };
    const result = { isError: true, error: { message: CODE_RUN_PREFIX + detail, info: { code: 'CODE_RUN_FAILED' } } };
    expect(classifyResult(call, result).category).toBe('inner-unknown-binding');
    expect(hintFor(call, result, codeEnv)).toBe('Hint: tools.read_file does not exist; use tools.read.');
  });

  it('every declared category is one of the catalogue', () => {
    const ids = new Set(categories.map((category) => category.id as string));
    for (const shape of MESSAGE_SHAPES) expect(ids.has(shape.category), shape.id).toBe(true);
  });
});

/** Every string, template and regex literal of a source file, with its line. */
function literalsOf(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      found.push({ text: node.getText(source), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(path.join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [path.join(dir, entry.name)]
        : [],
  );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What no literal in core-rules may hold: a code as a value (`'FS_NOT_OBSERVED'`; prose naming a code, as the
 * catalogue's descriptions do, is documentation), each prefix and mark, as written or regex-escaped.
 */
const FORBIDDEN: { what: string; test: (literal: string) => boolean }[] = [
  ...Object.values(ERROR_CODES).map((code) => ({
    what: `error code ${code}`,
    test: (literal: string) =>
      literal.slice(1, -1) === code || literal.includes(`(${code}|`) || literal.includes(`|${code})`),
  })),
  ...[
    CODE_RUN_FAILED_PREFIX.trim(),
    TOOL_CALL_ERROR_PREFIX.trim(),
    DIRECT_CALL_MARK,
    READ_THEN_RETRY_MARK,
    ...new Set(MESSAGE_SHAPES.map((shape) => shape.mark)),
  ].map((mark) => ({
    what: `DSH text ${JSON.stringify(mark)}`,
    test: (literal: string) => literal.includes(mark) || literal.includes(escapeRegExp(mark)),
  })),
];

describe('core-rules source writes no DSH error code or message text of its own', () => {
  const files = sourceFiles(SRC);

  it('scans every source file, rules included', () => {
    expect(files.some((file) => file.endsWith('classify.ts'))).toBe(true);
    expect(files.some((file) => file.includes(`${path.sep}rules${path.sep}`))).toBe(true);
  });

  it('no string, template or regex literal holds a code, prefix or mark', () => {
    const offences: string[] = [];
    for (const file of files)
      for (const literal of literalsOf(file))
        for (const rule of FORBIDDEN)
          if (rule.test(literal.text))
            offences.push(`${path.relative(SRC, file)}:${literal.line} ${rule.what} in ${literal.text.slice(0, 80)}`);
    expect(offences).toEqual([]);
  });

  it('the scan sees what it looks for (a literal written the old way is caught)', () => {
    const probe = [
      "'FS_NOT_OBSERVED'",
      '/^code run failed \\(exception\\): /',
      '`unknown tool "${name}"`',
      '/only `run_code` is callable directly/',
      "'tools.x does not exist. Did you mean tools.y?'",
    ];
    for (const literal of probe)
      expect(
        FORBIDDEN.some((rule) => rule.test(literal)),
        literal,
      ).toBe(true);
    expect(FORBIDDEN.some((rule) => rule.test("'FS_NOT_OBSERVED_X'"))).toBe(false);
  });
});
