/**
 * A `tools/call` for a tool whose schema the proxy has not seen (the client cached the list from an earlier session,
 * or read only the first page): the proxy asks the real server for the whole list itself, once, then heals. Real
 * SDK servers as processes (`server-everything`, and the SDK's low-level `Server` paginating `tools/list`), the SDK's
 * real `Client`; what the server received is read from a tap on the wire.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { OWN_ID_PREFIX } from '../src/relay.js';
import {
  connectThroughProxy,
  EVERYTHING,
  freePort,
  proxyBin,
  startProcess,
  TAP,
  tappedFrames,
  tempDir,
  type Connected,
} from './support.js';

const ECHO = path.join(import.meta.dirname, 'fixtures/echo-server.mjs');
const ECHO_HTTP = path.join(import.meta.dirname, 'fixtures/echo-http-server.mjs');
const open: Connected[] = [];
const envKeys = ['ECHO_PAGE_SIZE', 'ECHO_LIST_HANGS', 'ECHO_LIST_LOG'];
afterEach(async () => {
  for (const key of envKeys) delete process.env[key];
  for (const connection of open.splice(0)) await connection.client.close().catch(() => {});
});

function text(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

type Frame = { id?: unknown; method?: string; params?: Record<string, unknown> };

async function tapped(server: string[]) {
  const file = path.join(tempDir('mcp-fetch-tap-'), 'frames.jsonl');
  const connection = await connectThroughProxy([], [process.execPath, TAP, file, '--', ...server]);
  open.push(connection);
  const frames = () => tappedFrames(file).map((line) => JSON.parse(line) as Frame);
  return { ...connection, frames };
}

const isOwn = (id: unknown) => typeof id === 'string' && id.startsWith(OWN_ID_PREFIX);

/** Three echo tools, each with one number argument, listed one per page. */
function echoTools(): string {
  const file = path.join(tempDir('mcp-fetch-tools-'), 'tools.json');
  const tool = (name: string) => ({
    name,
    description: `echo ${name}`,
    parameters: {
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
      additionalProperties: false,
    },
  });
  writeFileSync(file, JSON.stringify([tool('first'), tool('second'), tool('third')]));
  return file;
}

describe('a call to a tool the proxy has no schema for', () => {
  it('server-everything, no tools/list by the client: the proxy lists itself, heals, the client never sees it', async () => {
    const { client, frames, received } = await tapped([process.execPath, EVERYTHING, 'stdio']);
    const healed = await client.callTool({ name: 'get-sum', arguments: { a: '2', b: 40 } });
    expect(text(healed)).toBe('The sum of 2 and 40 is 42.');
    const seen = frames();
    const lists = seen.filter((frame) => frame.method === 'tools/list');
    expect(lists.length).toBeGreaterThanOrEqual(1);
    expect(lists.every((frame) => isOwn(frame.id))).toBe(true);
    const call = seen.find((frame) => frame.method === 'tools/call');
    expect(call?.params).toEqual({ name: 'get-sum', arguments: { a: 2, b: 40 } });
    // The list went to the server before the call did, and its answer stayed with the proxy.
    expect(seen.indexOf(lists[0] as Frame)).toBeLessThan(seen.indexOf(call as Frame));
    expect(received.some((message) => 'id' in message && isOwn(message.id))).toBe(false);
    // server-everything announces a list change after start-up: the proxy forgets the list and may ask once more.
    await client.callTool({ name: 'get-sum', arguments: { a: '1', b: 1 } });
    expect(frames().filter((frame) => frame.method === 'tools/list' && !isOwn(frame.id))).toHaveLength(0);
  });

  it('a client that read only the first page: the proxy follows nextCursor through every page, once', async () => {
    const log = path.join(tempDir('mcp-fetch-log-'), 'lists.jsonl');
    process.env.ECHO_PAGE_SIZE = '1';
    process.env.ECHO_LIST_LOG = log;
    const { client, frames } = await tapped([process.execPath, ECHO, echoTools()]);
    const firstPage = await client.listTools();
    expect(firstPage.tools.map((tool) => tool.name)).toEqual(['first']);
    expect(firstPage.nextCursor).toBeTruthy();

    const result = await client.callTool({ name: 'third', arguments: { n: '7' } });
    expect(JSON.parse(text(result))).toEqual({ name: 'third', arguments: { n: 7 } });
    const own = frames().filter((frame) => frame.method === 'tools/list' && isOwn(frame.id));
    expect(own).toHaveLength(3);
    expect(own[0]?.params?.cursor).toBeUndefined();
    expect(own.slice(1).every((frame) => typeof frame.params?.cursor === 'string')).toBe(true);
    // A tool the list described is healed from then on without asking again.
    const second = await client.callTool({ name: 'second', arguments: { n: '8' } });
    expect(JSON.parse(text(second))).toEqual({ name: 'second', arguments: { n: 8 } });
    // Once: a call to a name the server does not have does not list again.
    await client.callTool({ name: 'no-such-tool', arguments: { n: 1 } });
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(4); // the client's page + the proxy's 3
  });

  it('a server that never answers tools/list: after the time limit the call goes on unchanged', async () => {
    process.env.ECHO_LIST_HANGS = '1';
    const { client, frames } = await tapped([process.execPath, ECHO, echoTools()]);
    const started = Date.now();
    const result = await client.callTool({ name: 'first', arguments: { n: '7' } });
    const waited = Date.now() - started;
    expect(JSON.parse(text(result))).toEqual({ name: 'first', arguments: { n: '7' } });
    expect(waited).toBeGreaterThanOrEqual(4_500); // the 5 s limit, then forwarded
    const call = frames().find((frame) => frame.method === 'tools/call');
    expect(call?.params).toEqual({ name: 'first', arguments: { n: '7' } });
    // Not again: the next call goes straight on, with no second list of the proxy's own before it.
    await client.callTool({ name: 'first', arguments: { n: '8' } });
    expect(frames().filter((frame) => frame.method === 'tools/list' && isOwn(frame.id))).toHaveLength(1);
  }, 40_000);
});

describe('over Streamable HTTP, a server that never answers tools/list', () => {
  it('forwards the call unchanged after the time limit and closes its own request', async () => {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const log = path.join(tempDir('mcp-fetch-http-'), 'lists.jsonl');
    const port = await freePort();
    const server = await startProcess(process.execPath, [ECHO_HTTP, echoTools(), String(port)], {
      ECHO_LIST_HANGS: '1',
      ECHO_LIST_LOG: log,
    });
    const proxy = await startProcess(process.execPath, [
      await proxyBin(),
      '--http',
      `http://127.0.0.1:${port}/mcp`,
      '--listen',
      '127.0.0.1:0',
    ]);
    try {
      await server.waitFor(/listening on port/);
      const url = new URL((await proxy.waitFor(/listening on (\S+) ->/))[1] as string);
      const client = new Client({ name: 'schema-fetch-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url));
      const started = Date.now();
      const result = await client.callTool({ name: 'first', arguments: { n: '7' } });
      expect(JSON.parse(text(result))).toEqual({ name: 'first', arguments: { n: '7' } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
      // The proxy's own hanging request was closed when it stopped waiting.
      await expect
        .poll(() => readFileSync(log, 'utf8').trim().split('\n'), { timeout: 5_000 })
        .toEqual(['{}', 'closed']);
      await client.close();
    } finally {
      await proxy.stop();
      await server.stop();
    }
  }, 40_000);
});
