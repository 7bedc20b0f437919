/**
 * Shapes DeepSeek served by vLLM or SGLang sends when their tool parser misses its DSML markup, and NUL bytes in
 * arguments, written from the public reports (vllm-project/vllm #53227, #48931, #45877, #48367 and PR #54686;
 * sgl-project/sglang #35736; charmbracelet/crush #2776). Each repair is validate-gated: valid arguments, including
 * strings that merely mention DSML, are never touched.
 */
import { describe, expect, it } from 'vitest';
import { hostViolations, normalizeCall } from '../src/index.js';
import type { ToolCall } from '../src/types.js';
import { nativeEnv, nativeTools } from './fixtures.js';

const D = '｜DSML｜';
const schemaOf = (name: string) => nativeTools.find((tool) => tool.name === name);

describe('DSML markup leaked into arguments', () => {
  it.each<[string, string, Record<string, unknown>]>([
    [
      'a closing parameter tag after the JSON object',
      `{"command": "pwd", "description": "Print the working directory"}</${D}parameter>`,
      { command: 'pwd', description: 'Print the working directory' },
    ],
    [
      'parameters instead of JSON (string="true" text, string="false" JSON)',
      `<${D}parameter name="file_path" string="true">/workspace/a.txt</${D}parameter>\n<${D}parameter name="limit" string="false">20</${D}parameter>`,
      { file_path: '/workspace/a.txt', limit: 20 },
    ],
    [
      'a whole invoke block in the arguments',
      `<${D}invoke name="bash">\n<${D}parameter name="command" string="true">ls -la</${D}parameter>\n<${D}parameter name="description" string="true">List files</${D}parameter>\n</${D}invoke>`,
      { command: 'ls -la', description: 'List files' },
    ],
  ])('%s is read as the JSON it stands for', (_what, text, expected) => {
    const name = 'file_path' in expected ? 'read' : 'bash';
    const result = normalizeCall({ name, arguments: text }, nativeEnv);
    expect(result.changed, result.reason).toBe(true);
    expect(result.call.arguments).toEqual(expected);
    expect(result.receipts.map((receipt) => receipt.ruleId)).toContain('args.strip-dsml-markup');
  });

  it.each<[string, ToolCall]>([
    [
      'valid JSON whose value mentions a DSML tag',
      { name: 'bash', arguments: `{"command": "echo '</${D}parameter>'", "description": "Echo"}` },
    ],
    [
      'a repeated parameter name',
      {
        name: 'bash',
        arguments: `<${D}parameter name="command" string="true">a</${D}parameter><${D}parameter name="command" string="true">b</${D}parameter>`,
      },
    ],
    [
      'text outside the parameters',
      { name: 'bash', arguments: `run this: <${D}parameter name="command" string="true">pwd</${D}parameter>` },
    ],
    [
      'a string="false" value that is not JSON',
      { name: 'read', arguments: `<${D}parameter name="file_path" string="false">/a</${D}parameter>` },
    ],
  ])('%s is left alone', (_what, call) => {
    expect(normalizeCall(call, nativeEnv).call).toBe(call);
  });
});

describe('NUL bytes in arguments', () => {
  it.each<[string, ToolCall, Record<string, unknown>]>([
    [
      'after a bash command',
      { name: 'bash', arguments: { command: 'pwd\u0000\u0000', description: 'Print cwd' } },
      { command: 'pwd' },
    ],
    [
      'before a read path',
      { name: 'read', arguments: { file_path: '\u0000/workspace/a.txt' } },
      { file_path: '/workspace/a.txt' },
    ],
    [
      'in JSON text, escaped',
      { name: 'read', arguments: '{"file_path": "/workspace/a.txt\\u0000"}' },
      { file_path: '/workspace/a.txt' },
    ],
  ])('at the edge of a command or path (%s) are dropped', (_what, call, expected) => {
    const result = normalizeCall(call, nativeEnv);
    expect(result.changed, result.reason).toBe(true);
    expect(result.call.arguments).toMatchObject(expected);
    expect(
      hostViolations(schemaOf(result.call.name) as never, result.call.arguments as Record<string, unknown>),
    ).toEqual([]);
  });

  it.each<[string, ToolCall]>([
    [
      'inside a command (dropping it would join two words)',
      { name: 'bash', arguments: { command: 'rm a\u0000b', description: 'Remove' } },
    ],
    [
      'in file content (data, not a system call)',
      { name: 'write', arguments: { file_path: '/w/a.bin', content: 'a\u0000b' } },
    ],
    ['a path that is only NULs', { name: 'read', arguments: { file_path: '\u0000\u0000' } }],
  ])('%s are left to the host', (_what, call) => {
    const result = normalizeCall(call, nativeEnv);
    expect(result.call).toBe(call);
  });
});
