/**
 * Must-holds: valid calls come back as the same object (property tests over realistic valid calls), bad
 * input never throws out of a public function, and the engine is deterministic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendHint, classifyResult, hintFor, normalizeCall, planRecovery, trimStackTrace } from '../src/index.js';
import { codeEnv, nativeEnv, nestedEnv } from './fixtures.js';
import type { Environment, ToolCall, ToolResultLike } from '../src/types.js';

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((value) => value.trim() !== '');
const absolutePath = fc
  .array(
    fc.stringMatching(/^[a-zA-Z0-9_.-]{1,12}$/).filter((part) => part !== '.' && part !== '..'),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => `/${parts.join('/')}`);

const validNativeCall: fc.Arbitrary<ToolCall> = fc.oneof(
  fc
    .record({ command: text, description: text }, { requiredKeys: ['command', 'description'] })
    .map((args) => ({ name: 'bash', arguments: args })),
  fc
    .record(
      {
        file_path: fc.oneof(absolutePath, text),
        offset: fc.integer({ min: 1, max: 500 }),
        limit: fc.integer({ min: 1, max: 2000 }),
      },
      { requiredKeys: ['file_path'] },
    )
    .map((args) => ({ name: 'read', arguments: args })),
  fc.record({ file_path: text, content: fc.string() }).map((args) => ({ name: 'write', arguments: args })),
  fc
    .record(
      { file_path: text, old_string: fc.string(), new_string: fc.string(), replace_all: fc.boolean() },
      { requiredKeys: ['file_path', 'old_string', 'new_string'] },
    )
    .map((args) => ({ name: 'edit', arguments: args })),
  fc
    .record({ pattern: text, path: text, include: text }, { requiredKeys: ['pattern'] })
    .map((args) => ({ name: 'grep', arguments: args })),
  fc
    .record({ pattern: text, path: text }, { requiredKeys: ['pattern'] })
    .map((args) => ({ name: 'glob', arguments: args })),
  fc
    .tuple(absolutePath, fc.integer({ min: 1, max: 100 }), fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 100 })))
    .map(([path, start, span]) => ({
      name: 'str_replace_editor',
      arguments: { command: 'view', path, view_range: [start, span === -1 ? -1 : start + span] },
    })),
  fc
    .record({ path: absolutePath, old_str: fc.string(), new_str: fc.string() })
    .map((args) => ({ name: 'str_replace_editor', arguments: { command: 'str_replace', ...args } })),
);

const validProgram = fc.oneof(
  fc.constantFrom(
    'return 1;',
    'const x: number = 41;\nreturn x + 1;',
    'const r = await tools.read({ file_path: "/workspace/a.ts" });\nreturn r.totalLines;',
    'const out = await tools.bash({ command: "ls", description: "List files" });\nreturn out.stdout.text;',
    'for (const f of ["a", "b"]) {\n  console.log(f);\n}\n',
    'try { await tools.edit({ file_path: "/a", old_string: "x", new_string: "y" }); } catch (e) { return String(e); }',
  ),
  text.map((value) => `return ${JSON.stringify(value)};`),
);

describe('valid calls come back as the same object', () => {
  it('native calls', () => {
    fc.assert(
      fc.property(validNativeCall, (call) => {
        const result = normalizeCall(call, nativeEnv);
        return result.call === call && !result.changed && result.receipts.length === 0;
      }),
      { numRuns: 500 },
    );
  });

  it('nested Code Mode sub-calls', () => {
    fc.assert(
      fc.property(validNativeCall, (call) => normalizeCall(call, nestedEnv).call === call),
      { numRuns: 200 },
    );
  });

  it('run_code calls (with any whitespace, CRLF or trailing newline kept)', () => {
    fc.assert(
      fc.property(validProgram, text, fc.constantFrom('', '\n', '\r\n', '  \n'), (program, description, tail) => {
        const call: ToolCall = {
          name: 'run_code',
          arguments: { code: program.replace(/\n/g, tail.includes('\r') ? '\r\n' : '\n') + tail, description },
        };
        const result = normalizeCall(call, codeEnv);
        return result.call === call && result.receipts.length === 0;
      }),
      { numRuns: 200 },
    );
  });

  it('JSON-string arguments of valid calls', () => {
    fc.assert(
      fc.property(validNativeCall, (call) => {
        const wire = { name: call.name, arguments: JSON.stringify(call.arguments) };
        return normalizeCall(wire, nativeEnv).call === wire;
      }),
      { numRuns: 200 },
    );
  });
});

describe('repairs are idempotent and deterministic', () => {
  const broken: ToolCall[] = [
    { name: 'bash', arguments: { command: 'ls' } },
    { name: 'bash', arguments: { cmd: 'ls', description: 'x' } },
    { name: 'str_replace_editor', arguments: { command: 'view', path: 'a.txt', view_range: [9, 2] } },
    { name: 'run_code', arguments: { command: 'ls' } },
    { name: 'run_code', arguments: { code: '```js\nreturn await tools.bash({ command: "pwd" });\n```' } },
  ];
  it.each(broken.map((call) => [call.name, call]))(
    '%s: normalizing the result again changes nothing; same input, same output',
    (_name, call) => {
      const env: Environment = call.name === 'run_code' ? codeEnv : nativeEnv;
      const first = normalizeCall(call, env);
      expect(first.changed).toBe(true);
      expect(normalizeCall(call, env)).toEqual(first);
      const second = normalizeCall(first.call, env);
      expect(second.changed).toBe(false);
      expect(second.call).toBe(first.call);
    },
  );
});

describe('bad input never throws', () => {
  const cyclic: Record<string, unknown> = { command: 'ls' };
  cyclic.self = cyclic;
  const huge = 'x'.repeat(10 * 1024 * 1024);
  const calls: unknown[] = [
    null,
    undefined,
    42,
    'bash',
    [],
    { name: 'bash' },
    { name: 'bash', arguments: null },
    { name: 'bash', arguments: [] },
    { name: 'bash', arguments: cyclic },
    { name: 'run_code', arguments: cyclic },
    { name: 'read', arguments: { file_path: cyclic } },
    { name: 'bash', arguments: huge },
    { name: 'run_code', arguments: { code: huge, description: 'big' } },
    { name: 'run_code', arguments: { code: '`'.repeat(200) } },
    { name: 'run_code', arguments: { command: huge } },
    { name: 'str_replace_editor', arguments: { command: 'view', path: huge } },
    { name: 'nope', arguments: {} },
    { name: 7, arguments: {} },
  ];
  const weirdTool = (parameters: unknown) => ({ tools: [{ name: 'weird', parameters }], mode: 'native' as const });
  const envs: unknown[] = [
    nativeEnv,
    codeEnv,
    null,
    {},
    { tools: null, mode: 'code' },
    { tools: [null, 3, { name: 'bash' }], mode: 'code' },
    weirdTool({ $ref: '#/definitions/missing' }),
    weirdTool({
      anyOf: [
        { type: 'object', required: ['a'] },
        { type: 'object', required: ['b'] },
      ],
    }),
  ];
  const result: ToolResultLike = {
    isError: true,
    error: {
      message: 'code run failed (exception): x\n    at y (/node_modules/.pnpm/z.js:1:1)',
      info: { code: 'CODE_RUN_FAILED' },
    },
  };

  it('normalizeCall answers unchanged with a reason', () => {
    for (const call of calls) {
      for (const env of envs) {
        const answer = normalizeCall(call as ToolCall, env as Environment);
        if (!answer.changed) {
          expect(answer.call).toBe(call);
          expect(typeof answer.reason).toBe('string');
          expect(answer.reason!.length).toBeLessThanOrEqual(300);
        }
      }
    }
  });

  it('weird-schema tools are checked without throwing', () => {
    const call = { name: 'weird', arguments: { a: 1 } };
    expect(
      normalizeCall(
        call,
        weirdTool({
          anyOf: [
            { type: 'object', required: ['a'] },
            { type: 'object', required: ['b'] },
          ],
        }) as Environment,
      ).call,
    ).toBe(call);
    expect(normalizeCall(call, weirdTool({ $ref: '#/definitions/missing' }) as Environment).changed).toBe(false);
  });

  it('planRecovery, classifyResult, hintFor, appendHint, trimStackTrace', () => {
    for (const call of calls) {
      for (const env of envs) {
        expect(() => planRecovery(call as ToolCall, result, env as Environment)).not.toThrow();
        expect(() => hintFor(call as ToolCall, result, env as Environment)).not.toThrow();
      }
      expect(() => classifyResult(call as ToolCall, result)).not.toThrow();
    }
    expect(appendHint(huge, 'Hint: x.').startsWith(huge)).toBe(true);
    expect(trimStackTrace(huge)).toBe(huge);
    expect(trimStackTrace(undefined as never)).toBe(undefined);
  });
});
