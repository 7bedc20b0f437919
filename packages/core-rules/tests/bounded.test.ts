/**
 * The bounded engine (issue 21): normalizeCall, planRecovery and healProgram never throw (options that are a Proxy,
 * hostile getters), answer inputs over the bound at once with a reason, finish crafted inputs up to 1 MB (generous
 * hang bounds here; the figures are in bench/bounded.bench.mjs), and a schema `pattern` with catastrophic
 * backtracking is matched in linear time.
 */
import { healProgram } from '@dsh-tool-normalizer/syntax-healer';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_CHARS, normalizeCall, planRecovery } from '../src/index.js';
import type { Environment, ToolCall } from '../src/types.js';
import { codeEnv, nativeEnv } from './fixtures.js';
import { cpuTimed } from '../../../vitest.shared.js';

/** A Proxy whose every read throws (and whose own keys cannot be listed). */
const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('hostile get');
    },
    ownKeys() {
      throw new Error('hostile keys');
    },
    has() {
      throw new Error('hostile has');
    },
  },
);

function program(size: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < size; index++) {
    const line = `const r${index} = await tools.read({ file_path: "/w/f${index}.ts", limit: 50 });`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

describe('hostile options never throw', () => {
  it('healProgram with Proxy options answers like the defaults', () => {
    const code = '```js\nreturn 1;\n```';
    expect(healProgram(code, hostile as never)).toEqual(healProgram(code));
  });

  it('normalizeCall with Proxy toggles, environment or call answers unchanged or repaired, never throws', () => {
    const call: ToolCall = { name: 'bash', arguments: { command: 'ls' } };
    expect(() => normalizeCall(call, nativeEnv, hostile as never)).not.toThrow();
    // A switch that cannot be read is off: nothing is repaired under it.
    expect(normalizeCall(call, nativeEnv, hostile as never).changed).toBe(false);
    expect(normalizeCall(call, hostile as Environment).changed).toBe(false);
    expect(normalizeCall(hostile as ToolCall, nativeEnv).changed).toBe(false);
    expect(normalizeCall({ name: 'bash', arguments: hostile }, nativeEnv).changed).toBe(false);
  });

  it('planRecovery with Proxy options, result or arguments returns a plan or nothing, never throws', () => {
    const call: ToolCall = { name: 'bash', arguments: { cmd: 'ls', description: 'List' } };
    const error = { isError: true, error: { message: 'invalid arguments: missing required property "command"' } };
    expect(() => planRecovery(call, error, nativeEnv, hostile as never)).not.toThrow();
    expect(planRecovery(call, hostile as never, nativeEnv)).toBeUndefined();
    expect(planRecovery({ name: 'bash', arguments: hostile }, error, nativeEnv)).toBeUndefined();
  });
});

describe('input over the bound is left to the host at once, with a reason', () => {
  it.each([
    ['a 10 MB fenced program', { name: 'run_code', arguments: { code: `\`\`\`js\n${'x'.repeat(10e6)}\n\`\`\`` } }],
    ['a 10 MB argument text', { name: 'bash', arguments: JSON.stringify({ command: 'a'.repeat(10e6) }) }],
    [
      'an object with 150,000 keys',
      { name: 'bash', arguments: Object.fromEntries(Array.from({ length: 1.5e5 }, (_, i) => [`k${i}`, 1])) },
    ],
  ])('%s', (_what, call) => {
    const env = call.name === 'run_code' ? codeEnv : nativeEnv;
    const { value, ms } = cpuTimed(() => normalizeCall(call as ToolCall, env));
    expect(value.changed).toBe(false);
    expect(value.call).toBe(call);
    expect(value.reason).toMatch(/larger than 1024 KiB are left to the host/);
    expect(ms).toBeLessThan(5000); // a hang bound: listing 150,000 keys is V8's own cost
  });

  it('a recovery for an error message over the bound is not planned', () => {
    const error = { isError: true, error: { message: `invalid arguments: ${'x'.repeat(MAX_INPUT_CHARS + 1)}` } };
    expect(planRecovery({ name: 'bash', arguments: { cmd: 'ls' } }, error, nativeEnv)).toBeUndefined();
  });
});

describe('crafted inputs up to 1 MB finish (hang bound: 2 s each)', () => {
  const cases: [string, ToolCall, Environment][] = [
    [
      'a 1 MB fenced program',
      { name: 'run_code', arguments: { code: `\`\`\`js\n${program(1e6)}\n\`\`\``, description: 'd' } },
      codeEnv,
    ],
    [
      'a 200 KB fenced program (lazily checked, repaired)',
      { name: 'run_code', arguments: { code: `\`\`\`js\n${program(2e5)}\n\`\`\``, description: 'd' } },
      codeEnv,
    ],
    [
      'a 1 MB broken program',
      { name: 'run_code', arguments: { code: `${program(1e6)}\nconst t = \`abc`, description: 'd' } },
      codeEnv,
    ],
    [
      'a 60 KB broken program (repairs tried)',
      { name: 'run_code', arguments: { code: `${program(6e4)}\nconst t = "abc`, description: 'd' } },
      codeEnv,
    ],
    ['10,000 backticks', { name: 'run_code', arguments: { code: '`'.repeat(10_000), description: 'd' } }, codeEnv],
    [
      '1 MB of JSON argument text',
      { name: 'bash', arguments: JSON.stringify({ command: `echo ${'a'.repeat(1e6 - 100)}` }) },
      nativeEnv,
    ],
    [
      '60 KB of near-JSON',
      { name: 'bash', arguments: `{command: 'echo ${'a'.repeat(6e4)}', description: 'x',}` },
      nativeEnv,
    ],
  ];
  it.each(cases)('%s', (_what, call, env) => {
    const { ms } = cpuTimed(() => normalizeCall(call, env));
    expect(ms).toBeLessThan(2000);
  });

  it('a 200 KB fenced program is repaired through the lazy check (no quadratic compile)', () => {
    const code = `\`\`\`js\n${program(2e5)}\n\`\`\``;
    const result = healProgram(code);
    expect(result.changed).toBe(true);
    expect(result.repairs[0]?.kind).toBe('strip-fence');
  });
});

describe('the lazy compile check agrees with the host on what it cannot see directly', () => {
  const padding = Array.from({ length: 6000 }, (_, index) => `const pad${index} = ${index};\n`).join(''); // past the eager-compile size
  it.each([
    ['a body that closes its function early and opens another', `${padding}}\nasync function again() {`],
    ['a body that closes early with an expression after it', `${padding}} && (async function () {`],
    ['a redeclared host parameter', `${padding}let tools = 1;`],
    ['a raw newline in a string', `${padding}const s = "a\nb";`],
  ])('%s is refused', (_what, code) => {
    expect(healProgram(code).ok).toBe(false);
  });

  it.each([
    ['plain statements', `${padding}return pad1;`],
    ['a nested function with its own braces', `${padding}function f() { return { a: 1 }; }\nreturn f();`],
  ])('%s are accepted', (_what, code) => {
    expect(healProgram(code)).toMatchObject({ ok: true, changed: false });
  });
});

describe('a schema pattern is matched in linear time', () => {
  const evil = {
    name: 'lookup',
    parameters: {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^(a+)+$' }, n: { type: 'integer' } },
      required: ['id'],
    },
  };
  const env: Environment = { tools: [evil], mode: 'native' };

  it.each([30, 1000, 100_000])('^(a+)+$ against %i a\'s and a "!" answers at once', (size) => {
    const call = { name: 'lookup', arguments: { id: `${'a'.repeat(size)}!`, n: '5' } };
    const { value, ms } = cpuTimed(() => normalizeCall(call, env));
    expect(value.changed).toBe(false);
    expect(value.reason).toMatch(/must match pattern/);
    expect(ms).toBeLessThan(1000);
  });

  it('a text over 256 KiB under a pattern is not judged: the call goes to the host as sent', () => {
    const call = { name: 'lookup', arguments: { id: 'a'.repeat(300_000), n: '5' } };
    const result = normalizeCall(call, env);
    expect(result.call).toBe(call);
    expect(result.reason).toMatch(/not matched against a pattern/);
  });

  it('a call that matches the pattern is still repaired', () => {
    const result = normalizeCall({ name: 'lookup', arguments: { id: 'aaaa', n: '5' } }, env);
    expect(result.changed).toBe(true);
    expect(result.call.arguments).toEqual({ id: 'aaaa', n: 5 });
  });

  it.each([
    ['a lookahead', '^(?=a)a+$'],
    ['a backreference', '^(a)\\1$'],
  ])('a schema with %s (no linear-time match) is unsupported: nothing is repaired against it', (_what, pattern) => {
    const tool = {
      name: 't',
      parameters: { type: 'object', properties: { id: { type: 'string', pattern }, n: { type: 'integer' } } },
    };
    const call = { name: 't', arguments: { id: 'aa', n: '5' } };
    const result = normalizeCall(call, { tools: [tool], mode: 'native' });
    expect(result.call).toBe(call);
    expect(result.reason).toMatch(/schema not supported/);
  });

  it('a property named "pattern" is a property, not a keyword', () => {
    const tool = {
      name: 'grep',
      parameters: {
        type: 'object',
        properties: { pattern: { type: 'string' }, n: { type: 'integer' } },
        required: ['pattern'],
      },
    };
    const result = normalizeCall(
      { name: 'grep', arguments: { pattern: '(a+)+', n: '2' } },
      { tools: [tool], mode: 'native' },
    );
    expect(result.call.arguments).toEqual({ pattern: '(a+)+', n: 2 });
  });
});
