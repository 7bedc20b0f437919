/**
 * compilesLikeHost reproduces the host's four compile steps. The captures are the real host's verdicts
 * (dsh-captures/code/c_g_*.json, c_ts_syntax_ok.json), copied here as the programs and what the host did.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { compilesLikeHost, stripBackend } from '../src/index.js';
import { setStripBackendForTesting } from '../src/host-compile.js';

/** Program -> did the real host's compile step accept it (captured with DSH rc.8 on Node 24). */
const CAPTURED = [
  { scenario: 'c_ts_syntax_ok', code: 'const x: number = 41; return x + 1;', hostCompiled: true },
  { scenario: 'c_g_markdown_fence', code: '```ts\nreturn 1;\n```', hostCompiled: true }, // fails only at run time: "" is not a function
  { scenario: 'c_g_python_triple_quote', code: 'const doc = """\nmulti-line\n""";\nreturn doc;', hostCompiled: false },
  { scenario: 'c_g_ts_enum', code: 'enum Color { Red }\nreturn Color.Red;', hostCompiled: false },
];

afterEach(() => setStripBackendForTesting(undefined));

describe.each(['automatic', 'babel-erase'] as const)('compilesLikeHost (%s backend)', (backend) => {
  const use = () => setStripBackendForTesting(backend === 'automatic' ? undefined : backend);

  it.each(CAPTURED.map((entry) => [entry.scenario, entry] as const))(
    'agrees with the captured host verdict: %s',
    (_name, entry) => {
      use();
      expect(compilesLikeHost(entry.code).ok).toBe(entry.hostCompiled);
    },
  );

  it('reports the host message for an enum', () => {
    use();
    expect(compilesLikeHost('enum Color { Red }\nreturn Color.Red;')).toMatchObject({
      ok: false,
      message: 'TypeScript enum is not supported in strip-only mode',
    });
  });

  it.each([
    ['strict mode rejects with', 'with (Math) { max(1, 2); }'],
    ['strict mode rejects a legacy octal literal', 'return 0755;'],
    ['const tools redeclares a parameter', 'const tools = 1;'],
    ['let console redeclares a parameter', 'let console = 1;'],
    ['a body that closes the wrapper early', 'return 1;\n}\n{'],
    ['import in a function body', "import fs from 'fs';"],
    ['parameter property', 'class A { constructor(public x: number) {} }'],
    ['angle-bracket assertion', 'const n = <number>x;'],
    ['runtime namespace', 'namespace N { export const a = 1 }'],
  ])('refuses: %s', (_name, code) => {
    use();
    expect(compilesLikeHost(code).ok).toBe(false);
  });

  it.each([
    ['top-level await and return', 'const r = await tools.read({ file_path: "/a" });\nreturn r;'],
    [
      'ToolCallError and console are in scope',
      'try { await tools.bash({}); } catch (e) { if (e instanceof ToolCallError) console.log(e.message); }',
    ],
    [
      'erasable TypeScript',
      'type T = { a: number };\ninterface I { b?: string }\nconst v = { a: 1 } satisfies T;\nfunction f(this: unknown, x?: number): void {}\nreturn (v as T).a!;',
    ],
    [
      'type-only namespace and declare',
      'namespace N { export type K = 1 }\ndeclare const X: number;\ndeclare enum E { A }\nreturn 1;',
    ],
    [
      'class with modifiers, optional and definite members',
      'class B {}\nabstract class A<T> extends B implements I { private readonly a?: number; b!: string; protected abstract m(): void; override toString(): string { return ""; } }',
    ],
    ['generic call and arrow', 'const id = <T,>(x: T): T => x;\nreturn id<number>(1);'],
  ])('accepts: %s', (_name, code) => {
    use();
    expect(compilesLikeHost(code)).toEqual({ ok: true });
  });

  it('places a syntax error at a 1-based line and column of the program', () => {
    use();
    const verdict = compilesLikeHost('const a = 1;\nconst b = ;');
    expect(verdict).toMatchObject({ ok: false, line: 2, column: 11 });
  });
});

it('names its backend', () => {
  expect(['node-strip-types', 'babel-erase']).toContain(stripBackend());
});
