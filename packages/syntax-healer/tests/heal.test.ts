/** Table-driven checks of healProgram against the fixture corpus. */
import { describe, expect, it } from 'vitest';
import { healProgram } from '../src/index.js';
import { refusalCases, repairCases, shellTemplateCases, validCases } from './corpus.js';

describe('valid programs come back byte-identical', () => {
  it.each(validCases.map((entry) => [entry.name, entry.code] as const))('%s', (_name, code) => {
    const result = healProgram(code);
    expect(result.ok).toBe(true);
    expect(result.changed).toBe(false);
    expect(result.code).toBe(code);
    expect(result.repairs).toEqual([]);
    expect(result.diagnostic).toBeUndefined();
  });
});

describe('mechanical breakages are repaired exactly', () => {
  it.each(repairCases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const result = healProgram(entry.code);
    expect(result.ok).toBe(true);
    expect(result.changed).toBe(true);
    expect(result.code).toBe(entry.expect.code);
    expect(result.repairs.map((repair) => repair.kind)).toEqual(entry.expect.repairs);
    expect(result.diagnostic).toBeUndefined();
  });
});

describe('refused programs are left alone with a diagnostic', () => {
  it.each(refusalCases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const result = healProgram(entry.code);
    expect(result.ok).toBe(false);
    expect(result.changed).toBe(false);
    expect(result.code).toBe(entry.code);
    expect(result.repairs).toEqual([]);
    expect(result.diagnostic?.message).toMatch(/not run|nothing was run/);
    if (entry.expect.diagnostic) expect(result.diagnostic?.kind).toBe(entry.expect.diagnostic);
    if (entry.expect.line !== undefined) expect(result.diagnostic?.line).toBe(entry.expect.line);
    if (entry.expect.column !== undefined) expect(result.diagnostic?.column).toBe(entry.expect.column);
  });
});

describe('specific promises', () => {
  it('never turns a Python f-string into a tagged template call of f', () => {
    const result = healProgram('const s = f"""total: {n}""";\nreturn s;');
    expect(result.code).not.toMatch(/f`/);
    expect(result.diagnostic?.kind).toBe('python-string-prefix');
  });

  it('says where a program was cut and that nothing ran (rm -rf cut mid-path is never closed and run)', () => {
    const code = "const r = await tools.bash({\n  command: 'rm -rf /srv/app/releases/2024";
    const result = healProgram(code);
    expect(result).toMatchObject({ ok: false, changed: false, code });
    expect(result.diagnostic).toMatchObject({ kind: 'truncated', line: 2, column: 42 });
    expect(result.diagnostic?.message).toContain('line 2, column 42');
    expect(result.diagnostic?.message).toContain('nothing was run');
  });

  it.each([
    [
      'a syntax error between two template literals',
      'const first = `a`[0];\nconst b = 1 +;\nconst c = `c`;\nreturn [first, b, c];',
    ],
    [
      'a broken tool call between two template literals',
      "const first = `abc`[0];\nawait tools.bash({ command: 'rm -rf /tmp/x' description: 'x' });\nconst c = `c`;",
    ],
    ['statements on one line', 'const first = `a`[0]; const b = 1 +; const c = `c`;'],
  ])('never escapes backticks so that code becomes string content: %s', (_name, code) => {
    const result = healProgram(code);
    expect(result).toMatchObject({ ok: false, changed: false, code });
    expect(result.diagnostic?.kind).toBe('syntax-error');
  });

  it.each([
    [
      'a return after the block',
      "const msg = `hello ${name}`;\nif (ok) {\n  await tools.write({ file_path: '/w/a', content: 'x' });\n\nreturn `done ${msg}`;",
    ],
    [
      'a doubled brace',
      "for (const f of ['a', 'b']) {{\n  await tools.bash({ command: `rm ${f}`, description: 'rm' });\n}\nreturn 'ok';",
    ],
  ])('never closes at the end a block whose closer went missing in the middle: %s', (_name, code) => {
    const result = healProgram(code);
    expect(result).toMatchObject({ ok: false, changed: false, code });
    expect(result.diagnostic?.kind).toBe('truncated');
    expect(result.diagnostic?.message).toContain('missing earlier in the program');
  });

  it.each([
    ['a tool call before the fence', 'await tools.bash(args)\n```js\nreturn 1\n```'],
    ['a bare call before the fence', 'deploy()\n```js\nreturn 1\n```'],
    ['a tool call after the closing fence', '```js\nreturn 1\n```\nawait tools.bash(args)'],
  ])('never drops a line of code around a fence as if it were prose: %s', (_name, code) => {
    const result = healProgram(code);
    expect(result.changed).toBe(false);
    expect(result.code).toBe(code);
  });

  it.each([
    ['prose with a parenthesis before', 'Here is the program (updated):\n```js\nreturn 1\n```'],
    ['prose with inline code after', '```js\nreturn 1\n```\nThis returns `1`.'],
  ])('still strips a fence with prose around it: %s', (_name, code) => {
    expect(healProgram(code)).toMatchObject({ ok: true, changed: true, code: 'return 1' });
  });

  it('maps diagnostic lines inside a fence back to the original program', () => {
    const result = healProgram('```js\nconst a = 1;\nawait tools.bash({ command: `ls ${dir');
    expect(result.diagnostic).toMatchObject({ kind: 'truncated', line: 3 });
  });

  it('strips a fence even though the fenced program compiles (tagged template)', () => {
    const result = healProgram('```js\nreturn 1;\n```');
    expect(result).toMatchObject({ ok: true, changed: true, code: 'return 1;' });
  });

  it('returns the same string object for valid input', () => {
    const code = 'return await tools.read({ file_path: "/w/a.txt" });\n';
    expect(Object.is(healProgram(code).code, code)).toBe(true);
  });
});

describe('shell command substitution that ends a template', () => {
  // The shape the healer missed (issue 25): the substitution's closing backtick is followed at once by the
  // template's own, so the two read as one run of backticks.
  it.each([
    [
      'const dir = "/w";\nconst out = await tools.bash({ command: `cd ${dir} && echo `pwd``, description: "d" });\nreturn out;',
      'const dir = "/w";\nconst out = await tools.bash({ command: `cd ${dir} && echo \\`pwd\\``, description: "d" });\nreturn out;',
    ],
    [
      'await tools.bash({ command: `git tag v`date +%Y.%m.%d``, description: "d" });',
      'await tools.bash({ command: `git tag v\\`date +%Y.%m.%d\\``, description: "d" });',
    ],
    [
      'await tools.bash({ command: `echo \\`date\\` and `uname -a``, description: "d" });',
      'await tools.bash({ command: `echo \\`date\\` and \\`uname -a\\``, description: "d" });',
    ],
  ])('%j is escaped, every other byte kept', (code, expected) => {
    const result = healProgram(code);
    expect(result).toMatchObject({ ok: true, changed: true, code: expected });
    expect(result.repairs.map((repair) => repair.kind)).toEqual(['template-escape']);
  });

  it('a fence inside a template still reads as content (a run of three backticks)', () => {
    const code = 'await tools.write({ file_path: "/w/a.md", content: `intro `x`\n```js\nx\n```\n` });';
    const result = healProgram(code);
    if (result.ok) expect(result.code).not.toBe(code);
    else expect(result.code).toBe(code);
  });
});

describe('shell text inside template literals (issue 25)', () => {
  it.each(shellTemplateCases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const result = healProgram(entry.code);
    expect({ ok: result.ok, changed: result.changed }).toEqual({ ok: entry.expect.ok, changed: entry.expect.changed });
    if (entry.expect.ok) {
      expect(result.code).toBe(entry.expect.code);
      expect(result.repairs.map((repair) => repair.kind)).toEqual(entry.expect.repairs);
      // Healing the healed program changes nothing.
      expect(healProgram(result.code)).toMatchObject({ ok: true, changed: false });
    } else {
      expect(result.code).toBe(entry.code);
      expect(result.diagnostic?.kind).toBe(entry.expect.diagnostic);
    }
  });

  it('the healed templates hold exactly the shell text the model typed', () => {
    // Run each healed template's value: what the shell (or the workflow runner) receives.
    const templateValue = (code: string): string => {
      const start = code.indexOf('`');
      const end = code.lastIndexOf('`');
      return new Function(`return ${code.slice(start, end + 1)};`)() as string;
    };
    const typed = (code: string): string => {
      const start = code.indexOf('`');
      const end = code.lastIndexOf('`');
      return code.slice(start + 1, end).replaceAll('\\n', '\n');
    };
    for (const entry of shellTemplateCases.filter((candidate) => candidate.expect.ok)) {
      expect(templateValue(entry.expect.code!)).toBe(typed(entry.code));
    }
  });

  it('a bare ${!x} is JavaScript (not x) and is not escaped', () => {
    const code = 'const done = false;\nawait tools.bash({ command: `echo ${!done} ${A:-1}`, description: "d" });';
    expect(healProgram(code)).toMatchObject({
      ok: true,
      code: 'const done = false;\nawait tools.bash({ command: `echo ${!done} \\${A:-1}`, description: "d" });',
    });
    const valid = 'const done = false;\nreturn `pending: ${!done}`;';
    expect(healProgram(valid)).toMatchObject({ ok: true, changed: false, code: valid });
  });
});
