/**
 * A server whose `tools/list` is one huge line (issue 29: a 66 MB list took 67.7 s through the proxy and the next
 * call 126 s at 1.09 GB). A real SDK server (`fixtures/echo-server.mjs`) lists about 41 MB of tools; the proxy runs
 * as a bare child with raw frames on its stdin/stdout and a tap before the server. Asserted on behaviour, not time:
 * the list reaches the client whole, requests sent behind it are answered in order, the list is not learned (a
 * broken call goes on as sent, and the proxy never asks for the list itself), the relay's own request for such a
 * list never reaches the client, and the proxy's peak memory grows by less than the list's size.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWN_ID_PREFIX } from '../src/relay.js';
import { rawProxy, TAP, tappedFrames, tempDir } from './support.js';

const ECHO = path.join(import.meta.dirname, 'fixtures/echo-server.mjs');
const TOOL_COUNT = 32_000;

/** About 41 MB of tools: `first` (one number argument), then thousands with long descriptions and schemas. */
function hugeTools(): { file: string; bytes: number } {
  const tools: { name: string; description: string; parameters: Record<string, unknown> }[] = [
    {
      name: 'first',
      description: 'echo',
      parameters: {
        type: 'object',
        properties: { n: { type: 'number' } },
        required: ['n'],
        additionalProperties: false,
      },
    },
  ];
  for (let index = 1; index < TOOL_COUNT; index++)
    tools.push({
      name: `tool_${index}`,
      description: `Tool ${index}: ${'does one thing well. '.repeat(40)}`,
      parameters: {
        type: 'object',
        properties: { n: { type: 'number', description: 'a number '.repeat(30) } },
        required: ['n'],
        additionalProperties: false,
      },
    });
  const file = path.join(tempDir('mcp-huge-'), 'tools.json');
  const text = JSON.stringify(tools);
  writeFileSync(file, text);
  return { file, bytes: text.length };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** The proxy's resident memory now and at its peak (Linux `/proc`), in bytes. */
function memory(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

async function started(tools: string) {
  const tap = path.join(tempDir('mcp-huge-tap-'), 'frames.jsonl');
  const proxy = await rawProxy([process.execPath, TAP, tap, '--', process.execPath, ECHO, tools]);
  const send = (message: unknown) => proxy.child.stdin.write(`${JSON.stringify(message)}\n`);
  send(INITIALIZE);
  expect(await proxy.next()).toMatchObject({ id: 1, result: expect.any(Object) });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const received = () => tappedFrames(tap).map((line) => JSON.parse(line) as { id?: unknown; method?: string });
  return { proxy, send, received };
}

const call = (id: number, n: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'first', arguments: { n } },
});

describe('a tools/list of one huge line', () => {
  const { file, bytes } = hugeTools();

  it('streams through whole, keeps the requests behind it in order, is not learned, and memory stays bounded', async () => {
    const { proxy, send, received } = await started(file);
    const before = memory(proxy.child.pid as number);
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send(call(3, 1));
    send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    const list = (await proxy.next()) as { id: number; result: { tools: { name: string }[] } };
    expect(list.id).toBe(2);
    expect(list.result.tools).toHaveLength(TOOL_COUNT);
    expect(list.result.tools.at(-1)?.name).toBe(`tool_${TOOL_COUNT - 1}`);
    expect(await proxy.next()).toMatchObject({
      id: 3,
      result: { content: [{ text: '{"name":"first","arguments":{"n":1}}' }] },
    });
    expect(await proxy.next()).toMatchObject({ id: 4, result: {} });
    // Too long to learn: a broken call goes on as it was sent, and the proxy does not ask for the list itself.
    send(call(5, '7'));
    expect(await proxy.next()).toMatchObject({
      id: 5,
      result: { content: [{ text: '{"name":"first","arguments":{"n":"7"}}' }] },
    });
    expect(
      received()
        .filter((frame) => frame.method === 'tools/list')
        .map((frame) => frame.id),
    ).toEqual([2]);
    const after = memory(proxy.child.pid as number);
    if (before && after) expect(after.peak - before.rss).toBeLessThan(bytes);
    expect(proxy.stderr()).not.toMatch(/relay:|could not/);
    proxy.child.stdin.end();
    expect((await proxy.exited)[0]).toBe(0);
  });

  it("the relay's own request for such a list: the call goes on unchanged and the client never sees that answer", async () => {
    const { proxy, send, received } = await started(file);
    // No tools/list from the client: the proxy asks the server itself before this call.
    send(call(2, '7'));
    expect(await proxy.next()).toMatchObject({
      id: 2,
      result: { content: [{ text: '{"name":"first","arguments":{"n":"7"}}' }] },
    });
    send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    // The very next frame the client gets is the ping's answer: the huge own answer stayed with the proxy.
    expect(await proxy.next()).toMatchObject({ id: 3, result: {} });
    const lists = received().filter((frame) => frame.method === 'tools/list');
    expect(lists).toHaveLength(1);
    expect(String(lists[0]?.id).startsWith(OWN_ID_PREFIX)).toBe(true);
    // It does not ask again.
    send(call(4, '8'));
    expect(await proxy.next()).toMatchObject({ id: 4 });
    expect(received().filter((frame) => frame.method === 'tools/list')).toHaveLength(1);
    proxy.child.stdin.end();
    expect((await proxy.exited)[0]).toBe(0);
  });
});
