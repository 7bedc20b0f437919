/**
 * Bad input at the stdio proxy, with real processes: a server that crashes mid-call, a server command that does not
 * exist, and frames from the client that are not JSON-RPC. Each gets a clear error and nothing hangs.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASHING, connectThroughProxy, EVERYTHING, rawProxy, tempDir } from './support.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('a server that dies', () => {
  it('answers the call in flight and every waiting request with an error naming the exit, then closes', async () => {
    const { client, stderr } = await connectThroughProxy([], [process.execPath, CRASHING]);
    await client.listTools();
    // Both settle together; each gets its handler now, so neither rejection goes unhandled while the other is awaited.
    const [slow, crash] = await Promise.allSettled([
      // Far longer than the test may run: only the proxy's answer to the exit can settle it in time.
      client.callTool({ name: 'slow', arguments: { ms: 600_000 } }),
      client.callTool({ name: 'crash', arguments: { code: 3 } }),
    ]);
    expect(crash).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/MCP server unavailable: the server process .* exited/) },
    });
    expect(slow).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/MCP server unavailable/) },
    });
    await expect.poll(() => stderr()).toMatch(/exited/);
    await client.close();
  });

  it('exits with a clear message when the server command cannot start', async () => {
    const proxy = await rawProxy(['/nonexistent/mcp-server-binary']);
    const [code] = await proxy.exited;
    expect(code).toBe(1);
    expect(proxy.stderr()).toMatch(/could not start the MCP server "\/nonexistent\/mcp-server-binary": .*ENOENT/);
  });
});

describe('malformed frames from the client', () => {
  it('answers a parse error and an invalid request by id, and keeps serving', async () => {
    const proxy = await rawProxy([process.execPath, EVERYTHING, 'stdio']);
    proxy.child.stdin.write('this is not json\n');
    expect(await proxy.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    proxy.child.stdin.write('{"jsonrpc":"2.0","id":7,"method":5}\n');
    expect(await proxy.next()).toMatchObject({ id: 7, error: { code: -32600 } });
    proxy.child.stdin.write(
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"mes\n',
    );
    expect(await proxy.next()).toMatchObject({ id: null, error: { code: -32700 } });
    proxy.child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    const answer = await proxy.next();
    expect(answer).toMatchObject({ id: 1, result: { serverInfo: { name: expect.any(String) } } });
    proxy.child.stdin.end();
    const [code] = await proxy.exited;
    expect(code).toBe(0);
    expect(proxy.stderr()).toMatch(/client frame: Parse error/);
  });

  it('skips a frame larger than its limit with a parse error instead of buffering without end', async () => {
    const proxy = await rawProxy([process.execPath, EVERYTHING, 'stdio']);
    const huge = `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(65 * 1024 * 1024)}"}}\n`;
    proxy.child.stdin.write(huge);
    expect(await proxy.next()).toMatchObject({
      id: null,
      error: { code: -32700, message: expect.stringMatching(/longer than/) },
    });
    proxy.child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    expect(await proxy.next()).toMatchObject({ id: 1, result: expect.any(Object) });
    proxy.child.stdin.end();
    await proxy.exited;
  });
});

describe('what the proxy logs', () => {
  const secret = () => `ghp_${randomBytes(18).toString('hex')}`;

  it('never quotes a malformed client frame in its answer or its log', async () => {
    const token = secret();
    const proxy = await rawProxy([process.execPath, EVERYTHING, 'stdio']);
    // Unquoted, so a JSON parser's message would quote the text at the error: the token's first characters.
    proxy.child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"token":${token}}}\n`);
    const answer = await proxy.next();
    expect(answer).toMatchObject({ id: null, error: { code: -32700 } });
    expect(JSON.stringify(answer)).not.toContain(token.slice(0, 10));
    proxy.child.stdin.end();
    await proxy.exited;
    expect(proxy.stderr()).toMatch(/client frame: Parse error/);
    expect(proxy.stderr()).not.toContain(token.slice(0, 10));
  });

  it("never quotes a server's stray stdout line in its log", async () => {
    const token = secret();
    const dir = tempDir('mcp-noise-');
    const toolsFile = path.join(dir, 'tools.json');
    writeFileSync(toolsFile, JSON.stringify([{ name: 'noop', parameters: { type: 'object' } }]));
    process.env.ECHO_STDOUT_NOISE = token;
    const echo = path.join(import.meta.dirname, 'fixtures/echo-server.mjs');
    let connection: Awaited<ReturnType<typeof connectThroughProxy>>;
    try {
      connection = await connectThroughProxy([], [process.execPath, echo, toolsFile]);
    } finally {
      delete process.env.ECHO_STDOUT_NOISE;
    }
    expect((await connection.client.listTools()).tools.map((tool) => tool.name)).toEqual(['noop']);
    await connection.client.close();
    expect(connection.stderr()).toMatch(/server: a line on its stdout is not JSON/);
    expect(connection.stderr()).not.toContain(token.slice(0, 10));
  });
});
