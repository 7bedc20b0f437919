/**
 * The healing decision and the relay, without processes: one table of calls against schemas shaped like the ones
 * the reference servers advertise (zod-generated JSON Schema), each with the verdict it must get. Then the relay's
 * bookkeeping: schemas from paged tools/list answers, list_changed, cancellation, server loss, a failing recorder.
 */
import type { ToolSchema } from '@dsh-tool-normalizer/core-rules';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { CallRelay, createHealer, type HealVerdict, MCP_RULE_IDS } from '../src/index.js';

const DRAFT7 = 'http://json-schema.org/draft-07/schema#';
const TOOLS: ToolSchema[] = [
  {
    name: 'get-sum',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      $schema: DRAFT7,
    },
  },
  {
    name: 'read_text_file',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, head: { type: 'number' }, tail: { type: 'number' } },
      required: ['path'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    name: 'create_issue',
    parameters: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        description: { type: 'string', minLength: 1 },
        draft: { type: 'boolean' },
      },
      required: ['title', 'description'],
    },
  },
  {
    name: 'shift',
    parameters: {
      type: 'object',
      properties: { by: { type: 'number', minimum: -100, maximum: 100 } },
      required: ['by'],
    },
  },
  {
    name: 'count',
    parameters: { type: 'object', properties: { n: { type: 'integer' }, tag: { type: 'string' } }, required: ['n'] },
  },
];
const healer = createHealer(TOOLS);

type Expect =
  | { kind: 'untouched'; reason: string }
  | { kind: 'healed'; name?: string; arguments: Record<string, unknown>; rules: string[] }
  | { kind: 'unhealable' };

const CASES: [string, string, unknown, Expect][] = [
  ['valid call', 'get-sum', { a: 1, b: 2 }, { kind: 'untouched', reason: 'valid' }],
  [
    'stringly number',
    'get-sum',
    { a: '2', b: 3 },
    { kind: 'healed', arguments: { a: 2, b: 3 }, rules: ['args.coerce-scalar'] },
  ],
  // The kit coerces a negative or fractional number only when the schema's own bounds judge it (a 1-based offset
  // sent as "-5" would pass a bare `number` and still be wrong).
  ['negative stringly number, no bounds', 'get-sum', { a: '-5', b: 0 }, { kind: 'unhealable' }],
  ['decimal stringly number, no bounds', 'get-sum', { a: '20.5', b: 0 }, { kind: 'unhealable' }],
  [
    'negative stringly number within bounds',
    'shift',
    { by: '-5' },
    { kind: 'healed', arguments: { by: -5 }, rules: ['args.coerce-scalar'] },
  ],
  ['negative number out of bounds', 'shift', { by: '-500' }, { kind: 'unhealable' }],
  ['exponent text is not one reading', 'get-sum', { a: '1e3', b: 0 }, { kind: 'unhealable' }],
  ['padded number text', 'get-sum', { a: ' 5', b: 0 }, { kind: 'unhealable' }],
  ['a word for a number', 'get-sum', { a: 'two', b: 0 }, { kind: 'unhealable' }],
  ['fraction for an integer', 'count', { n: '2.5' }, { kind: 'unhealable' }],
  ['stringly integer', 'count', { n: '7' }, { kind: 'healed', arguments: { n: 7 }, rules: ['args.coerce-scalar'] }],
  [
    'null optional dropped',
    'count',
    { n: 1, tag: null },
    { kind: 'healed', arguments: { n: 1 }, rules: ['args.drop-null-optional'] },
  ],
  [
    'alias key',
    'read_text_file',
    { file_path: '/a.md' },
    { kind: 'healed', arguments: { path: '/a.md' }, rules: ['args.rename-alias'] },
  ],
  ['two aliases that disagree', 'read_text_file', { file_path: '/a', filePath: '/b' }, { kind: 'unhealable' }],
  [
    'alias plus stringly number',
    'read_text_file',
    { file_path: '/a', head: '3' },
    { kind: 'healed', arguments: { path: '/a', head: 3 }, rules: ['args.rename-alias', 'args.coerce-scalar'] },
  ],
  ['unknown key under additionalProperties false', 'read_text_file', { path: '/a', lines: 3 }, { kind: 'unhealable' }],
  [
    'fenced JSON text',
    'get-sum',
    '```json\n{"a": 1, "b": 2}\n```',
    { kind: 'healed', arguments: { a: 1, b: 2 }, rules: ['args.unwrap-fenced-json'] },
  ],
  [
    'double-encoded JSON',
    'get-sum',
    JSON.stringify(JSON.stringify({ a: 1, b: 2 })),
    { kind: 'healed', arguments: { a: 1, b: 2 }, rules: ['args.unwrap-double-encoded'] },
  ],
  [
    'JSON text of the object',
    'get-sum',
    '{"a": 1, "b": 2}',
    { kind: 'healed', arguments: { a: 1, b: 2 }, rules: ['args.unwrap-double-encoded'] },
  ],
  [
    'provider prefix on the name',
    'functions.get-sum',
    { a: 1, b: 2 },
    { kind: 'healed', name: 'get-sum', arguments: { a: 1, b: 2 }, rules: ['call.strip-name-prefix'] },
  ],
  ['a blank description is never invented', 'create_issue', { title: 'Bug', description: '' }, { kind: 'unhealable' }],
  ['a missing description is never invented', 'create_issue', { title: 'Bug' }, { kind: 'unhealable' }],
  ['unknown tool', 'nope', { a: 1 }, { kind: 'untouched', reason: 'unknown-tool' }],
  ['arguments as a list', 'get-sum', [1, 2], { kind: 'unhealable' }],
  ['arguments as a number', 'get-sum', 5, { kind: 'unhealable' }],
  ['no arguments at all', 'get-sum', undefined, { kind: 'untouched', reason: 'no-arguments' }],
  ['text that is not JSON', 'get-sum', 'a=1, b=2', { kind: 'unhealable' }],
];

function summary(verdict: HealVerdict): Expect {
  if (verdict.kind === 'untouched') return { kind: 'untouched', reason: verdict.reason };
  if (verdict.kind === 'unhealable') return { kind: 'unhealable' };
  return {
    kind: 'healed',
    name: verdict.name,
    arguments: verdict.arguments,
    rules: verdict.receipts.map((r) => r.ruleId),
  };
}

describe('healCall', () => {
  it.each(CASES)('%s', async (_label, name, args, expected) => {
    const verdict = await healer.heal(name, args);
    const want = expected.kind === 'healed' ? { name: expected.name ?? name, ...expected } : expected;
    expect(summary(verdict)).toEqual(want);
    for (const rule of verdict.kind === 'healed' ? verdict.receipts : [])
      expect(MCP_RULE_IDS.has(rule.ruleId)).toBe(true);
  });

  it('answers "no-schema" before the server listed its tools', async () => {
    expect(await createHealer([]).heal('get-sum', { a: '1', b: 2 })).toEqual({
      kind: 'untouched',
      reason: 'no-schema',
    });
  });

  it('never builds a repair holding a __proto__ key, and leaves a valid one as it came', async () => {
    const broken = JSON.parse('{"__proto__": {"polluted": true}, "a": "1", "b": 2}') as Record<string, unknown>;
    expect((await healer.heal('get-sum', broken)).kind).toBe('unhealable');
    const valid = JSON.parse('{"__proto__": {"polluted": true}, "a": 1, "b": 2}') as Record<string, unknown>;
    expect(await healer.heal('get-sum', valid)).toEqual({ kind: 'untouched', reason: 'valid' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('decides on a 10 MB valid argument and a 10 MB broken one', async () => {
    const big = 'z'.repeat(10_000_000);
    expect((await healer.heal('read_text_file', { path: big })).kind).toBe('untouched');
    expect(healer.passes('read_text_file', { path: big })).toBe(true);
    expect((await healer.heal('read_text_file', { file_path: big })).kind).toBe('healed');
    expect(healer.passes('read_text_file', { file_path: big })).toBe(false);
  });
});

const call = (id: number, name: string, args: unknown): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) as JSONRPCMessage;

async function listed(relay: CallRelay, id: number, names: ToolSchema[], cursor?: string, next?: string) {
  await relay.fromClient({ jsonrpc: '2.0', id, method: 'tools/list', ...(cursor ? { params: { cursor } } : {}) });
  relay.fromServer({
    jsonrpc: '2.0',
    id,
    result: {
      tools: names.map((tool) => ({ name: tool.name, inputSchema: tool.parameters })),
      ...(next ? { nextCursor: next } : {}),
    },
  } as JSONRPCMessage);
}

describe('CallRelay', () => {
  it('hands every message it does not heal back as the same object', async () => {
    const relay = new CallRelay();
    await listed(relay, 1, TOOLS);
    const messages: JSONRPCMessage[] = [
      call(2, 'get-sum', { a: 1, b: 2 }),
      call(3, 'get-sum', { a: 'two', b: 2 }),
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'x' } },
      { jsonrpc: '2.0', id: 5, method: 'vendor/unknown-method', params: { anything: [1] } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'srv-1', result: { content: [] } },
    ];
    for (const message of messages)
      expect(((await relay.fromClient(message)) as { forward: unknown }).forward).toBe(message);
  });

  it('learns schemas across tools/list pages, forgets them on list_changed', async () => {
    const relay = new CallRelay();
    await listed(relay, 1, TOOLS.slice(0, 2), undefined, 'page-2');
    await listed(relay, 2, TOOLS.slice(2), 'page-2');
    expect([...relay.tools.keys()]).toEqual(TOOLS.map((tool) => tool.name));
    expect(await relay.fromClient(call(3, 'count', { n: '1' }))).toMatchObject({
      forward: { params: { arguments: { n: 1 } } },
    });
    relay.fromServer({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const untouched = call(4, 'count', { n: '1' });
    expect(((await relay.fromClient(untouched)) as { forward: unknown }).forward).toBe(untouched);
    await listed(relay, 5, TOOLS.slice(0, 1));
    expect([...relay.tools.keys()]).toEqual(['get-sum']);
  });

  it('answers what the server will never answer, once, and forgets cancelled requests', async () => {
    const relay = new CallRelay();
    await relay.fromClient(call(1, 'a', {}));
    await relay.fromClient({ jsonrpc: '2.0', id: 'x-2', method: 'ping' });
    await relay.fromClient(call(3, 'b', {}));
    await relay.fromClient({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
    relay.fromServer({ jsonrpc: '2.0', id: 1, result: { content: [] } } as JSONRPCMessage);
    const answers = relay.serverGone('it exited');
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 'x-2', error: { code: -32000, message: expect.stringContaining('it exited') } },
    ]);
    expect(relay.serverGone('again')).toEqual([]);
  });

  it('with answerErrors, answers an unhealable call with one hint; a failing recorder changes nothing', async () => {
    const relay = new CallRelay({
      answerErrors: true,
      recorder: {
        record: () => {
          throw new Error('disk full');
        },
      },
    });
    await listed(relay, 1, TOOLS);
    const step = await relay.fromClient(call(2, 'get-sum', { a: 'two', b: 2 }));
    expect(step).toEqual({
      answer: {
        jsonrpc: '2.0',
        id: 2,
        result: {
          isError: true,
          content: [{ type: 'text', text: expect.stringMatching(/^Invalid arguments for tool "get-sum": .*a/) }],
        },
      },
    });
    expect(await relay.fromClient(call(3, 'get-sum', { a: '1', b: 2 }))).toMatchObject({ forward: { id: 3 } });
    // Inside an HTTP batch it may not answer: the unhealable call goes on as it came.
    const batched = call(4, 'get-sum', { a: 'two', b: 2 });
    expect(((await relay.fromClient(batched, { mayAnswer: false })) as { forward: unknown }).forward).toBe(batched);
  });
});
