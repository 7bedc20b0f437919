/**
 * MCP tools inside DSH: real DSH rc.8 headless with its own MCP client (`@deepseek-ai/dsh-mcp-client`, shipped with
 * DSH, one loader row per server) in front of the real `@modelcontextprotocol/server-filesystem`, the scripted model
 * on 127.0.0.1, the plugin installed. The client registers the server's tools as `mcp__fs__<tool>` with the
 * server's own `inputSchema`; rc.8 does not check MCP arguments itself, so what the plugin reads in that schema is
 * all that stands between a broken call and the server.
 *
 * - a call with two keys that could each be the schema's `content` (`text` and `body`) is no reading: nothing is
 *   renamed, the server refuses the call with its own error and writes no file (an outside review saw `text` renamed
 *   and `"a"` written while the model saw success);
 * - a valid call reaches the server untouched;
 * - `file_path` where the schema says `path` is healed, natively and inside a Code-Mode program
 *   (`tools.mcp__fs__read_text_file({ file_path })`).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSession, type ScriptStep, type SessionRun } from '../src/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const fromProxy = createRequire(path.join(root, 'packages/mcp-proxy/package.json'));
const FILESYSTEM_SERVER = path.join(
  path.dirname(fromProxy.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist/index.js',
);

/** The loader row a user adds for one MCP server (the client's README), allowed to touch the workspace only. */
const MCP_ROW_PATCH = `- insert:
    - id: mcp-fs
      name: '@deepseek-ai/dsh-mcp-client'
      config:
        serverName: fs
        transport: stdio
        command: !!js process.execPath
        args: [${JSON.stringify(FILESYSTEM_SERVER)}, !!js process.cwd()]
        failOnStartupError: true
`;

const SEEN = 'hello from the workspace';
const DONE = 'The scripted MCP session is over.';

const nativeSteps: ScriptStep[] = [
  {
    toolCalls: [
      {
        id: 'two_candidates',
        name: 'mcp__fs__write_file',
        arguments: { path: '{{ws}}/two.txt', text: 'a', body: 'b' },
      },
    ],
  },
  {
    toolCalls: [
      { id: 'valid_write', name: 'mcp__fs__write_file', arguments: { path: '{{ws}}/seen.txt', content: SEEN } },
    ],
  },
  { toolCalls: [{ id: 'alias_read', name: 'mcp__fs__read_text_file', arguments: { file_path: '{{ws}}/seen.txt' } }] },
  { text: DONE },
];

const codeSteps: ScriptStep[] = [
  {
    toolCalls: [
      {
        id: 'inner_alias_read',
        name: 'run_code',
        arguments: {
          code: 'const r = await tools.mcp__fs__read_text_file({ file_path: "{{ws}}/seen.txt" });\nreturn r;',
          description: 'Read the file through the MCP server',
        },
      },
    ],
  },
  { text: DONE },
];

const messageOf = (run: SessionRun, id: string) => run.toolMessages.find((message) => message.callId === id);

describe('DSH MCP tools (dsh-mcp-client + server-filesystem) with the plugin', () => {
  let native: SessionRun;
  let code: SessionRun;

  beforeAll(async () => {
    native = await runSession({
      mode: 'native',
      plugin: true,
      label: 'mcp-native',
      steps: nativeSteps,
      patch: MCP_ROW_PATCH,
      workspaceFixtures: { 'seen.txt': 'placeholder' },
    });
    code = await runSession({
      mode: 'code',
      plugin: true,
      label: 'mcp-code',
      steps: codeSteps,
      patch: MCP_ROW_PATCH,
      workspaceFixtures: { 'seen.txt': SEEN },
    });
  });

  it('both sessions play to the end', () => {
    expect(native.exitCode, native.stderr).toBe(0);
    expect(code.exitCode, code.stderr).toBe(0);
    expect(native.toolMessages.map((message) => message.callId)).toEqual([
      'two_candidates',
      'valid_write',
      'alias_read',
    ]);
  });

  it('the server presents its schema: the model was offered mcp__fs__write_file wanting `content`', () => {
    const tools = native.requests.find((request) => request.isAgent)?.body.tools ?? [];
    const write = tools.find((tool) => tool.function.name === 'mcp__fs__write_file');
    expect(write?.function.parameters).toMatchObject({ required: expect.arrayContaining(['path', 'content']) });
  });

  it('two keys that could each be `content` are no reading: the server refuses, no file is written', () => {
    const message = messageOf(native, 'two_candidates');
    expect(message?.isError, message?.content).toBe(true);
    expect(fs.existsSync(path.join(native.workspace, 'two.txt'))).toBe(false);
  });

  it('a valid call reaches the server untouched and writes exactly its content', () => {
    expect(messageOf(native, 'valid_write')?.isError).toBe(false);
    expect(fs.readFileSync(path.join(native.workspace, 'seen.txt'), 'utf8')).toBe(SEEN);
  });

  it("`file_path` for the schema's `path` is healed natively: the model reads the file", () => {
    const message = messageOf(native, 'alias_read');
    expect(message?.isError, message?.content).toBe(false);
    expect(message?.content).toContain(SEEN);
  });

  it('`file_path` inside a Code-Mode program is healed too: the program returns the file', () => {
    const message = messageOf(code, 'inner_alias_read');
    expect(message?.isError, message?.content).toBe(false);
    expect(message?.content).toContain(SEEN);
  });
});
