/** Bad and hostile input: a clear result, never a crash or an unbounded amount of work. */
import { describe, expect, it } from 'vitest';
import { compilesLikeHost, DEFAULT_MAX_COMPILE_ATTEMPTS, healProgram } from '../src/index.js';

const validLine = "await tools.read({ file_path: '/w/a.txt' });\n";

describe('bad input', () => {
  it('empty and blank programs get a clear empty-program result', () => {
    for (const code of ['', '   \n\t\n']) {
      const result = healProgram(code);
      expect(result).toMatchObject({ ok: true, changed: false, code, repairs: [] });
      expect(result.diagnostic?.kind).toBe('empty-program');
    }
  });

  it.each([[42], [null], [undefined], [{ code: 'return 1' }], [['return 1']]])(
    'non-string %j gets invalid-input',
    (value) => {
      const result = healProgram(value as unknown as string);
      expect(result).toMatchObject({ ok: false, changed: false, code: '' });
      expect(result.diagnostic?.kind).toBe('invalid-input');
      expect(compilesLikeHost(value as unknown as string).ok).toBe(false);
    },
  );

  it('a 1 MB valid program is left to the host at once, unchanged, saying why', () => {
    const code = validLine.repeat(Math.ceil(1_000_000 / validLine.length));
    const result = healProgram(code);
    expect(result).toMatchObject({ ok: false, changed: false, code });
    expect(result.diagnostic?.kind).toBe('too-large-to-check');
  }, 60_000);

  it('a 1 MB broken program is left to the host the same way', () => {
    const code = validLine.repeat(Math.ceil(1_000_000 / validLine.length)) + "const s = 'cut";
    const result = healProgram(code);
    expect(result).toMatchObject({ ok: false, changed: false });
    expect(result.diagnostic?.kind).toBe('too-large-to-check');
  }, 60_000);

  it('a 100 KB broken program is diagnosed without repair attempts', () => {
    const code = validLine.repeat(Math.ceil(100_000 / validLine.length)) + "const s = 'cut";
    const result = healProgram(code);
    expect(result).toMatchObject({ ok: false, changed: false });
    expect(['too-large-to-repair', 'too-large-to-check']).toContain(result.diagnostic?.kind);
  }, 60_000);

  it('a 200 KB valid program is checked by the lazy parse and returned unchanged', () => {
    const code = validLine.repeat(Math.ceil(200_000 / validLine.length));
    expect(healProgram(code)).toMatchObject({ ok: true, changed: false, code });
  }, 60_000);

  it.each([[200], [10_000]])(
    '%i backticks end in a result',
    (count) => {
      const code = 'const s = ' + '`'.repeat(count) + ';';
      const result = healProgram(code);
      expect(typeof result.ok).toBe('boolean');
      if (!result.ok) expect(result.code).toBe(code);
    },
    60_000,
  );

  it('backticks mixed with text and ${ are handled', () => {
    const code = 'const s = `' + 'a `b` ${c '.repeat(2_000) + '`;';
    const result = healProgram(code);
    expect(typeof result.ok).toBe('boolean');
  });

  it.each([['('], ['['], ['{']])('10,000 nested %s brackets end in a result', (open) => {
    const code = 'const x = ' + open.repeat(10_000);
    const result = healProgram(code);
    expect(result.ok).toBe(false);
    expect(result.code).toBe(code);
    expect(result.diagnostic).toBeDefined();
  });

  it('deeply nested but balanced brackets end in a result', () => {
    const code = 'return ' + '['.repeat(5_000) + ']'.repeat(5_000) + ';';
    const result = healProgram(code);
    expect(typeof result.ok).toBe('boolean');
    expect(result.changed).toBe(false);
  });
});

describe('compile-attempt cap', () => {
  it('defaults to 12', () => {
    expect(DEFAULT_MAX_COMPILE_ATTEMPTS).toBe(12);
  });

  it('with a cap of 1 only the original is compiled, so nothing is repaired', () => {
    const code = 'const doc = """\nx\n""";\nreturn doc;';
    expect(healProgram(code).ok).toBe(true);
    const capped = healProgram(code, { maxCompileAttempts: 1 });
    expect(capped).toMatchObject({ ok: false, changed: false, code });
  });
});

describe('diagnostics on hostile text', () => {
  it.each([
    ['a long Python-looking def line', 'def a(' + '('.repeat(200_000)],
    ['a long import line without from', 'import ' + 'a '.repeat(100_000)],
    ['a long f-string-looking line', 'f"' + '{'.repeat(100_000)],
    ['many short lines', 'x y\n'.repeat(50_000)],
    ['200,000 unclosed braces on one line (every open bracket is checked against the last line)', '{'.repeat(200_000)],
  ])('%s gets a diagnostic', (_name, code) => {
    const result = healProgram(code);
    expect(result.ok).toBe(false);
    expect(result.diagnostic?.message.length).toBeGreaterThan(0);
  });
});

describe('fence lines on hostile text', () => {
  it.each([
    ['a fence opener followed by a 200,000-character word and a backtick', '```' + 'a'.repeat(200_000) + '`'],
    ['a tilde line of 200,000 characters', '~'.repeat(200_000)],
    ['10,000 backticks alone', '`'.repeat(10_000)],
  ])('%s ends in a result', (_name, code) => {
    const result = healProgram(code);
    expect(typeof result.ok).toBe('boolean');
    if (!result.ok) expect(result.code).toBe(code);
  });
});

describe("issue 31's readings on hostile text", () => {
  it.each([
    ['60,000 right quotes on one line', 'const s = ' + '’a'.repeat(30_000) + ';'],
    ['60,000 left quotes on one line', 'const s = ' + '“'.repeat(60_000)],
    ['20,000 HTML entities', 'const x = 1 ' + '&lt;'.repeat(20_000)],
    ['20,000 escaped line breaks', 'return 1;\\n'.repeat(20_000)],
    ['20,000 zero-width spaces between words', 'return a' + '\u200ba'.repeat(20_000)],
    ['20,000 # comment lines', '# note\n'.repeat(20_000) + 'return 1;'],
    ['20,000 prose lines', 'Here is more text.\n'.repeat(20_000)],
    ['20,000 markup tags', '</parameter>'.repeat(20_000)],
  ])('%s end in a result that leaves the text alone or repairs it', (_name, code) => {
    const result = healProgram(code);
    expect(typeof result.ok).toBe('boolean');
    if (!result.ok) expect(result.code).toBe(code);
  });
});
