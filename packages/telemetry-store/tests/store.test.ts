/** The file-backed store with real files in temp directories: what lands on disk, boot, failures, clear, rotation. */
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTelemetryStore, LOG_FILE_NAME, SUMMARY_FILE_NAME, StatsQueryError, statsPayloadValidator, summaryValidator } from '../src/index.js';
import { healed, logEvents, logLines, openStore, tempDir } from './helpers.js';

describe('recording', () => {
  it('appends healed and failed calls as JSONL events and keeps untouched successes in counters only', async () => {
    const dir = tempDir();
    const { store } = openStore({ dir });
    store.record(healed('edit', { before: { path: 'a.ts' }, after: { path: '/w/a.ts' }, changes: ['path: relative -> absolute'] }));
    store.record({ tool: 'bash', category: 'EXEC_FAILED', outcome: 'passthrough-failed', ruleIds: [], error: 'exit 1' });
    store.record({ tool: 'bash', category: 'none', outcome: 'passthrough', ruleIds: [] });
    await store.flush();
    expect(store.logPath).toBe(join(dir, LOG_FILE_NAME));
    expect(store.summaryPath).toBe(join(dir, SUMMARY_FILE_NAME));
    const events = logEvents(store.logPath);
    expect(events.map((event) => event.outcome)).toEqual(['healed-success', 'passthrough-failed']);
    expect(events[0]).toMatchObject({ tool: 'edit', before: '{"path":"a.ts"}', after: '{"path":"/w/a.ts"}', changes: ['path: relative -> absolute'] });
    const summary = JSON.parse(readFileSync(store.summaryPath, 'utf8'));
    expect(summaryValidator.Check(summary)).toBe(true);
    expect(summary.totals).toEqual({ calls: 3, healedSuccess: 1, healedFailed: 0, passThrough: 1, passThroughFailed: 1, tokensSaved: 100 });
    const stats = store.stats();
    expect(statsPayloadValidator.Check(stats)).toBe(true);
    expect(stats.totals.calls).toBe(3);
    expect(stats.recent.map((event) => event.outcome)).toEqual(['passthrough-failed', 'healed-success']);
    await store.close();
  });

  it('after close, counts in memory but writes nothing more', async () => {
    const { store } = openStore({ dir: tempDir() });
    store.record(healed('kept'));
    await store.close();
    for (let i = 0; i < 300; i += 1) store.record(healed('late'));
    await store.flush();
    expect(logEvents(store.logPath).map((event) => event.tool)).toEqual(['kept']);
    expect(store.stats().totals.calls).toBe(301);
  });

  it('logs untouched successes too when persistPassthrough is on', async () => {
    const { store } = openStore({ dir: tempDir(), persistPassthrough: true });
    store.record({ tool: 'bash', category: 'none', outcome: 'passthrough', ruleIds: [] });
    await store.flush();
    expect(logEvents(store.logPath).map((event) => event.outcome)).toEqual(['passthrough']);
    expect(store.stats().storage.persistPassthrough).toBe(true);
  });

  it('ignores bad input without throwing, counts it and warns once', async () => {
    const { store, warnings } = openStore({ dir: tempDir() });
    expect(() => store.record(null as never)).not.toThrow();
    expect(() => store.record({ tool: 1 } as never)).not.toThrow();
    expect(() => store.record({ ...healed(), outcome: 'exploded' } as never)).not.toThrow();
    store.record(healed());
    const stats = store.stats();
    expect(stats.storage.rejectedInputs).toBe(3);
    expect(stats.totals.calls).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ignored');
  });

  it('survives a warn callback that throws', () => {
    const store = createTelemetryStore({ dir: tempDir(), warn: () => { throw new Error('logger down'); } });
    expect(() => store.record(null as never)).not.toThrow();
    store.record(healed());
    expect(store.stats().totals.calls).toBe(1);
  });

  it('keeps per-tool maps bounded when a model invents thousands of tool names', () => {
    const { store } = openStore({ dir: tempDir(), maxTools: 50 });
    for (let i = 0; i < 10_000; i += 1) store.record({ tool: `made_up_${i}`, category: 'UNKNOWN_TOOL', outcome: 'passthrough-failed', ruleIds: [] });
    const stats = store.stats();
    expect(stats.tools.length).toBe(51);
    expect(stats.tools.find((row) => row.name === 'other')?.calls).toBe(9_950);
    expect(stats.totals.calls).toBe(10_000);
  });

  it('shows a long tool name under the same name in its event and in its table row, so filtering by it works', () => {
    const { store } = openStore({ dir: tempDir() });
    const longName = `mcp__server__${'very_long_tool_name_'.repeat(10)}`;
    store.record(healed(longName));
    const stats = store.stats();
    const rowName = stats.tools[0]?.name ?? '';
    expect(rowName.length).toBe(64);
    expect(stats.recent[0]?.tool).toBe(rowName);
    expect(store.stats({ tool: rowName }).recent).toHaveLength(1);
  });

  it.each([{ maxLogBytes: Number.NaN }, { maxLogBytes: -1 }, { recentCapacity: 0 }, { minCalls: 1.5 }, { maxTools: '10' }])(
    'refuses the option %j with a clear error instead of a silent default',
    (bad) => {
      expect(() => createTelemetryStore({ dir: tempDir(), ...(bad as object) })).toThrow(/must be an integer/);
    },
  );

  it('refuses a missing directory option', () => {
    expect(() => createTelemetryStore({} as never)).toThrow(/needs a non-empty `dir`/);
  });

  it('rejects a bad stats query with a StatsQueryError', () => {
    const { store } = openStore({ dir: tempDir() });
    expect(() => store.stats({ outcome: 'nope' } as never)).toThrow(StatsQueryError);
  });
});

describe('privacy', () => {
  const secrets = {
    key: 'sk-live-Zx9Yw8Vu7Ts6Rq5Po4Nm',
    bearer: 'abcdef0123456789bearer',
    password: 'correct-horse-battery',
    github: 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  };

  it('never writes a secret from arguments, error text, tool or model to disk, nor serves it in stats', async () => {
    const dir = tempDir();
    const { store } = openStore({ dir });
    store.record(
      healed('bash', {
        before: { command: `curl -H "Authorization: Bearer ${secrets.bearer}" -d '{"password":"${secrets.password}"}' https://api`, key: secrets.key },
        after: { code: `fetch(url, { headers: { Authorization: 'Bearer ${secrets.bearer}' } })` },
        changes: [`header token=${secrets.github}`],
        error: `401 Unauthorized for ${secrets.key}; password=${secrets.password}`,
      }),
    );
    store.record({ tool: `tool_${secrets.github}`, category: 'UNKNOWN_TOOL', outcome: 'passthrough-failed', ruleIds: [], model: `m-${secrets.key}` });
    await store.flush();
    const onDisk = readFileSync(store.logPath, 'utf8') + readFileSync(store.summaryPath, 'utf8');
    const served = JSON.stringify(store.stats());
    for (const secret of Object.values(secrets)) {
      expect(onDisk).not.toContain(secret);
      expect(served).not.toContain(secret);
    }
    expect(onDisk).toContain('[REDACTED]');
    await store.close();
  });
});

describe('boot', () => {
  it('restores counters from the summary and recent events from the log', async () => {
    const dir = tempDir();
    const first = openStore({ dir }).store;
    for (let i = 0; i < 4; i += 1) first.record(healed(`tool_${i}`));
    first.record({ tool: 'bash', category: 'none', outcome: 'passthrough', ruleIds: [] });
    await first.close();
    const second = openStore({ dir }).store;
    const stats = second.stats();
    expect(stats.totals).toMatchObject({ calls: 5, healedSuccess: 4, passThrough: 1, tokensSaved: 400 });
    expect(stats.recent.map((event) => event.tool)).toEqual(['tool_3', 'tool_2', 'tool_1', 'tool_0']);
  });

  it.each([
    ['missing', (path: string) => rmSync(path)],
    ['not JSON', (path: string) => writeFileSync(path, '{"v":1,"kind":"tool-normal')],
    ['of another shape', (path: string) => writeFileSync(path, JSON.stringify({ v: 1, kind: 'tool-normalizer-summary', totals: { calls: -3 } }))],
  ])('rebuilds counters from the log when the summary is %s', async (_label, damage) => {
    const dir = tempDir();
    const first = openStore({ dir }).store;
    first.record(healed('edit'));
    first.record({ ...healed('edit'), outcome: 'healed-failed' });
    first.record({ tool: 'bash', category: 'EXEC_FAILED', outcome: 'passthrough-failed', ruleIds: [] });
    await first.close();
    damage(join(dir, SUMMARY_FILE_NAME));
    const second = openStore({ dir }).store;
    expect(second.stats().totals).toMatchObject({ calls: 3, healedSuccess: 1, healedFailed: 1, passThroughFailed: 1 });
    await second.flush();
    expect(summaryValidator.Check(JSON.parse(readFileSync(second.summaryPath, 'utf8')))).toBe(true);
  });

  it('skips a torn last line and corrupt or foreign lines, and does not glue a new line onto the torn one', async () => {
    const dir = tempDir();
    const first = openStore({ dir }).store;
    first.record(healed('one'));
    await first.close();
    const logPath = join(dir, LOG_FILE_NAME);
    appendFileSync(logPath, 'not json at all\n{"some":"other tool\'s record"}\n[1,2,3]\n{"v":1,"id":"x","at":1,"tool":"tor');
    rmSync(join(dir, SUMMARY_FILE_NAME));
    const second = openStore({ dir }).store;
    const stats = second.stats();
    expect(stats.totals.calls).toBe(1);
    expect(stats.storage.skippedLines).toBe(4);
    second.record(healed('two'));
    await second.close();
    const third = openStore({ dir }).store;
    expect(third.stats().recent.map((event) => event.tool)).toEqual(['two', 'one']);
  });
});

describe('file trouble', () => {
  it('recreates the log when it is deleted while running', async () => {
    const { store, warnings } = openStore({ dir: tempDir() });
    store.record(healed('before'));
    await store.flush();
    rmSync(store.logPath);
    store.record(healed('after'));
    await store.flush();
    expect(logEvents(store.logPath).map((event) => event.tool)).toEqual(['after']);
    expect(store.stats().totals.calls).toBe(2);
    expect(warnings).toEqual([]);
  });

  it('turns logging off with one warning when the directory cannot be written, and keeps counting', async () => {
    const parent = tempDir();
    const blocker = join(parent, 'not-a-directory');
    writeFileSync(blocker, 'a file where the directory should be');
    const { store, warnings } = openStore({ dir: join(blocker, 'dsh') });
    for (let round = 0; round < 3; round += 1) {
      store.record(healed());
      await store.flush();
    }
    await store.clear();
    store.record(healed());
    await store.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/logging turned off.*(ENOTDIR|EEXIST)/);
    expect(store.logging).toBe(false);
    const stats = store.stats();
    expect(stats.totals.calls).toBe(1);
    expect(stats.storage.logging).toBe(false);
  });
});

describe('clear', () => {
  it('drops queued writes: nothing recorded before the clear reaches the log or the counters', async () => {
    const { store } = openStore({ dir: tempDir() });
    store.record(healed('flushed'));
    await store.flush();
    store.record(healed('queued'));
    const cleared = store.clear();
    store.record(healed('after-clear'));
    await cleared;
    await store.flush();
    expect(logEvents(store.logPath).map((event) => event.tool)).toEqual(['after-clear']);
    expect(JSON.parse(readFileSync(store.summaryPath, 'utf8')).totals.calls).toBe(1);
    const stats = store.stats();
    expect(stats.totals.calls).toBe(1);
    expect(stats.recent.map((event) => event.tool)).toEqual(['after-clear']);
  });

  it('wins over a write that was already in flight', async () => {
    const { store } = openStore({ dir: tempDir() });
    store.record(healed('in-flight'));
    const flushing = store.flush();
    const cleared = store.clear();
    store.record(healed('after-clear'));
    await Promise.all([flushing, cleared]);
    await store.flush();
    expect(logEvents(store.logPath).map((event) => event.tool)).toEqual(['after-clear']);
    const reopened = openStore({ dir: store.logPath.slice(0, -LOG_FILE_NAME.length - 1) }).store;
    expect(reopened.stats().totals.calls).toBe(1);
  });
});

describe('rotation', () => {
  it('keeps the log under its cap and keeps the newest events', async () => {
    const maxLogBytes = 64 * 1024;
    const { store } = openStore({ dir: tempDir(), maxLogBytes });
    for (let i = 0; i < 600; i += 1) {
      store.record(healed(`t${i % 7}`, { before: { code: `${i}:${'x'.repeat(400)}` }, callId: `call-${i}` }));
      if (i % 50 === 49) await store.flush();
    }
    await store.flush();
    expect(statSync(store.logPath).size).toBeLessThanOrEqual(maxLogBytes);
    const events = logEvents(store.logPath);
    expect(events.at(-1)?.callId).toBe('call-599');
    expect(events[0]?.callId).not.toBe('call-0');
    const ids = events.map((event) => Number(String(event.callId).slice(5)));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(store.stats().totals.calls).toBe(600);
  });

  it('holds no more queued lines than one rotation keeps when a burst outruns the writer', async () => {
    const maxLogBytes = 64 * 1024;
    const { store } = openStore({ dir: tempDir(), maxLogBytes });
    for (let i = 0; i < 2000; i += 1) store.record(healed('burst', { before: { code: `${i}:${'y'.repeat(400)}` }, callId: `call-${i}` }));
    await store.flush();
    const events = logEvents(store.logPath);
    expect(statSync(store.logPath).size).toBeLessThanOrEqual(maxLogBytes / 2);
    expect(events.at(-1)?.callId).toBe('call-1999');
    expect(events.length).toBeGreaterThan(10);
    expect(store.stats().totals.calls).toBe(2000);
  });

  it('brings an oversized log with foreign content back under the cap, reading only its tail', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOG_FILE_NAME), `${'foreign line without meaning\n'.repeat(100_000)}`);
    const { store } = openStore({ dir, maxLogBytes: 64 * 1024 });
    store.record(healed('ours'));
    await store.flush();
    expect(statSync(store.logPath).size).toBeLessThan(64 * 1024);
    expect(logEvents(store.logPath).map((event) => event.tool)).toEqual(['ours']);
  });
});

describe('several stores on one directory', () => {
  it('merges their counters in the shared summary instead of the last writer winning', async () => {
    const dir = tempDir();
    const a = openStore({ dir }).store;
    const b = openStore({ dir }).store;
    for (let i = 0; i < 3; i += 1) a.record(healed('a'));
    for (let i = 0; i < 2; i += 1) b.record(healed('b'));
    await a.flush();
    await b.flush();
    await a.flush();
    expect(JSON.parse(readFileSync(join(dir, SUMMARY_FILE_NAME), 'utf8')).totals.calls).toBe(5);
    expect(b.stats().totals.calls).toBe(5);
    expect(existsSync(join(dir, LOG_FILE_NAME))).toBe(true);
    expect(logLines(join(dir, LOG_FILE_NAME))).toHaveLength(5);
    await Promise.all([a.close(), b.close()]);
    expect(createTelemetryStore({ dir, warn: () => undefined }).stats().totals.calls).toBe(5);
  });
});
