/**
 * The demo's arithmetic on hand-made run records (the real runs are exercised by the demo itself and the
 * real-host tier): errors, round-trips, re-read tokens, heals by category, and the skipped plugin run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRuns, demoLegend, formatComparison, pluginMeterTokens, summarizeRun } from '../src/demo-report.js';
import type { DemoTask } from '../src/demo-session.js';
import type { RecordedRequest, SessionRun, ToolMessage } from '../src/index.js';

const tasks: DemoTask[] = [
  {
    category: 'invalid-args',
    label: 'a',
    what: 'a',
    first: { id: 'a', name: 'run_code', arguments: '{}' },
    retry: { id: 'a_retry', name: 'run_code', arguments: '{}' },
  },
  {
    category: 'fs-edit-anchor',
    label: 'b',
    what: 'b',
    first: { id: 'b', name: 'run_code', arguments: '{}' },
    retry: { id: 'b_retry', name: 'run_code', arguments: '{}' },
  },
  { category: 'ok', label: 'c', what: 'c', first: { id: 'c', name: 'run_code', arguments: '{}' } },
];

const request = (index: number, tokens: number, isAgent = true): RecordedRequest => ({
  index,
  receivedAt: 0,
  isAgent,
  answeredWith: null,
  bodyChars: tokens * 4,
  estimatedTokens: tokens,
  body: {},
});
const message = (callId: string, isError: boolean, requestIndex: number): ToolMessage => ({
  callId,
  name: 'run_code',
  arguments: '{}',
  content: isError ? 'Error: no' : 'fine',
  isError,
  requestIndex,
});
const run = (toolMessages: ToolMessage[], requests: RecordedRequest[]): SessionRun =>
  ({
    toolMessages,
    requests,
    exitCode: 0,
    wallMs: 1000,
    maxRssKb: 2048,
    runDir: '/r',
    startedAt: 0,
  }) as unknown as SessionRun;

// without: a fails, retried; b fails, retried; c ok. Requests: 0 (first), 1 title, 2 after a (error), 3 after a_retry, 4 after b (error), 5 after b_retry, 6 after c
const baseline = run(
  [
    message('a', true, 2),
    message('a_retry', false, 3),
    message('b', true, 4),
    message('b_retry', false, 5),
    message('c', false, 6),
  ],
  [
    request(0, 100),
    request(1, 10, false),
    request(2, 200),
    request(3, 300),
    request(4, 400),
    request(5, 500),
    request(6, 600),
  ],
);
// with: a healed; b still fails, retried; c ok
const withPlugin = run(
  [message('a', false, 1), message('b', true, 2), message('b_retry', false, 3), message('c', false, 4)],
  [request(0, 100), request(1, 200), request(2, 300), request(3, 400), request(4, 500)],
);

describe('demo report', () => {
  it('counts calls, errors, agent round-trips and the tokens re-read after errors', () => {
    const summary = summarizeRun(baseline, tasks);
    expect(summary).toMatchObject({
      calls: 5,
      errorsSeen: 2,
      roundTrips: 6,
      promptTokens: 2100,
      tokensReReadAfterErrors: 600,
      errorsByCategory: { 'invalid-args': 1, 'fs-edit-anchor': 1 },
    });
  });

  it('counts a heal only when the first attempt failed without the plugin and succeeded with it', () => {
    const comparison = compareRuns(tasks, baseline, withPlugin);
    expect(comparison.healsByCategory).toEqual({ 'invalid-args': 1 });
    expect(comparison.stillFailing).toEqual(['b (fs-edit-anchor)']);
    const table = formatComparison(comparison);
    expect(table).toMatch(/errors the model saw\s+2\s+1/);
    expect(table).toMatch(/model round-trips\s+6\s+5/);
    expect(table).toContain("1 of 3 tasks' first attempts were healed");
    expect(comparison.perTask.map((t) => [t.id, t.without, t.with])).toEqual([
      ['a', 'error', 'ok'],
      ['b', 'error', 'error'],
      ['c', 'ok', 'ok'],
    ]);
    expect(table).toMatch(/\n {2}a\s+error, retried\s+healed\n/);
    expect(table).toMatch(/\n {2}b\s+error, retried\s+error, retried\n/);
  });

  it('explains its own words under the tables: DSH, each category shown, view_range past EOF', () => {
    const legend = demoLegend(['fs-not-observed', 'code-mode-direct-call', 'some-new-category']).join('\n');
    expect(legend).toMatch(/^ {2}DSH\s+DeepSeek Harness/m);
    expect(legend).toMatch(/^ {2}code-mode-direct-call\s+Code Mode direct call: in Code Mode DSH runs only run_code/m);
    expect(legend).toMatch(/^ {2}fs-not-observed\s+File not read before writing: DSH refuses to edit a file/m);
    expect(legend.replace(/\s+/g, ' ')).toContain('the session has not read first (FS_NOT_OBSERVED)');
    expect(legend).toMatch(/^ {2}some-new-category\s+some-new-category$/m);
    expect(legend).toMatch(/^ {2}view_range past EOF\s+.*EOF: end of file/m);
    // the legend follows the table and names every category the table shows
    const comparison = compareRuns(tasks, baseline, withPlugin);
    const table = formatComparison(comparison);
    const after = table.slice(table.indexOf('What the words mean:'));
    for (const category of Object.keys(comparison.without.errorsByCategory)) expect(after).toContain(`  ${category} `);
    for (const line of after.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('prints why the plugin run was skipped', () => {
    const comparison = compareRuns(tasks, baseline, { skipped: 'not built' });
    expect(comparison.healsByCategory).toEqual({});
    expect(formatComparison(comparison)).toContain('with-plugin run skipped: not built');
  });

  it("sums the plugin's token-meter savings written during the run only", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-lab-events-')), 'events.jsonl');
    fs.writeFileSync(
      file,
      [
        { at: 5, tokensSaved: 1000 },
        { at: 20, tokensSaved: 7 },
        { at: 30, tokensSaved: 5 },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n{torn',
    );
    expect(pluginMeterTokens({ eventLogPath: file, startedAt: 10 })).toBe(12);
    expect(pluginMeterTokens({ eventLogPath: undefined, startedAt: 10 })).toBeUndefined();
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});
