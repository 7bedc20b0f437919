/** Unit checks of the lenient scanner and the fence finder that the repairs build on. */
import { describe, expect, it, vi } from 'vitest';
import { findFence } from '../src/fences.js';
import { lex } from '../src/lexer.js';

describe('lex', () => {
  it('tells a regular expression from a division', () => {
    const division = lex('const a = b / c / d;');
    expect(division.tokens.some((token) => token.kind === 'regex')).toBe(false);
    const regex = lex('const quoted = text.match(/[\'"`]/g);');
    expect(regex.tokens.filter((token) => token.kind === 'regex')).toHaveLength(1);
    expect(regex.openAtEnd).toBeUndefined();
  });

  it('follows nested templates and interpolations', () => {
    const scan = lex('const s = `a ${[1].map((n) => `#${n}`).join(`,`)} b`;');
    expect(scan.openAtEnd).toBeUndefined();
    expect(scan.openBrackets).toEqual([]);
  });

  it('reports what the text ends inside', () => {
    expect(lex("tools.bash({ command: 'rm -rf /srv").openAtEnd?.kind).toBe('string');
    expect(lex('const s = `abc').openAtEnd?.kind).toBe('template');
    expect(lex('/* note').openAtEnd?.kind).toBe('block-comment');
    expect(lex('f({ a: [1').openBrackets.map((bracket) => bracket.char)).toEqual(['(', '{', '[']);
  });

  it('finds strings broken by a raw line break, and where they close in multiline reading', () => {
    const code = "const a = 'one\ntwo';";
    expect(lex(code).brokenStrings).toEqual([{ start: 10, end: 14, closed: false }]);
    expect(lex(code, { multilineQuotes: true }).brokenStrings).toEqual([{ start: 10, end: 19, closed: true }]);
  });

  it('reads Python triple quotes and their prefixes only when asked', () => {
    const code = 'const a = """x""";\nconst b = f"""y""";';
    expect(lex(code).tripleQuotes).toEqual([]);
    expect(lex(code, { tripleQuotes: true }).tripleQuotes.map((triple) => triple.prefix)).toEqual(['', 'f']);
  });

  it('judges shell ${NAME} expansions by whole words: unbound ones only', () => {
    const unbound = lex('const s = `cd ${HOME} && ls ${SRC_DIR}/`;', { guessTemplateContent: true });
    expect(unbound.shellExpansions).toEqual([14, 28]);
    const bound = lex('const HOME = "/h";\nconst s = `cd ${HOME} && echo $SRC_DIR ${SRC_DIR}`;', {
      guessTemplateContent: true,
    });
    expect(bound.shellExpansions).toEqual([]);
  });

  it('does not rescan the whole program once per distinct ${NAME} (a hostile template stays linear)', () => {
    const names = Array.from({ length: 2000 }, (_, index) => '${VAR_' + index + '}');
    const code = 'const s = `echo ' + names.join(' ') + ' `x` y`;\nrun(';
    const split = vi.spyOn(String.prototype, 'split');
    try {
      const scan = lex(code, { guessTemplateContent: true });
      expect(scan.shellExpansions).toHaveLength(2000);
      const wholeProgramSplits = split.mock.contexts.filter((self) => String(self).length === code.length).length;
      expect(wholeProgramSplits).toBeLessThanOrEqual(2);
    } finally {
      split.mockRestore();
    }
  });

  it('pairs inline-code backticks inside a template and keeps the real closer', () => {
    const code = 'x(`Run `npm test` now`, 1);';
    const scan = lex(code, { guessTemplateContent: true });
    expect(scan.innerBackticks.map((offset) => code.slice(offset, offset + 4))).toEqual(['`npm', '` no']);
    expect(scan.openAtEnd).toBeUndefined();
  });

  it('treats shell expansions as text, and a bound ${NAME} as JavaScript', () => {
    const shell = 'run(`echo ${PORT:-80} ${HOME}`);';
    expect(lex(shell, { guessTemplateContent: true }).shellExpansions).toHaveLength(2);
    const bound = 'const HOME = "/h";\nrun(`echo ${HOME}`);';
    expect(lex(bound, { guessTemplateContent: true }).shellExpansions).toEqual([]);
  });
});

describe('findFence', () => {
  it('returns none for a program without a fence, even with fences inside a template', () => {
    expect(findFence('return 1;')).toEqual({ kind: 'none' });
    expect(findFence('const md = `\n```js\nx\n```\n`;\nreturn md;')).toEqual({ kind: 'none' });
  });

  it('keeps the body byte for byte', () => {
    const body = '\tconst a = 1;\r\n\r\n  return a;\r\n';
    const match = findFence('```ts\r\n' + body + '\r\n```\r\n');
    expect(match).toMatchObject({ kind: 'fence', body, language: 'ts', closed: 'line' });
  });

  it('names a foreign fence and refuses more than one block', () => {
    expect(findFence('```python\nprint(1)\n```')).toMatchObject({ kind: 'foreign', language: 'python' });
    expect(findFence('```js\na()\n```\n```js\nb()\n```')).toMatchObject({ kind: 'ambiguous' });
  });

  it('does not take prose with code characters as an introduction', () => {
    expect(findFence('const a = 1;\n```js\nreturn a;\n```')).toEqual({ kind: 'none' });
  });
});
