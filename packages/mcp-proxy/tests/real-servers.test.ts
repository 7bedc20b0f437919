/**
 * The stdio proxy in front of three more real servers from npm (issue 29's list): `@modelcontextprotocol/server-memory`,
 * `@cyanheads/git-mcp-server` and `@wonderwhy-er/desktop-commander`, each with the SDK's real `Client` and a tap that
 * records what the server received. For each: a valid call reaches the server as the very bytes the client sent; a
 * broken call of a kind core-rules heals today (a provider prefix, an object sent as JSON text, a stringly number,
 * `file_path` for `path`) is healed and the server does the work; a call nothing can repair (a required key missing)
 * reaches the server unchanged and the client gets the server's own error, not the proxy's. Servers start slowly
 * under load: the initialize may take up to 2 minutes, each call up to 1 minute.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectThroughProxy, TAP, tappedFrames, tempDir, type Connected } from './support.js';

/** Each server's bin, `dist/index.js`, through this package's own node_modules (git-mcp-server's `exports` hide it). */
const entry = (name: string) => path.join(import.meta.dirname, '../node_modules', name, 'dist/index.js');
const START_MS = 120_000;
const CALL = { timeout: 60_000 };

const open: Connected[] = [];
afterEach(async () => {
  for (const connection of open.splice(0)) await connection.client.close().catch(() => {});
});

/** A client through the proxy to a tapped server started with `env` (a fresh HOME for each). */
async function tapped(server: string, env: Record<string, string> = {}) {
  const file = path.join(tempDir('mcp-real-tap-'), 'frames.jsonl');
  const home = tempDir('mcp-real-home-');
  const vars = Object.entries({ HOME: home, ...env }).map(([name, value]) => `${name}=${value}`);
  const connection = await connectThroughProxy(
    [],
    [process.execPath, TAP, file, '--', '/usr/bin/env', ...vars, process.execPath, entry(server)],
    {},
    START_MS,
  );
  open.push(connection);
  await connection.client.listTools(undefined, CALL);
  const received = (id: number) =>
    tappedFrames(file).find((frame) => {
      const value = JSON.parse(frame) as { id?: unknown; method?: unknown };
      return value.id === id && typeof value.method === 'string';
    });
  const lastSent = () => {
    const frame = connection.sent.filter((line) => JSON.parse(line).method === 'tools/call').at(-1) as string;
    return { frame, id: JSON.parse(frame).id as number };
  };
  /** The call as the server received it, after the last call the client sent. */
  const serverGot = () => {
    const { id } = lastSent();
    return JSON.parse(received(id) as string).params as { name: string; arguments: unknown };
  };
  /** True when the server received the last call as the very bytes the client sent. */
  const untouched = () => {
    const { frame, id } = lastSent();
    return received(id) === frame;
  };
  return { ...connection, serverGot, untouched };
}

function text(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

/** The server's own error: an isError result (or a JSON-RPC error) that is not the proxy's `--answer-errors` hint. */
async function serverError(call: Promise<unknown>): Promise<string> {
  const outcome = await call.then(
    (result) => {
      expect((result as CallToolResult).isError).toBe(true);
      return text(result);
    },
    (error: Error) => error.message,
  );
  expect(outcome).not.toMatch(/^Invalid arguments for tool/);
  return outcome;
}

describe('server-memory 2026.8.31', () => {
  it('valid untouched, a prefixed name with JSON-text arguments healed, a missing key left to the server', async () => {
    const memory = path.join(tempDir('mcp-memory-'), 'memory.jsonl');
    const { client, serverGot, untouched } = await tapped('@modelcontextprotocol/server-memory', {
      MEMORY_FILE_PATH: memory,
    });
    const entities = [{ name: 'Ada', entityType: 'person', observations: ['writes programs'] }];
    const created = await client.callTool({ name: 'create_entities', arguments: { entities } }, undefined, CALL);
    expect(created.isError).toBeFalsy();
    expect(untouched()).toBe(true);
    expect(readFileSync(memory, 'utf8')).toContain('"name":"Ada"');

    const healed = await client.callTool(
      { name: 'functions.open_nodes', arguments: '{"names": ["Ada"]}' as unknown as Record<string, unknown> },
      undefined,
      CALL,
    );
    expect(healed.isError).toBeFalsy();
    expect(text(healed)).toContain('writes programs');
    expect(serverGot()).toEqual({ name: 'open_nodes', arguments: { names: ['Ada'] } });

    const error = await serverError(client.callTool({ name: 'open_nodes', arguments: {} }, undefined, CALL));
    expect(error).toMatch(/names/);
    expect(untouched()).toBe(true);
  }, 300_000);
});

describe('git-mcp-server 2.15.3', () => {
  it('valid untouched, a stringly maxCount healed, a commit without a message left to the server', async () => {
    const repo = tempDir('mcp-git-');
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'first');
    git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'second');
    const { client, serverGot, untouched } = await tapped('@cyanheads/git-mcp-server', {
      MCP_TRANSPORT_TYPE: 'stdio',
      MCP_LOG_LEVEL: 'error',
    });
    const status = await client.callTool({ name: 'git_status', arguments: { path: repo } }, undefined, CALL);
    expect(status.isError).toBeFalsy();
    expect(untouched()).toBe(true);

    const log = await client.callTool(
      { name: 'git_log', arguments: { path: repo, maxCount: '1', oneline: true } },
      undefined,
      CALL,
    );
    expect(log.isError).toBeFalsy();
    expect(text(log)).toContain('second');
    expect(text(log)).not.toContain('first');
    expect(serverGot()).toEqual({ name: 'git_log', arguments: { path: repo, maxCount: 1, oneline: true } });

    const error = await serverError(
      client.callTool({ name: 'git_commit', arguments: { path: repo } }, undefined, CALL),
    );
    expect(error).toMatch(/message/i);
    expect(untouched()).toBe(true);
  }, 300_000);
});

describe('desktop-commander 0.2.52', () => {
  it('valid untouched, file_path for path healed, a read without a path left to the server', async () => {
    const dir = tempDir('mcp-dc-');
    const file = path.join(dir, 'note.txt');
    const { client, serverGot, untouched } = await tapped('@wonderwhy-er/desktop-commander');
    const written = await client.callTool(
      { name: 'write_file', arguments: { path: file, content: 'hello from the proxy' } },
      undefined,
      CALL,
    );
    expect(written.isError).toBeFalsy();
    expect(untouched()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('hello from the proxy');

    const read = await client.callTool({ name: 'read_file', arguments: { file_path: file } }, undefined, CALL);
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain('hello from the proxy');
    expect(serverGot()).toEqual({ name: 'read_file', arguments: { path: file } });

    const error = await serverError(client.callTool({ name: 'read_file', arguments: {} }, undefined, CALL));
    expect(error).toMatch(/path/i);
    expect(untouched()).toBe(true);
  }, 300_000);
});
