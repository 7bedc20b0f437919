/** str_replace_editor path and view_range rules, argument unwrapping, and Code Mode bridging. */
import { compilesLikeHost } from '@dsh-tool-normalizer/syntax-healer';
import { describe, expect, it } from 'vitest';
import { normalizeCall } from '../src/index.js';
import { codeEnv, nativeEnv, nestedEnv } from './fixtures.js';
import type { ToolCall } from '../src/types.js';

function view(extra: Record<string, unknown>): ToolCall {
  return { name: 'str_replace_editor', arguments: { command: 'view', path: '/workspace/fixture.txt', ...extra } };
}

describe('view_range', () => {
  const repaired: [unknown, number[]][] = [
    [
      [10, 5],
      [5, 10],
    ],
    [[7], [7, 7]],
    [
      ['3', '9'],
      [3, 9],
    ],
    [
      [0, 4],
      [1, 4],
    ],
    [
      [0, -1],
      [1, -1],
    ],
    ['[2, 6]', [2, 6]],
    ['1,20', [1, 20]],
    ['1, -1', [1, -1]],
    ['1-20', [1, 20]],
    ['12', [12, 12]],
    [{ start: 3, end: 8 }, [3, 8]],
    [{ start: '3', end: '8' }, [3, 8]],
  ];
  it.each(repaired)('%j -> %j', (range, expected) => {
    const result = normalizeCall(view({ view_range: range }), nativeEnv);
    expect(result.changed).toBe(true);
    expect((result.call.arguments as Record<string, unknown>).view_range).toEqual(expected);
    expect(result.receipts.map((receipt) => receipt.ruleId)).toEqual(['editor.view-range-shape']);
  });

  // A negative start is never clamped: [-5, -1] means the last five lines to a model, not the whole file.
  const untouched: unknown[] = [
    [1, 2],
    [8, -1],
    [5, 5],
    [50, 60],
    [5, 0],
    [1, 2, 3],
    [],
    ['a', 2],
    [1.5, 2],
    [0],
    [-5, -1],
    [-2, 4],
    '-5,-1',
    '-5',
    { start: -5, end: -1 },
    { start: 1 },
    { start: 1, end: 2, step: 1 },
    '1..20',
  ];
  it.each(untouched.map((range) => [range]))('%j is left alone', (range) => {
    const call = view({ view_range: range });
    const result = normalizeCall(call, nativeEnv);
    expect(result.call).toBe(call);
  });

  it('view_range on another command is not the editor view check', () => {
    const call: ToolCall = {
      name: 'str_replace_editor',
      arguments: { command: 'create', path: '/workspace/a.txt', file_text: 'x', view_range: [9, 1] },
    };
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
  });
});

describe('editor paths', () => {
  it('relative paths inside the workspace are made absolute', () => {
    for (const [path, expected] of [
      ['fixture.txt', '/workspace/fixture.txt'],
      ['./docs/guide.md', '/workspace/docs/guide.md'],
      ['src/../lib/a.ts', '/workspace/lib/a.ts'],
      ['.', '/workspace'],
    ]) {
      const result = normalizeCall({ name: 'str_replace_editor', arguments: { command: 'view', path } }, nativeEnv);
      expect((result.call.arguments as Record<string, unknown>).path).toBe(expected);
    }
  });

  it('paths escaping the workspace, home-relative paths, and any relative path without a cwd are not resolved', () => {
    for (const [path, cwd] of [
      ['../../etc/passwd', '/workspace'],
      ['a/../../secret', '/workspace'],
      ['~/notes.txt', '/workspace'],
      ['dir\\file.txt', '/workspace'],
      ['fixture.txt', undefined],
      ['fixture.txt', 'relative/cwd'],
    ]) {
      const call: ToolCall = { name: 'str_replace_editor', arguments: { command: 'view', path } };
      const result = normalizeCall(call, { ...nativeEnv, cwd });
      expect({ path, same: result.call === call }).toEqual({ path, same: true });
    }
  });

  it('read, write and edit relative paths are not touched (the host resolves them itself)', () => {
    for (const call of [
      { name: 'read', arguments: { file_path: 'fixture.txt' } },
      { name: 'write', arguments: { file_path: 'out.txt', content: 'x' } },
      { name: 'edit', arguments: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } },
    ]) {
      expect(normalizeCall(call, nativeEnv).call).toBe(call);
    }
  });

  it('the switch turns editor rules off', () => {
    const call: ToolCall = { name: 'str_replace_editor', arguments: { command: 'view', path: 'fixture.txt' } };
    expect(normalizeCall(call, nativeEnv, { autoClampRanges: false }).call).toBe(call);
  });
});

describe('argument encodings', () => {
  it('the JSON string wire form of a valid call is not a repair', () => {
    const call: ToolCall = { name: 'bash', arguments: '{"command":"ls","description":"List files"}' };
    const result = normalizeCall(call, nativeEnv);
    expect(result.call).toBe(call);
    expect(result.receipts).toEqual([]);
  });

  it('a JSON string that needs a repair comes back as a plain object', () => {
    const result = normalizeCall({ name: 'bash', arguments: '{"command":"ls"}' }, nativeEnv);
    expect(result.call.arguments).toEqual({ command: 'ls', description: 'Run: ls' });
  });

  it('double-encoded and fenced arguments are unwrapped when the object passes', () => {
    const inner = { file_path: '/workspace/a.txt', limit: 3 };
    const double = normalizeCall({ name: 'read', arguments: JSON.stringify(JSON.stringify(inner)) }, nativeEnv);
    expect(double.call.arguments).toEqual(inner);
    expect(double.receipts.map((receipt) => receipt.ruleId)).toEqual(['args.unwrap-double-encoded']);
    const fenced = normalizeCall({ name: 'read', arguments: '```json\n' + JSON.stringify(inner) + '\n```' }, nativeEnv);
    expect(fenced.call.arguments).toEqual(inner);
    expect(fenced.receipts.map((receipt) => receipt.ruleId)).toEqual(['args.unwrap-fenced-json']);
  });

  it('unwrapped objects that still fail and cannot be repaired are left alone', () => {
    const call: ToolCall = { name: 'read', arguments: JSON.stringify(JSON.stringify({ limit: 3 })) };
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
    const python: ToolCall = { name: 'read', arguments: '```python\n{"file_path": "/a"}\n```' };
    expect(normalizeCall(python, nativeEnv).call).toBe(python);
  });
});

describe('Code Mode bridging', () => {
  it('a direct bash call without description is repaired, then bridged; the program compiles', () => {
    const result = normalizeCall({ name: 'bash', arguments: { command: 'ls -la' } }, codeEnv);
    expect(result.call).toEqual({
      name: 'run_code',
      arguments: {
        code: 'return await tools["bash"]({"command":"ls -la","description":"Run: ls -la"});',
        description: 'Run: ls -la',
      },
    });
    expect(result.receipts.map((receipt) => receipt.ruleId)).toEqual([
      'args.fill-description',
      'code.bridge-direct-call',
    ]);
    expect(compilesLikeHost((result.call.arguments as Record<string, string>).code as string)).toEqual({ ok: true });
  });

  it('a direct editor call with a relative path is resolved inside the bridged program', () => {
    const result = normalizeCall(
      { name: 'str_replace_editor', arguments: { command: 'view', path: 'fixture.txt' } },
      codeEnv,
    );
    expect((result.call.arguments as Record<string, string>).code).toBe(
      'return await tools["str_replace_editor"]({"command":"view","path":"/workspace/fixture.txt"});',
    );
  });

  it('is not applied to nested calls, in native or both modes, to unregistered names, or when the args cannot pass', () => {
    const read: ToolCall = { name: 'read', arguments: { file_path: '/workspace/a.txt' } };
    expect(normalizeCall(read, nestedEnv).call).toBe(read);
    expect(normalizeCall(read, nativeEnv).call).toBe(read);
    expect(normalizeCall(read, { ...codeEnv, mode: 'both' }).call).toBe(read);
    const unregistered: ToolCall = { name: 'read_file', arguments: { path: '/workspace/a.txt' } };
    expect(normalizeCall(unregistered, codeEnv).call).toBe(unregistered);
    const invalid: ToolCall = { name: 'read', arguments: { offset: 3 } };
    const result = normalizeCall(invalid, codeEnv);
    expect(result.call).toBe(invalid);
    expect(result.reason).toMatch(/not bridged: .*missing required property "file_path"/);
  });

  it('is not applied when run_code is not offered or the switch is off', () => {
    const read: ToolCall = { name: 'read', arguments: { file_path: '/workspace/a.txt' } };
    expect(
      normalizeCall(read, { ...codeEnv, tools: codeEnv.tools.filter((tool) => tool.name !== 'run_code') }).call,
    ).toBe(read);
    expect(normalizeCall(read, codeEnv, { autoBridgeDirectTools: false }).call).toBe(read);
  });
});
