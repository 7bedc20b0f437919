/**
 * Issue 31's classes, table-driven from tests/fixtures/transport.json: what the way to the host did to a program
 * (typographic quotes, a JSON layer too many, HTML entities, leaked tool-call markup, prose, zero-width characters,
 * `#` comments, and combinations). Every case is checked with the host's compile step: a broken input does not
 * compile (a fenced one compiles only as a tagged template), the expected repair does, each trap's readings all
 * compile (which is why it is refused), and each look-alike compiles and comes back untouched.
 */
import { describe, expect, it } from 'vitest';
import { compilesLikeHost, healProgram } from '../src/index.js';
import { transportCases } from './corpus.js';

const repairs = transportCases.filter((entry) => entry.expect.ok && entry.expect.changed);
const refusals = transportCases.filter((entry) => !entry.expect.ok);
const lookAlikes = transportCases.filter((entry) => entry.expect.ok && !entry.expect.changed);

describe('issue 31 repairs: the one reading that compiles', () => {
  it.each(repairs.map((entry) => [`${entry.cls}: ${entry.name}`, entry] as const))('%s', (_name, entry) => {
    // A fenced program compiles as a tagged template, and `a &gt; b;` as `a & gt; b`: both only fail when run.
    if (!entry.code.includes('```') && !entry.compilesMisread) expect(compilesLikeHost(entry.code).ok).toBe(false);
    expect(compilesLikeHost(entry.expect.code!).ok).toBe(true);
    const result = healProgram(entry.code);
    expect(result.diagnostic).toBeUndefined();
    expect(result).toMatchObject({ ok: true, changed: true, code: entry.expect.code });
    expect(result.repairs.map((repair) => repair.kind)).toEqual(entry.expect.repairs);
    // Healing the healed program changes nothing.
    expect(healProgram(result.code)).toMatchObject({ ok: true, changed: false });
  });
});

describe('issue 31 traps: refused, with a diagnostic that names what was found', () => {
  it.each(refusals.map((entry) => [`${entry.cls}: ${entry.name}`, entry] as const))('%s', (_name, entry) => {
    if (!entry.code.includes('```')) expect(compilesLikeHost(entry.code).ok).toBe(false);
    for (const reading of entry.readings ?? []) expect(compilesLikeHost(reading).ok, reading).toBe(true);
    if (entry.readings) expect(new Set(entry.readings).size).toBe(entry.readings.length);
    const result = healProgram(entry.code);
    expect(result).toMatchObject({ ok: false, changed: false, repairs: [] });
    expect(result.code).toBe(entry.code);
    expect(result.diagnostic?.kind).toBe(entry.expect.diagnostic);
    expect(result.diagnostic?.message).toMatch(/not run|nothing was run/);
    if (entry.expect.line !== undefined) expect(result.diagnostic?.line).toBe(entry.expect.line);
    if (entry.expect.column !== undefined) expect(result.diagnostic?.column).toBe(entry.expect.column);
  });
});

describe('issue 31 look-alikes: valid programs are never touched', () => {
  it.each(lookAlikes.map((entry) => [`${entry.cls}: ${entry.name}`, entry] as const))('%s', (_name, entry) => {
    expect(compilesLikeHost(entry.code).ok).toBe(true);
    const result = healProgram(entry.code);
    expect(result).toEqual({ ok: true, changed: false, code: entry.code, repairs: [] });
  });
});

describe('issue 31 diagnostics are true', () => {
  it('a trailing </parameter> or a closing sentence is never called cut off', () => {
    for (const code of [
      "const r = await tools.read({ file_path: '/w/a.txt' });\nreturn r;\n</parameter>\n</function>",
      "return 1;\nThat's it.",
      "const r = await tools.read({ file_path: '/w/a.txt' });\nconsole.log(r\nThat's it.",
    ]) {
      const result = healProgram(code);
      if (!result.ok) expect(result.diagnostic?.message, code).not.toMatch(/cut off/);
    }
  });

  it('a program cut inside an open construct and then wrapped in markup is still called cut off', () => {
    const result = healProgram("const r = await tools.read({ file_path: '/w/a.txt' });\nconsole.log(r\n</parameter>");
    expect(result.diagnostic?.kind).toBe('truncated');
  });

  it('a real cut beside an entity or an invisible character is still called cut off, at the cut', () => {
    expect(healProgram("const a = 1 &lt; 2;\nconst s = 'cut he").diagnostic).toMatchObject({
      kind: 'truncated',
      line: 2,
    });
    expect(healProgram('const a\u200b = [1,\n').diagnostic).toMatchObject({ kind: 'truncated', line: 2 });
  });

  it('an apostrophe in a # comment is not taken for a cut string: the # comment is named', () => {
    expect(healProgram("# don't run this\nreturn 1 +").diagnostic).toMatchObject({ kind: 'hash-comment', line: 1 });
  });

  it('a node hashbang before broken code is not called a shell command', () => {
    const result = healProgram('#!/usr/bin/env node\nconst = 1;');
    expect(result.diagnostic?.kind).toBe('hash-comment');
    expect(result.diagnostic?.message).not.toMatch(/shell/);
  });

  it('positions refer to the text sent, not to the program inside a fence', () => {
    const sent = 'Here it is:\n\n```js\nconst n = 1;\nreturn n + x“;\n```';
    const result = healProgram(sent);
    expect(result.diagnostic).toMatchObject({ kind: 'typographic-quotes', line: 5, column: 13 });
    expect(sent.split('\n')[4]![12]).toBe('“');
    expect(result.diagnostic?.message).toContain('line 5, column 13');
  });

  it('a refused typographic quote names its line so the model can fix it', () => {
    const result = healProgram('const a = 1;\nconst b = 2;\nreturn a + b + “;');
    expect(result.diagnostic).toMatchObject({ kind: 'typographic-quotes', line: 3 });
    expect(result.diagnostic?.message).toMatch(/typographic quote .* line 3/);
  });
});
