/**
 * Heals another harness recorded into the same telemetry store (the MCP proxy opens it with `harness: "mcp"`):
 * the analyzer lists them apart as measured, never joins them to DSH's calls as receipts, and `analyze` reports
 * them even where there are no DSH session logs. The event log is written by the real telemetry store.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTelemetryStore, LOG_FILE_NAME } from '@dsh-tool-normalizer/telemetry-store';
import { afterAll, describe, expect, it } from 'vitest';
import { runAnalyzeCli } from '../src/cli.js';
import { renderHtml } from '../src/format-html.js';
import { formatReport } from '../src/format-text.js';
import { ANONYMOUS_RECEIPTS } from '../src/index.js';
import { analyzeSessions, readOtherHarnesses, readReceipts } from '../src/node.js';
import { hasSqlite } from './support.js';

const home = mkdtempSync(path.join(tmpdir(), 'analyzer-harness-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const log = path.join(home, LOG_FILE_NAME);

async function writeStores(): Promise<void> {
  const dsh = createTelemetryStore({ dir: home, warn: () => {} });
  const mcp = createTelemetryStore({ dir: home, harness: 'mcp', warn: () => {} });
  dsh.record({
    tool: 'read',
    category: 'invalid-args',
    outcome: 'healed-success',
    ruleIds: ['args.rename-alias'],
    callId: 'call-1',
  });
  const coerce = { category: 'invalid-args', ruleIds: ['args.coerce-scalar'] };
  mcp.record({ tool: 'get-sum', outcome: 'healed-success', ...coerce });
  mcp.record({ tool: 'get-sum', outcome: 'healed-success', ...coerce });
  mcp.record({
    tool: 'read_text_file',
    outcome: 'healed-failed',
    category: 'invalid-args',
    ruleIds: ['args.rename-alias', 'args.coerce-scalar'],
    error: 'ENOENT',
  });
  mcp.record({
    tool: 'get-sum',
    outcome: 'passthrough-failed',
    category: 'other',
    ruleIds: [],
    error: 'a must be a number',
  });
  mcp.record({ tool: 'get-sum', outcome: 'passthrough', category: 'ok', ruleIds: [] });
  await dsh.close();
  await mcp.close();
}

describe.skipIf(!hasSqlite)('heals recorded by another harness', () => {
  it('are counted apart, by tool and rule, and never become receipts of DSH calls', async () => {
    await writeStores();
    const others = await readOtherHarnesses(log);
    expect(others).toEqual([
      {
        harness: 'mcp',
        events: 4,
        healedSuccess: 2,
        healedFailed: 1,
        passThroughFailed: 1,
        healedByTool: [
          { key: 'get-sum', count: 2 },
          { key: 'read_text_file', count: 1 },
        ],
        healedByRule: [
          { key: 'args.coerce-scalar', count: 3 },
          { key: 'args.rename-alias', count: 1 },
        ],
        from: expect.any(Number),
        to: expect.any(Number),
      },
    ]);
    const receipts = await readReceipts(log);
    expect([...receipts.keys()]).toEqual(['call-1']);
    expect(receipts.get(ANONYMOUS_RECEIPTS)).toBeUndefined();
  });

  it('are a section of their own in the terminal, JSON and HTML reports', async () => {
    const { report } = await analyzeSessions({ files: [], eventLog: log });
    expect(report.otherHarnesses?.[0]).toMatchObject({ harness: 'mcp', healedSuccess: 2 });
    expect(report.plugin.healed).toBe(0); // not added to what the DSH plugin measured in sessions
    const text = formatReport(report);
    expect(text).toContain('Recorded by another harness: MCP healing proxy (mcp)');
    expect(text).toMatch(/3 calls healed \(2 then succeeded, 1 still failed\); 1 failed calls left as sent/);
    expect(text).toMatch(/args\.coerce-scalar\s+3/);
    const html = renderHtml(report).replaceAll('<wbr>', '');
    expect(html).toContain('Recorded by another harness: MCP healing proxy (mcp)');
    expect(html).toContain('read_text_file');
  });

  it('analyze reports them where there are no DSH sessions, and still refuses an empty folder', async () => {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env: { DSH_HOME: home },
    };
    expect(await runAnalyzeCli(['--json'], io)).toBe(0);
    expect(stderr).toContain('no sessions folder at');
    expect(JSON.parse(stdout).otherHarnesses[0]).toMatchObject({ harness: 'mcp', events: 4 });

    const empty = mkdtempSync(path.join(tmpdir(), 'analyzer-empty-'));
    mkdirSync(path.join(empty, 'sessions'));
    stderr = '';
    expect(await runAnalyzeCli([path.join(empty, 'sessions')], io)).toBe(1);
    expect(stderr).toContain('no session logs');
    rmSync(empty, { recursive: true, force: true });
  });
});
