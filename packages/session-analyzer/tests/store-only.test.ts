/**
 * `analyze --store DIR` for MCP and other harnesses without DSH logs: the store written by the real telemetry store
 * (the MCP proxy opens it with `harness: "mcp"`) is reported alone, with no sessions folder looked for and no empty
 * DSH table; what its database counted and its last clear are in text, JSON and HTML; on Node 20 (no zstd, no
 * `node:sqlite`) the built command still runs and says why the database was not read. A report's last clear is
 * shown as "the store was last cleared at …, erasing N calls".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createTelemetryStore, DATABASE_FILE_NAME } from '@dsh-tool-normalizer/telemetry-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runAnalyzeCli } from '../src/cli.js';
import { renderHtml } from '../src/format-html.js';
import { formatReport } from '../src/format-text.js';
import type { AnalysisReport } from '../src/index.js';
import { lastClearOf, STORE_DATABASE_FILE } from '../src/store-reader.js';
import { hasSqlite, tempDir } from './support.js';

const NODE20 = process.env.NODE20 ?? '/usr/bin/node';
const node20 =
  fs.existsSync(NODE20) && /^v20\./.test(spawnSync(NODE20, ['--version'], { encoding: 'utf8' }).stdout ?? '');
const BIN = path.resolve(import.meta.dirname, '../dist/bin.js');

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  };
  return { value, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe.skipIf(!hasSqlite)('analyze --store DIR', () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('store');
    const mcp = createTelemetryStore({ dir, harness: 'mcp', warn: () => {} });
    const coerce = { category: 'invalid-args', ruleIds: ['args.coerce-scalar'] };
    mcp.record({ tool: 'get-sum', outcome: 'healed-success', ...coerce });
    mcp.record({ tool: 'get-sum', outcome: 'healed-failed', ...coerce, error: 'ENOENT' });
    mcp.record({ tool: 'get-sum', outcome: 'passthrough', category: 'ok', ruleIds: [] });
    mcp.record({ tool: 'echo', outcome: 'passthrough', category: 'ok', ruleIds: [] });
    await mcp.close();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names the database file as the store does', () => {
    expect(STORE_DATABASE_FILE).toBe(DATABASE_FILE_NAME);
  });

  it('reports the store alone: its counts in text and JSON, no sessions folder, no DSH table', async () => {
    const json = io();
    expect(await runAnalyzeCli(['--store', dir, '--json'], json.value)).toBe(0);
    const report = JSON.parse(json.stdout()) as AnalysisReport;
    expect(report.filesSeen).toBe(0);
    expect(report.sessionsDir).toBeUndefined();
    expect(report.store).toMatchObject({ dir, read: true, calls: 4, healed: 2 });
    expect(report.store?.harnessCalls).toEqual(
      expect.arrayContaining([
        { harness: 'mcp', outcome: 'passthrough', calls: 2 },
        { harness: 'mcp', outcome: 'healed-success', calls: 1 },
      ]),
    );
    expect(report.otherHarnesses?.[0]).toMatchObject({ harness: 'mcp', healedSuccess: 1, healedFailed: 1 });

    const text = io();
    expect(await runAnalyzeCli(['--store', dir], text.value)).toBe(0);
    const out = text.stdout();
    expect(out).toMatch(/^Telemetry store analysis \(no DSH session logs read\)\n/);
    expect(out).toContain('counted 4 calls, 2 of them healed');
    expect(out).toContain('MCP healing proxy (mcp)  passthrough');
    for (const dshOnly of ['Census', 'Errors by host code', 'Prediction:', 'Cost:', 'tool calls failed'])
      expect(out).not.toContain(dshOnly);

    const html = renderHtml(report);
    expect(html).toContain('counted 4 calls, 2 of them healed');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('id="failures"');
    expect(html).not.toContain('<script');
  });

  it("reports the store's last clear as the store's stats payload gives it", async () => {
    const store = createTelemetryStore({ dir, warn: () => {} });
    const before = store.stats({ profile: '*' }).storage;
    await store.clear();
    const after = store.stats({ profile: '*' }).storage;
    await store.close();
    const run = io();
    expect(await runAnalyzeCli(['--store', dir, '--json'], run.value)).toBe(0);
    const report = JSON.parse(run.stdout()) as AnalysisReport;
    // the receipt, when the store keeps one (telemetry-store's storage.lastClear); absent when it keeps none
    expect(report.store?.lastClear).toEqual(lastClearOf(after));
    if (report.store?.lastClear) expect(report.store.lastClear.erasedCalls).toBe(4);
    expect(lastClearOf(before)).toBeUndefined();
  });

  it('shows a last clear in the text, JSON and HTML reports; a malformed one is not shown', () => {
    expect(lastClearOf({ lastClear: { at: 1e300, erasedCalls: 3 } })).toBeUndefined();
    expect(lastClearOf({ lastClear: { at: 1_790_000_000_000, erasedCalls: -1 } })).toBeUndefined();
    const lastClear = lastClearOf({ lastClear: { at: Date.UTC(2026, 11, 5, 8, 0), erasedCalls: 1234 } });
    expect(lastClear).toEqual({ at: Date.UTC(2026, 11, 5, 8, 0), erasedCalls: 1234 });
    const report = emptyStoreReport({ dir: '/s', read: true, calls: 0, healed: 0, harnessCalls: [], lastClear });
    const sentence = 'The store was last cleared at 2026-12-05T08:00:00.000Z, erasing 1,234 calls.';
    expect(formatReport(report)).toContain(sentence);
    expect(renderHtml(report)).toContain(sentence);
    expect(JSON.parse(JSON.stringify(report)).store.lastClear).toEqual(lastClear);
  });

  it('fails clearly when DIR is not a folder or holds no store', async () => {
    const missing = io();
    expect(await runAnalyzeCli(['--store', path.join(dir, 'nope')], missing.value)).toBe(1);
    expect(missing.stderr()).toContain('no such folder');
    const empty = tempDir('no-store');
    const none = io();
    expect(await runAnalyzeCli(['--store', empty], none.value)).toBe(1);
    expect(none.stderr()).toContain('no telemetry store in');
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it.skipIf(!node20 || !fs.existsSync(BIN))(
    'runs on Node 20 (no zstd, no node:sqlite): the event log is reported, the database says why not',
    () => {
      const child = spawnSync(NODE20, [BIN, '--store', dir, '--json'], { encoding: 'utf8' });
      expect(child.status).toBe(0);
      const report = JSON.parse(child.stdout) as AnalysisReport;
      expect(report.store).toMatchObject({ read: false });
      expect(report.store?.note).toMatch(/node:sqlite/);
      // a plain .jsonl session log needs no zstd either
      const sessions = tempDir('node20-sessions');
      fs.mkdirSync(path.join(sessions, 'a'));
      const lines = [
        { type: 'session', version: 0, id: 'a', cwd: '/w' },
        { type: 'tool/call', data: { callId: 'c', name: 'read', arguments: '{}' } },
        { type: 'tool/result', data: { callId: 'c', content: [{ type: 'text', text: 'ok' }], isError: false } },
      ];
      fs.writeFileSync(
        path.join(sessions, 'a', 'session.jsonl'),
        `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
      );
      const plain = spawnSync(NODE20, [BIN, sessions, '--json'], { encoding: 'utf8' });
      expect(plain.status).toBe(0);
      expect((JSON.parse(plain.stdout) as AnalysisReport).census.toolCalls).toBe(1);
      // a zstd log on Node 20: a clear message, exit 1
      fs.writeFileSync(path.join(sessions, 'a', 'other.jsonl.zstd'), 'x');
      const zstd = spawnSync(NODE20, [BIN, sessions], { encoding: 'utf8' });
      expect(zstd.status).toBe(1);
      expect(zstd.stderr).toContain('has no built-in zstd');
      fs.rmSync(sessions, { recursive: true, force: true });
    },
  );
});

/** A report of a store only, with `store` as given. */
function emptyStoreReport(store: NonNullable<AnalysisReport['store']>): AnalysisReport {
  const split = { uncachedInput: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  const outcomes = { wouldHeal: 0, wouldRecover: 0, hintOnly: 0, noRuleApplies: 0, notReplayable: 0 };
  return {
    v: 2,
    generatedAt: 0,
    sessionsDir: undefined,
    interrupted: false,
    filesSeen: 0,
    filesAnalysed: 0,
    skipped: [],
    findings: {
      sessions: 0,
      toolCalls: 0,
      errors: 0,
      errorRate: null,
      measuredCost: split,
      predicted: outcomes,
      unknownShare: null,
      unknownReasons: [],
      predictedErrorRate: null,
      changedSuccesses: 0,
    },
    census: {
      sessions: 0,
      toolCalls: 0,
      toolResults: 0,
      errors: 0,
      errorRate: null,
      sessionsWithErrors: 0,
      sessionsWithoutToolList: 0,
      subCalls: 0,
      subCallErrors: 0,
      byCode: [],
      byCategory: [],
      byTool: [],
      byModel: [],
      byRelease: [],
      byDay: [],
      repeatedFailures: [],
    },
    prediction: {
      outcomes,
      byBasis: [],
      byCategory: [],
      byRule: [],
      unknownReasons: [],
      unrelatedRewrites: [],
      changedSuccesses: { count: 0, addsUndeclared: 0, byRule: [], examples: [] },
      predictedErrorRate: null,
    },
    cost: {
      measured: { ...split, failures: 0 },
      mock: { failures: 0, tokens: 0 },
      estimated: { failures: 0, tokens: 0, lowerBound: 0 },
      newUserTurn: 0,
      noNextRequest: 0,
      afterPredictedFixes: split,
      byCategory: [],
    },
    failures: [],
    failuresListed: 0,
    plugin: {
      sessions: 0,
      toolCalls: 0,
      errorsSeen: 0,
      healed: 0,
      hintedErrors: 0,
      errorRateWith: null,
      errorRateWithout: null,
    },
    store,
  };
}
