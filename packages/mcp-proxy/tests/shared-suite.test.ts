/**
 * The shared case table (core-rules/tests/shared-cases.ts, the one every harness runs) through the real proxy
 * process, to a real SDK server advertising the table's tools as inputSchemas (the table's `schema` style), with the
 * SDK's real Client. A tap records what the server received. The proxy has no host profile, so a repair the table
 * expects is owed only when the kit makes it with rules the proxy applies (MCP_RULE_IDS); a repair that needs DSH's
 * profile (a derived description, an editor path, a program) must leave the call as sent. Whatever the table says
 * must not change reaches the server byte for byte: 0 wrong changes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRepairKit } from '@dsh-tool-normalizer/core-rules';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectedFor,
  SHARED_OPTIONS,
  type SharedCase,
  sharedCases,
  sharedTools,
} from '../../core-rules/tests/shared-cases.js';
import { MCP_RULE_IDS } from '../src/index.js';
import { type Connected, connectThroughProxy, TAP, tappedFrames, tempDir } from './support.js';

const ECHO = path.join(import.meta.dirname, 'fixtures/echo-server.mjs');
const dshKit = createRepairKit(sharedTools, SHARED_OPTIONS);
let connection: Connected;
let tapFile: string;
const tally = { repairable: 0, repaired: 0, profileOnly: 0, partial: 0, unchanged: 0, wrong: 0 };

/** The keys of `tool` only DSH's profile repairs: derived descriptions, a program field, the editor's path and range. */
function profileKeys(tool: string, derived: readonly string[] = []): Set<string> {
  const fields = SHARED_OPTIONS.programs.fields as Record<string, string>;
  const keys = new Set(derived);
  if (Object.hasOwn(fields, tool)) keys.add(fields[tool] as string);
  if (tool === 'str_replace_editor') for (const key of ['path', 'view_range']) keys.add(key);
  return keys;
}

beforeAll(async () => {
  const dir = tempDir('mcp-shared-');
  const toolsFile = path.join(dir, 'tools.json');
  writeFileSync(toolsFile, JSON.stringify(sharedTools));
  tapFile = path.join(dir, 'frames.jsonl');
  connection = await connectThroughProxy([], [process.execPath, TAP, tapFile, '--', process.execPath, ECHO, toolsFile]);
  await connection.client.listTools();
}, 60_000);

afterAll(async () => {
  await connection?.client.close();
  console.log(
    `shared table through the MCP proxy: ${tally.repaired}/${tally.repairable} repairable repaired ` +
      `(${tally.profileOnly} more need DSH's profile: ${tally.partial} of them healed in the parts the proxy owns), ` +
      `${tally.unchanged} that must not change left as sent, ${tally.wrong} wrong changes`,
  );
});

/** What an MCP client sends for the model's text: the object when it parses to one, else the text itself. */
function argumentsOf(input: string): unknown {
  try {
    const value: unknown = JSON.parse(input);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // left as text
  }
  return input;
}

/** The frame the client wrote for its last tools/call, and the frame the server received for the same id. */
function lastCallFrames(): { sent: string; received: string | undefined } {
  const sent = connection.sent.filter((frame) => JSON.parse(frame).method === 'tools/call').at(-1) as string;
  const id = (JSON.parse(sent) as { id: number }).id;
  const received = tappedFrames(tapFile).find((frame) => {
    const value = JSON.parse(frame) as JSONRPCMessage & { id?: unknown; method?: unknown };
    return value.id === id && value.method === 'tools/call';
  });
  return { sent, received };
}

async function runThrough(testCase: SharedCase) {
  await connection.client
    .callTool({ name: testCase.name, arguments: argumentsOf(testCase.input) as Record<string, unknown> })
    .catch(() => undefined);
  // The tap writes asynchronously: wait until the frame is there.
  await expect.poll(() => lastCallFrames().received !== undefined, { timeout: 5_000 }).toBe(true);
  return lastCallFrames();
}

describe('the shared case table through the MCP proxy (schema style)', () => {
  it.each(sharedCases.map((testCase) => [testCase.id, testCase] as const))('%s', async (_id, testCase) => {
    const expected = expectedFor(testCase, 'schema');
    const { sent, received } = await runThrough(testCase);
    const changed = received !== sent;
    if (expected.kind !== 'repair') {
      if (changed) tally.wrong++;
      else tally.unchanged++;
      expect(received).toBe(sent);
      return;
    }
    tally.repairable++;
    const dsh = await dshKit.repair({ name: testCase.name, arguments: testCase.input });
    const needsProfile = dsh.ok && dsh.receipts.some((item) => !MCP_RULE_IDS.has(item.ruleId));
    if (needsProfile) {
      tally.profileOnly++;
      if (!changed) return;
      // A partial repair: every key the proxy may touch ends as the table's repair has it; only the keys DSH's
      // profile repairs (a derived description, the program field, the editor's path and range) may stay as sent.
      const params = (
        JSON.parse(received as string) as { params: { name: string; arguments: Record<string, unknown> } }
      ).params;
      const owned = profileKeys(testCase.name, expected.derived);
      const keys = new Set([...Object.keys(params.arguments), ...Object.keys(expected.args)]);
      const agrees = [...keys].every(
        (key) => owned.has(key) || JSON.stringify(params.arguments[key]) === JSON.stringify(expected.args[key]),
      );
      if (agrees && params.name === expected.name) tally.partial++;
      else tally.wrong++;
      expect({ name: params.name, agrees }).toEqual({ name: expected.name, agrees: true });
      return;
    }
    const params = (JSON.parse(received as string) as { params: { name: string; arguments: Record<string, unknown> } })
      .params;
    const right = params.name === expected.name && JSON.stringify(params.arguments) === JSON.stringify(expected.args);
    if (right) tally.repaired++;
    else if (changed) tally.wrong++;
    expect(params).toEqual({ name: expected.name, arguments: expected.args });
  });
});
