/**
 * The stdio proxy between the SDK's real `Client` and the real reference servers (`server-everything`,
 * `server-filesystem`) as separate processes. A tap between the proxy and the server records the bytes the server
 * really received, so "healed", "forwarded unchanged" and "not sent" are read from the wire, not from the proxy.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CallToolResult,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectThroughProxy, EVERYTHING, FILESYSTEM, TAP, tappedFrames, tempDir, type Connected } from './support.js';

const open: Connected[] = [];
afterEach(async () => {
  for (const connection of open.splice(0)) await connection.client.close().catch(() => {});
});

/** A client through the proxy to a tapped server; `sent` holds the frames the client wrote, as it wrote them. */
async function tapped(server: string[], proxyOptions: string[] = [], clientOptions = {}) {
  const file = path.join(tempDir('mcp-tap-'), 'frames.jsonl');
  const connection = await connectThroughProxy(
    proxyOptions,
    [process.execPath, TAP, file, '--', ...server],
    clientOptions,
  );
  open.push(connection);
  return { ...connection, frames: () => tappedFrames(file) };
}

const everything = [process.execPath, EVERYTHING, 'stdio'];

function text(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

/** The frame the server received for the request with this id (by its JSON-RPC id). */
function frameFor(frames: string[], id: number): string | undefined {
  return frames.find((frame) => {
    const value = JSON.parse(frame) as { id?: unknown; method?: unknown };
    return value.id === id && typeof value.method === 'string';
  });
}

function lastCallId(sent: string[]): number {
  const calls = sent.map((frame) => JSON.parse(frame)).filter((value) => value.method === 'tools/call');
  return calls.at(-1).id;
}

async function listed(client: Client) {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

describe('stdio proxy with server-everything', () => {
  it('heals a stringly number, fenced JSON and a provider prefix, and the server computes the right answer', async () => {
    const { client, frames, sent } = await tapped(everything);
    expect(await listed(client)).toContain('get-sum');

    const stringly = await client.callTool({ name: 'get-sum', arguments: { a: '2', b: 40 } });
    expect(stringly.isError).toBeFalsy();
    expect(text(stringly)).toBe('The sum of 2 and 40 is 42.');
    const received = JSON.parse(frameFor(frames(), lastCallId(sent)) as string);
    expect(received.params).toEqual({ name: 'get-sum', arguments: { a: 2, b: 40 } });

    const fenced = await client.callTool({
      name: 'get-sum',
      arguments: '```json\n{"a": 1.5, "b": 2}\n```' as unknown as Record<string, unknown>,
    });
    expect(text(fenced)).toBe('The sum of 1.5 and 2 is 3.5.');

    const prefixed = await client.callTool({ name: 'functions.get-sum', arguments: { a: 1, b: 2 } });
    expect(text(prefixed)).toBe('The sum of 1 and 2 is 3.');
    expect(JSON.parse(frameFor(frames(), lastCallId(sent)) as string).params.name).toBe('get-sum');
  });

  it('forwards a valid call byte for byte, and every other request as the client wrote it', async () => {
    const { client, frames, sent } = await tapped(everything);
    await client.listTools();
    const message = `héllo \u2028 "quoted" \\ ${'x'.repeat(1000)} 🦀`;
    const result = await client.callTool({ name: 'echo', arguments: { message }, _meta: { progressToken: 'p-1' } });
    expect(text(result)).toBe(`Echo: ${message}`);
    const received = frames();
    // Every frame the client wrote reached the server as the same bytes (initialize, list, the call, notifications).
    for (const frame of sent) expect(received).toContain(frame);
    expect(received).toHaveLength(sent.length);
  });

  it('forwards a call it cannot heal unchanged: the server answers with its own error', async () => {
    const { client, frames, sent } = await tapped(everything);
    await client.listTools();
    const result = await client.callTool({ name: 'get-sum', arguments: { a: 'two', b: 3 } });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('Invalid arguments for tool "get-sum": invalid');
    const id = lastCallId(sent);
    expect(frameFor(frames(), id)).toBe(sent.find((frame) => JSON.parse(frame).id === id));
  });

  it('with --answer-errors, answers an unhealable call itself with one hint and never sends it', async () => {
    const { client, frames, sent } = await tapped(everything, ['--answer-errors']);
    await client.listTools();
    const result = await client.callTool({ name: 'get-sum', arguments: { a: 'two', b: 3 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Invalid arguments for tool "get-sum": .*"?a"?.*The tool did not run/);
    expect(frameFor(frames(), lastCallId(sent))).toBeUndefined();
    // A valid call right after still runs.
    expect(text(await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 1 } }))).toBe(
      'The sum of 1 and 1 is 2.',
    );
  });

  it('passes resources, prompts, logging notifications, progress, cancellation and sampling through', async () => {
    const sampled: unknown[] = [];
    const { client, frames, sent, received } = await tapped(everything, [], { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      sampled.push(request.params);
      return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'sampled answer' } };
    });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    await client.listTools();

    const resources = await client.listResources();
    expect(resources.resources.length).toBeGreaterThan(0);
    const first = resources.resources[0] as { uri: string };
    const read = await client.readResource({ uri: first.uri });
    expect(read.contents[0]?.uri).toBe(first.uri);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((prompt) => prompt.name)).toContain('simple-prompt');
    const prompt = await client.getPrompt({ name: 'simple-prompt' });
    expect(prompt.messages.length).toBeGreaterThan(0);

    const progress: number[] = [];
    const long = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
      undefined,
      { onprogress: (value) => progress.push(value.progress) },
    );
    expect(long.isError).toBeFalsy();
    // All three progress notifications reached the client (the SDK may run the last one after the result).
    const notified = received.filter((message) => 'method' in message && message.method === 'notifications/progress');
    expect(notified.map((message) => (message as unknown as { params: { progress: number } }).params.progress)).toEqual(
      [1, 2, 3],
    );
    expect(progress.length).toBeGreaterThanOrEqual(2);

    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    await expect.poll(() => logs.length, { timeout: 15_000 }).toBeGreaterThan(0);

    const sampling = await client.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'hi', maxTokens: 5 },
    });
    expect(text(sampling)).toContain('sampled answer');
    expect(sampled).toHaveLength(1);

    const abort = new AbortController();
    const cancelled = client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } },
      undefined,
      { signal: abort.signal },
    );
    setTimeout(() => abort.abort('test cancels'), 300);
    await expect(cancelled).rejects.toThrow();
    await expect
      .poll(() => frames().some((frame) => JSON.parse(frame).method === 'notifications/cancelled'))
      .toBe(true);
    for (const frame of sent) if (JSON.parse(frame).method !== 'tools/call') expect(frames()).toContain(frame);
  });

  it('passes elicitation through: the server asks the client, the client declines, the tool reports it', async () => {
    const { client } = await tapped(everything, [], { capabilities: { elicitation: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'decline' };
    });
    expect(await listed(client)).toContain('trigger-elicitation-request');
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: 'Please provide inputs for the following fields:' });
    expect(text(result)).toMatch(/decline/i);
  });

  // No clock in the assertions: the SDK's own client and server re-copy their read buffers per chunk, so on a loaded
  // machine a 10 MB echo takes anywhere from 1 s to a minute. The call may take up to 4 minutes; what is asserted
  // is that the argument reached the server whole and unchanged, and the whole answer came back.
  it('forwards a 10 MB argument unread and unchanged, and its 10 MB answer', async () => {
    const { client, frames, sent } = await tapped(everything);
    await client.listTools();
    const message = `${'a'.repeat(5_000_000)}é${'b'.repeat(5_000_000)}`;
    const result = await client.callTool({ name: 'echo', arguments: { message } }, undefined, { timeout: 240_000 });
    expect(text(result)).toBe(`Echo: ${message}`);
    const id = lastCallId(sent);
    expect(frameFor(frames(), id)).toBe(sent.find((frame) => JSON.parse(frame).id === id));
  }, 300_000);
});

describe('stdio proxy with server-filesystem', () => {
  it('heals an alias key (file_path for path) and reads the file', async () => {
    const root = tempDir('mcp-fs-');
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docs', 'guide.md'), '# Guide\nline two\n');
    const { client, frames, sent } = await tapped([process.execPath, FILESYSTEM, root]);
    expect(await listed(client)).toContain('read_text_file');
    const file = path.join(root, 'docs', 'guide.md');
    const result = await client.callTool({ name: 'read_text_file', arguments: { file_path: file } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('# Guide\nline two\n');
    expect(JSON.parse(frameFor(frames(), lastCallId(sent)) as string).params.arguments).toEqual({ path: file });

    const head = await client.callTool({ name: 'read_text_file', arguments: { path: file, head: '1' } });
    expect(text(head)).toBe('# Guide');
  });
});
