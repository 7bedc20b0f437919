/**
 * The stdio framing in process: the envelope check agrees with the SDK's own `JSONRPCMessageSchema` on a table of
 * frames (it replaced that schema on the hot path), `peekFrame` reads an id only where it is certainly the top-level
 * one, and `LineReader` splits, holds, skips and streams lines as it says.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { asMessage, LineReader, peekFrame, readFrame } from '../src/frames.js';

const envelopes: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x', arguments: {} } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
  { jsonrpc: '2.0', id: 2, result: {} },
  { jsonrpc: '2.0', id: 2, result: { tools: [] } },
  { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'bad' } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'parse' } },
  { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'bad', data: { x: 1 } } },
  { jsonrpc: '1.0', id: 1, method: 'x' },
  { id: 1, method: 'x' },
  { jsonrpc: '2.0', id: 1.5, method: 'x' },
  { jsonrpc: '2.0', id: null, method: 'x' },
  { jsonrpc: '2.0', id: 1, method: 5 },
  { jsonrpc: '2.0', id: 1, method: 'x', params: [1, 2] },
  { jsonrpc: '2.0', id: 1, method: 'x', extra: true },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '2.0', id: 1, result: {}, extra: 1 },
  { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1 } },
  { jsonrpc: '2.0', id: 1 },
  [],
  'text',
  null,
];

describe('asMessage', () => {
  it("agrees with the SDK's JSONRPCMessageSchema on every envelope of the table", () => {
    for (const value of envelopes)
      expect(asMessage(value) !== undefined, JSON.stringify(value)).toBe(JSONRPCMessageSchema.safeParse(value).success);
  });

  it('reads a frame once: a message, a parse error, an invalid request with its id, blank, or unread', () => {
    expect(readFrame(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\r'), 100)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
    });
    expect(readFrame(Buffer.from('nope'), 100)).toMatchObject({ code: -32700, id: null });
    expect(readFrame(Buffer.from('{"jsonrpc":"2.0","id":7,"method":5}'), 100)).toMatchObject({ code: -32600, id: 7 });
    expect(readFrame(Buffer.from('  \r'), 100)).toBe('blank');
    expect(readFrame(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}'), 10)).toBe('unread');
  });
});

describe('peekFrame', () => {
  const peek = (text: string) => peekFrame(Buffer.from(text), Buffer.from(text));

  it('reads the id an SDK server writes last and one a Python server writes first', () => {
    expect(peek(`{"result":{"tools":[${'{"id":9},'.repeat(10)}{}]},"jsonrpc":"2.0","id":42}`).id).toBe(42);
    expect(peek('{"jsonrpc":"2.0","id":"dsh-tool-normalizer-mcp-proxy:ab:1","result":{}}').id).toBe(
      'dsh-tool-normalizer-mcp-proxy:ab:1',
    );
    expect(peek('{"id":"a\\"b","result":{}}').id).toBe('a"b');
  });

  it('takes no id that might be nested', () => {
    expect(peek('{"jsonrpc":"2.0","result":{"item":{"id":5}}}').id).toBeUndefined();
    expect(peek('{"result":{"x":1,"id":5}}').id).toBeUndefined();
    expect(peek('{"result":{"list":[1,2]},"meta":{"id":5}}').id).toBeUndefined();
  });

  it("reads a request's method and tool name, an error answer, and an isError result", () => {
    expect(peek('{"method":"tools/call","params":{"name":"echo","arguments":{}},"jsonrpc":"2.0","id":3}')).toEqual({
      id: 3,
      method: 'tools/call',
      name: 'echo',
    });
    expect(peek('{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}')).toMatchObject({ id: 3, error: true });
    expect(peek('{"result":{"content":[],"isError":true},"jsonrpc":"2.0","id":4}')).toMatchObject({
      id: 4,
      isError: true,
    });
  });
});

describe('LineReader', () => {
  it('joins a line split across chunks, and passes several lines of one chunk', () => {
    const frames: string[] = [];
    const reader = new LineReader(() => 100, 'skip', { frame: (raw) => frames.push(raw.toString()) });
    reader.push(Buffer.from('{"a":'));
    reader.push(Buffer.from('1}\n{"b":2}\n{"c"'));
    reader.push(Buffer.from(':3}\n'));
    expect(frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('skips a line over its hold limit to the newline, then reads on', () => {
    const events: string[] = [];
    const reader = new LineReader(() => 8, 'skip', {
      frame: (raw) => events.push(raw.toString()),
      skipped: (limit) => events.push(`skipped ${limit}`),
    });
    reader.push(Buffer.from('0123456'));
    reader.push(Buffer.from('789abc\nok\n'));
    expect(events).toEqual(['skipped 8', 'ok']);
  });

  it('streams a line over its hold limit in parts and keeps only its last bytes', () => {
    const parts: string[] = [];
    let tail = '';
    const reader = new LineReader(() => 4, 'stream', {
      frame: (raw) => parts.push(`frame ${raw}`),
      streamStart: (head) => parts.push(`start ${head}`),
      streamPart: (part) => parts.push(`part ${part}`),
      streamEnd: (end) => {
        tail = end.toString();
        parts.push('end');
      },
    });
    reader.push(Buffer.from('abc'));
    reader.push(Buffer.from('defgh'));
    reader.push(Buffer.from(`${'x'.repeat(2000)}z\nnext\n`));
    expect(parts.slice(0, 2)).toEqual(['start abcdefgh', `part ${'x'.repeat(2000)}z`]);
    expect(parts.slice(2)).toEqual(['end', 'frame next']);
    expect(tail).toBe(`${'x'.repeat(1023)}z`);
  });
});
