/**
 * The Streamable HTTP proxy (the real `dsh-tool-normalizer mcp-proxy --http` command) in front of the real
 * `server-everything` over Streamable HTTP, with the SDK's real `Client` and `StreamableHTTPClientTransport`.
 * A small recording hop between the proxy and the server keeps the request bodies the server really received.
 */
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelemetryStore } from '@dsh-tool-normalizer/telemetry-store';
import { EVERYTHING, freePort, proxyBin, startProcess, startRecordingHop, tempDir } from './support.js';

type Started = Awaited<ReturnType<typeof startProcess>>;

let upstream: Started;
let upstreamPort: number;
let recorder: Server;
let recordedBodies: string[] = [];
let proxy: Started;
let proxyUrl: URL;

async function startUpstream(): Promise<void> {
  upstreamPort = await freePort();
  upstream = await startProcess(process.execPath, [EVERYTHING, 'streamableHttp'], { PORT: String(upstreamPort) });
  await upstream.waitFor(/listening on port/i);
}

beforeAll(async () => {
  await startUpstream();
  const recording = await startRecordingHop(`http://127.0.0.1:${upstreamPort}/mcp`, (request) => {
    if (request.method === 'POST') recordedBodies.push(request.body.toString('utf8'));
  });
  recorder = recording.server;
  proxy = await startProcess(process.execPath, [await proxyBin(), '--http', recording.url, '--listen', '127.0.0.1:0']);
  proxyUrl = new URL((await proxy.waitFor(/listening on (\S+) ->/))[1] as string);
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await upstream?.stop();
  recorder?.closeAllConnections();
  await new Promise((resolve) => recorder?.close(resolve));
});

async function connect(options: ConstructorParameters<typeof Client>[1] = {}, url = proxyUrl): Promise<Client> {
  const client = new Client({ name: 'mcp-proxy-http-test', version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

function text(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

function lastCall(): { params: { name: string; arguments: unknown } } | undefined {
  const calls = recordedBodies.map((body) => JSON.parse(body)).filter((value) => value.method === 'tools/call');
  return calls.at(-1);
}

describe('Streamable HTTP proxy with server-everything', () => {
  it('heals a stringly number and fenced JSON; the server computes the right answer', async () => {
    const client = await connect();
    await client.listTools();
    const result = await client.callTool({ name: 'get-sum', arguments: { a: '20', b: 22 } });
    expect(text(result)).toBe('The sum of 20 and 22 is 42.');
    expect(lastCall()?.params).toEqual({ name: 'get-sum', arguments: { a: 20, b: 22 } });
    const fenced = await client.callTool({
      name: 'get-sum',
      arguments: '```\n{"a": 2, "b": 3}\n```' as unknown as Record<string, unknown>,
    });
    expect(text(fenced)).toBe('The sum of 2 and 3 is 5.');
    await client.close();
  });

  it('a session that never listed tools: the proxy posts its own tools/list in the session, then heals', async () => {
    const client = await connect();
    recordedBodies = [];
    const result = await client.callTool({ name: 'get-sum', arguments: { a: '40', b: 2 } });
    expect(text(result)).toBe('The sum of 40 and 2 is 42.');
    const posted = recordedBodies.map((body) => JSON.parse(body) as { id?: unknown; method?: string });
    const own = posted.filter((value) => value.method === 'tools/list');
    expect(own.length).toBeGreaterThanOrEqual(1);
    expect(own.every((value) => String(value.id).startsWith('dsh-tool-normalizer-mcp-proxy:'))).toBe(true);
    expect(posted.findIndex((value) => value.method === 'tools/list')).toBeLessThan(
      posted.findIndex((value) => value.method === 'tools/call'),
    );
    expect(lastCall()?.params).toEqual({ name: 'get-sum', arguments: { a: 40, b: 2 } });
    await client.close();
  });

  it('forwards a valid call as the very bytes the client sent', async () => {
    const client = await connect();
    await client.listTools();
    recordedBodies = [];
    const message = `ünïcode \u2028 "q" ${'y'.repeat(500)}`;
    const result = await client.callTool({ name: 'echo', arguments: { message } });
    expect(text(result)).toBe(`Echo: ${message}`);
    const body = recordedBodies.find((value) => JSON.parse(value).method === 'tools/call');
    // The SDK's HTTP transport sends JSON.stringify(message); the server got exactly that text.
    const parsed = JSON.parse(body as string);
    expect(body).toBe(JSON.stringify(parsed));
    expect(parsed.params).toEqual({ name: 'echo', arguments: { message } });
    await client.close();
  });

  it('forwards an unhealable call unchanged (the server answers its own error)', async () => {
    const client = await connect();
    await client.listTools();
    const result = await client.callTool({ name: 'get-sum', arguments: { a: [1], b: 3 } });
    expect(result.isError).toBe(true);
    expect(lastCall()?.params.arguments).toEqual({ a: [1], b: 3 });
    await client.close();
  });

  it('passes sampling (a server request on the call stream), progress, resources and prompts', async () => {
    const client = await connect({ capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      model: 'test-model',
      role: 'assistant',
      content: { type: 'text', text: 'sampled over http' },
    }));
    await client.listTools();
    const sampled = await client.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'x', maxTokens: 3 },
    });
    expect(text(sampled)).toContain('sampled over http');
    const progress: number[] = [];
    await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } },
      undefined,
      {
        onprogress: (value) => progress.push(value.progress),
      },
    );
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect((await client.listResources()).resources.length).toBeGreaterThan(0);
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    await client.close();
  });

  it("passes the server's answer to a 10 MB body through (the SDK server caps bodies at 4 MB)", async () => {
    const client = await connect();
    await client.listTools();
    const big = { name: 'echo', arguments: { message: 'b'.repeat(10_000_000) } };
    await expect(client.callTool(big, undefined, { timeout: 240_000 })).rejects.toThrow(/413|too large/i);
    // The proxy still serves the same session afterwards.
    expect(text(await client.callTool({ name: 'echo', arguments: { message: 'after' } }))).toBe('Echo: after');
    await client.close();
  }, 300_000);

  it('with --answer-errors and --store: answers the unhealable call itself and flushes receipts on SIGTERM', async () => {
    const dir = tempDir('mcp-http-store-');
    const second = await startProcess(process.execPath, [
      await proxyBin(),
      '--answer-errors',
      '--store',
      dir,
      '--http',
      `http://127.0.0.1:${upstreamPort}/mcp`,
      '--listen',
      '127.0.0.1:0',
    ]);
    const url = new URL((await second.waitFor(/listening on (\S+) ->/))[1] as string);
    const client = await connect({}, url);
    await client.listTools();
    const refused = await client.callTool({ name: 'get-sum', arguments: { a: 'two', b: 3 } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Invalid arguments for tool "get-sum": "a" must be a number\. The tool did not run/);
    expect(text(await client.callTool({ name: 'get-sum', arguments: { a: '4', b: 5 } }))).toBe(
      'The sum of 4 and 5 is 9.',
    );
    await client.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const store = createTelemetryStore({ dir, warn: () => {} });
    try {
      const { totals } = store.stats();
      expect(totals).toMatchObject({ calls: 2, healedSuccess: 1, passThroughFailed: 1 });
    } finally {
      await store.close();
    }
  });

  it('answers the call in flight with an error when the server dies, and later requests with a 502 error', async () => {
    const client = await connect();
    await client.listTools();
    const long = client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    upstream.child.kill('SIGKILL');
    await expect(long).rejects.toThrow(/MCP server unavailable|connection to the server broke/);
    await expect(client.callTool({ name: 'echo', arguments: { message: 'x' } })).rejects.toThrow(
      /502|MCP server unavailable/,
    );
    await client.close().catch(() => {});
    await startUpstream();
  });
});
