/**
 * A healed triple-quoted string must hold the value Python gives the same text. Python keeps the backslash of an
 * unknown escape (`\d`, `\U` in `C:\Users`), a template literal drops it; `\a`, octal and `\U0001F600` differ too.
 * Reference values come from python3 itself; the healed programs are run by a child Node. Either side missing skips.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { healProgram } from '../src/index.js';

/** Triple-quoted string sources as a model writes them (each inside `"""…"""` and `'''…'''`). */
const CONTENTS = [
  'C:\\Users\\me\\proj', // Python rejects \U not followed by 8 hex digits: refused
  'D:\\work\\proj\\src',
  '\\d+\\.\\d+',
  "sed -i 's/\\./,/g' f",
  'grep -E "^\\s*#" file',
  'line one\\nline two\\ttab',
  'bell\\a, octal \\101\\0 and \\7, hex \\x41, \\u00e9, \\U0001F600',
  'quotes \\" and \\\' and \\\\ backslash',
  'continued \\\nline',
  'a `code` span and ${HOME} and \\` and \\${x} and \\$',
  'unknown \\q \\8 \\9 \\c \\N',
  '\nmulti\n  line\n',
];

function pythonValues(sources: string[]): (string | null)[] | undefined {
  const script =
    'import json, sys, warnings\nwarnings.simplefilter("ignore")\nout = []\nfor s in json.load(sys.stdin):\n    try:\n        out.append(eval(s))\n    except SyntaxError:\n        out.append(None)\nprint(json.dumps(out))';
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(sources), encoding: 'utf8' });
  return run.status === 0 ? JSON.parse(run.stdout) : undefined;
}

function nodeValues(programs: string[]): unknown[] {
  const script = `const AsyncFunction = (async () => {}).constructor;
let input = ''; process.stdin.on('data', (d) => (input += d)).on('end', async () => {
  const out = [];
  for (const code of JSON.parse(input)) out.push(await new AsyncFunction(code)());
  process.stdout.write(JSON.stringify(out));
});`;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script], { input: JSON.stringify(programs), encoding: 'utf8' }),
  );
}

const python = pythonValues(['"""x"""']);

describe.skipIf(!python)("python-triple-quote keeps Python's string value", () => {
  it('every healed literal evaluates to the value python3 gives the same text', () => {
    const sources: string[] = [];
    for (const content of CONTENTS)
      for (const quote of ['"""', "'''"])
        if (!content.includes(quote[0]!.repeat(3))) sources.push(quote + content + quote);
    const expected = pythonValues(sources)!;
    const healed: string[] = [];
    const healedExpected: string[] = [];
    sources.forEach((source, index) => {
      const result = healProgram(`const p = ${source};\nreturn p;`);
      if (expected[index] === null) {
        // Python rejects the text itself: nothing may be guessed.
        expect(result.ok, source).toBe(false);
        return;
      }
      expect(result.ok, source).toBe(true);
      expect(
        result.repairs.map((repair) => repair.kind),
        source,
      ).toEqual(['python-triple-quote']);
      healed.push(result.code);
      healedExpected.push(expected[index]!);
    });
    expect(healed.length).toBeGreaterThan(15);
    expect(nodeValues(healed)).toEqual(healedExpected);
  });

  it('refuses what it cannot map exactly (\\N{name}) and what Python itself rejects (\\x4)', () => {
    for (const source of ['"""\\N{BULLET} item"""', '"""\\x4g"""', '"""\\u12"""']) {
      const result = healProgram(`const p = ${source};\nreturn p;`);
      expect(result.ok, source).toBe(false);
      expect(result.code).toBe(`const p = ${source};\nreturn p;`);
    }
  });
});
