/**
 * The schema reading (src/rules/schema-reading.ts) inside DeepSeek Harness: an MCP server's tool registered by DSH's
 * own MCP client (`mcp__<server>__<tool>`, arguments forwarded unchecked) is read through `normalizeCall` like any tool,
 * natively and inside a Code Mode program, with the same two-candidates rule; and the reading stays bounded on hostile
 * schemas (ref cycles, nested anyOf, huge lists). The class-by-class table is tests/shared-cases.ts.
 */
import { describe, expect, it } from 'vitest';
import { normalizeCall } from '../src/index.js';
import { planRenames } from '../src/rules/schema-reading.js';
import type { Environment, ToolSchema } from '../src/types.js';
import { codeEnv, nativeEnv } from './fixtures.js';

const str = { type: 'string' };
/** server-filesystem's read_text_file and write_file as DSH's MCP client registers them. */
const mcpTools: ToolSchema[] = [
  {
    name: 'mcp__fs__read_text_file',
    description: 'Read a text file',
    parameters: {
      type: 'object',
      properties: { path: str, head: { type: 'number' }, tail: { type: 'number' } },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'mcp__fs__write_file',
    description: 'Write a file',
    parameters: { type: 'object', properties: { path: str, content: str }, required: ['path', 'content'] },
  },
];
const native: Environment = { ...nativeEnv, tools: [...nativeEnv.tools, ...mcpTools] };
const code: Environment = { ...codeEnv, tools: [...codeEnv.tools, ...mcpTools] };

describe('DSH MCP tools get the reading', () => {
  it('native: file_path for path is renamed, with the receipt naming both', () => {
    const result = normalizeCall(
      { name: 'mcp__fs__read_text_file', arguments: { file_path: '/workspace/a.md' } },
      native,
    );
    expect(result.changed).toBe(true);
    expect(result.call.arguments).toEqual({ path: '/workspace/a.md' });
    expect(result.receipts.map((receipt) => receipt.ruleId)).toEqual(['args.rename-alias']);
    expect(result.receipts[0]?.why).toContain('"file_path"');
  });

  it('native: a provider prefix together with a synonym', () => {
    const result = normalizeCall(
      { name: 'functions.mcp__fs__write_file', arguments: '{"file": "/workspace/a.txt", "text": "hi"}' },
      native,
    );
    expect(result.call).toEqual({
      name: 'mcp__fs__write_file',
      arguments: { path: '/workspace/a.txt', content: 'hi' },
    });
  });

  it.each([
    { path: '/workspace/a', text: 'a', body: 'b' },
    { body: 'b', path: '/workspace/a', text: 'a' },
    { path: '/workspace/a', body: 'b' },
  ])('native: two candidates for content, or none, stay as sent: %j', (args) => {
    const result = normalizeCall({ name: 'mcp__fs__write_file', arguments: args }, native);
    expect(result.changed).toBe(false);
    expect(result.call.arguments).toBe(args);
  });

  it('Code Mode: an inner call gets the key of the server schema, every other byte kept', () => {
    const program = 'return await tools.mcp__fs__read_text_file({ file_path: "/workspace/a.md" });';
    const result = normalizeCall({ name: 'run_code', arguments: { code: program, description: 'Read' } }, code);
    expect(result.changed).toBe(true);
    expect((result.call.arguments as { code: string }).code).toBe(
      'return await tools.mcp__fs__read_text_file({ path: "/workspace/a.md" });',
    );
  });

  it('Code Mode: a value that cannot be read before it runs is a candidate too', () => {
    const program =
      'const note = await tools.bash({ command: "cat n", description: "Read" });\nreturn await tools.mcp__fs__write_file({ path: "/workspace/a", text: "a", body: note });';
    const result = normalizeCall({ name: 'run_code', arguments: { code: program, description: 'Write' } }, code);
    expect((result.call.arguments as { code: string }).code).toBe(program);
  });
});

describe('planRenames', () => {
  const schema = { type: 'object', properties: { path: str, content: str }, required: ['path', 'content'] };

  it('is the same whatever the key order', () => {
    const keys = ['text', 'body', 'path'];
    const values: Record<string, unknown> = { text: 'a', body: 'b', path: '/a' };
    for (const order of [keys, [...keys].reverse(), ['body', 'path', 'text']]) {
      const args = Object.fromEntries(order.map((key) => [key, values[key]]));
      expect(planRenames(schema, schema, args)).toEqual({ ambiguous: expect.stringContaining('"content"') });
    }
  });

  it('an undeclared key of another type is no candidate', () => {
    const plan = planRenames(schema, schema, { path: '/a', text: 'a', overwrite: true, mode: 420 });
    expect(plan).toEqual({ renames: new Map([['text', 'content']]) });
  });

  it('two declared keys with one spelling give no case reading', () => {
    const twins = { type: 'object', properties: { file_path: str, filePath: str, other: str }, required: ['other'] };
    expect(planRenames(twins, twins, { FilePath: '/a', other: 'x' })).toEqual({ renames: new Map() });
  });
});

describe('a one-member allOf that only describes is read as its member', () => {
  const env = (author: Record<string, unknown>, defs: Record<string, unknown> = {}): Environment => ({
    tools: [
      {
        name: 'create_issue',
        parameters: {
          type: 'object',
          properties: { title: str, author },
          required: ['title', 'author'],
          additionalProperties: false,
          ...defs,
        },
      },
    ],
    mode: 'native',
  });
  const person = {
    type: 'object',
    properties: { full_name: str, email: str },
    required: ['full_name'],
    additionalProperties: false,
  };
  const call = { name: 'create_issue', arguments: { title: 'Crash', author: { fullName: 'Ada' } } };
  const healed = { title: 'Crash', author: { full_name: 'Ada' } };

  it.each([
    [
      'pydantic v1: a #/definitions ref',
      { allOf: [{ $ref: '#/definitions/Person' }] },
      { definitions: { Person: person } },
    ],
    ['with title, description and default', { title: 'A', description: 'd', default: null, allOf: [person] }, {}],
    [
      'a wrapper in a wrapper',
      { description: 'd', allOf: [{ allOf: [{ $ref: '#/$defs/Person' }] }] },
      { $defs: { Person: person } },
    ],
  ])('%s', (_name, author, defs) => {
    const result = normalizeCall(call, env(author, defs));
    expect(result.changed).toBe(true);
    expect(result.call.arguments).toEqual(healed);
  });

  it.each([
    ['two members (a merge the reading does not make)', { allOf: [person, { required: ['email'] }] }],
    ['a member beside a keyword that constrains', { allOf: [person], not: { required: ['email'] } }],
    ['a wrapper cycle', { $ref: '#/$defs/loop' }],
  ])('not read: %s', (_name, author) => {
    const result = normalizeCall(
      call,
      env(author, { $defs: { loop: { description: 'd', allOf: [{ $ref: '#/$defs/loop' }] } } }),
    );
    expect(result.changed).toBe(false);
  });
});

describe('the reading stays bounded on hostile schemas', () => {
  const env = (parameters: Record<string, unknown>): Environment => ({
    tools: [{ name: 'tool', parameters }],
    mode: 'native',
  });

  it('a $ref cycle is not followed', () => {
    const parameters = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/x' } },
      required: ['a'],
      $defs: { x: { $ref: '#/$defs/y' }, y: { $ref: '#/$defs/x' } },
    };
    const result = normalizeCall({ name: 'tool', arguments: { A: 1 } }, env(parameters));
    expect(result.changed).toBe(false);
  });

  it('a $ref back into a two-way anyOf (2^30 walks unbounded) gives up and changes nothing', () => {
    const inner = { $ref: '#/$defs/node' };
    const parameters = {
      type: 'object',
      properties: { root: inner },
      required: ['root'],
      $defs: {
        node: {
          anyOf: [
            { type: 'object', properties: { inner, leafKey: str }, required: ['leafKey'] },
            { type: 'object', properties: { inner, leafName: str }, required: ['leafName'] },
          ],
        },
      },
    };
    let value: Record<string, unknown> = { leaf_key: 'x' };
    for (let level = 0; level < 30; level++) value = { inner: value, leaf_key: 'x' };
    const result = normalizeCall({ name: 'tool', arguments: { root: value } }, env(parameters));
    expect(result.changed).toBe(false);
    expect(result.reason).toContain('too large to read');
  });

  it('a list of 10,000 items with one fault each gives up and changes nothing', () => {
    const parameters = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { itemName: str }, required: ['itemName'] } },
      },
      required: ['items'],
    };
    const items = Array.from({ length: 10_000 }, (_, index) => ({ item_name: `n${index}` }));
    const result = normalizeCall({ name: 'tool', arguments: { items } }, env(parameters));
    expect(result.changed).toBe(false);
    expect(result.reason).toContain('too large to read');
  });
});
