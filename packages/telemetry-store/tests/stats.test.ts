/** Pure aggregation: the rate definitions, the minimum-calls floor, filters, caps and query parsing. */
import { describe, expect, it } from 'vitest';
import {
  Counters,
  OTHER,
  RingBuffer,
  StatsQueryError,
  buildEvent,
  computeStats,
  countersFromEvents,
  statsPayloadValidator,
  statsQueryFromSearchParams,
  type Outcome,
  type TelemetryEvent,
} from '../src/query.js';

const storage = {
  logging: true,
  persistPassthrough: false,
  rejectedInputs: 0,
  skippedLines: 0,
  dropped: 0,
  prunedEvents: 0,
  storedEvents: 0,
};

function countersWith(
  rows: [tool: string, category: string, outcome: Outcome, times: number, tokens?: number][],
): Counters {
  const counters = new Counters(0);
  for (const [tool, category, outcome, times, tokens = 0] of rows) {
    for (let i = 0; i < times; i += 1) counters.add(tool, category, outcome, tokens);
  }
  return counters;
}

describe('computeStats rates', () => {
  it('reports null rates (no attempts yet), not 0% or 100%, when nothing was counted', () => {
    const stats = computeStats({ counters: new Counters(0), recent: [], now: 1, storage });
    expect(stats.rates).toEqual({ healingSuccessRate: null, surfacedErrorRate: null, counterfactualErrorRate: null });
    expect(statsPayloadValidator.Check(stats)).toBe(true);
  });

  it('reports a null healing rate when calls exist but no heal was attempted', () => {
    const stats = computeStats({
      counters: countersWith([['bash', 'none', 'passthrough', 3]]),
      recent: [],
      now: 1,
      storage,
    });
    expect(stats.rates.healingSuccessRate).toBeNull();
    expect(stats.rates.surfacedErrorRate).toBe(0);
  });

  it('computes healing, surfaced and counterfactual rates from the counters', () => {
    const counters = countersWith([
      ['edit', 'FS_NOT_OBSERVED', 'healed-success', 6, 1000],
      ['edit', 'FS_NOT_OBSERVED', 'healed-failed', 2],
      ['bash', 'EXEC_FAILED', 'passthrough-failed', 2],
      ['bash', 'none', 'passthrough', 90],
    ]);
    const stats = computeStats({ counters, recent: [], now: 1, storage });
    expect(stats.totals).toEqual({
      calls: 100,
      healedSuccess: 6,
      healedFailed: 2,
      passThrough: 90,
      passThroughFailed: 2,
      tokensSaved: 6000,
      repeatsCaught: 0,
    });
    expect(stats.rates.healingSuccessRate).toBeCloseTo(6 / 8);
    expect(stats.rates.surfacedErrorRate).toBeCloseTo(4 / 100);
    expect(stats.rates.counterfactualErrorRate).toBeCloseTo(10 / 100);
    const edit = stats.tools.find((row) => row.name === 'edit');
    expect(edit).toMatchObject({
      calls: 8,
      failures: 2,
      healedSuccess: 6,
      failureRate: 0.25,
      counterfactualFailureRate: 1,
      tokensSaved: 6000,
    });
    expect(statsPayloadValidator.Check(stats)).toBe(true);
  });
});

describe('rankings', () => {
  it('does not rank a tool below the minimum-calls floor, however bad its rate', () => {
    const counters = countersWith([
      ['rare_tool', 'X', 'passthrough-failed', 2],
      ['busy_tool', 'Y', 'passthrough-failed', 10],
      ['busy_tool', 'Y', 'passthrough', 90],
      ['mid_tool', 'Z', 'passthrough-failed', 3],
      ['mid_tool', 'Z', 'passthrough', 7],
    ]);
    const stats = computeStats({ counters, recent: [], now: 1, storage });
    expect(stats.rankings.toolsByFailureRate).toEqual(['mid_tool', 'busy_tool']);
    expect(stats.tools.find((row) => row.name === 'rare_tool')).toMatchObject({ ranked: false, failureRate: 1 });
    const lowered = computeStats({ counters, recent: [], now: 1, storage, query: { minCalls: 1 } });
    expect(lowered.rankings.toolsByFailureRate[0]).toBe('rare_tool');
    expect(lowered.rankings.categoriesByFailureRate).toEqual(['X', 'Z', 'Y']);
  });
});

describe('caps', () => {
  it('folds tool names past the cap into "other" and keeps counting them', () => {
    const counters = new Counters(0, { maxTools: 3 });
    for (let i = 0; i < 1000; i += 1) counters.add(`hallucinated_${i}`, 'UNKNOWN_TOOL', 'passthrough-failed', 0);
    expect(counters.tools.buckets.size).toBe(4);
    expect(counters.tools.buckets.get(OTHER)?.calls).toBe(997);
    expect(counters.totals.calls).toBe(1000);
    const stats = computeStats({ counters, recent: [], now: 1, storage });
    expect(stats.storage.foldedToolCalls).toBe(997);
  });

  it('keeps only the newest events in the ring buffer, newest first', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 5; i += 1) ring.push(i);
    expect([...ring.newestFirst()]).toEqual([5, 4, 3]);
    expect(ring.size).toBe(3);
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});

describe('recent events', () => {
  const events: TelemetryEvent[] = [
    buildEvent(
      {
        tool: 'edit',
        category: 'FS_NOT_OBSERVED',
        outcome: 'healed-success',
        ruleIds: ['observe-then-retry'],
        error: 'file not observed',
      },
      'a',
      1,
    ),
    buildEvent(
      { tool: 'bash', category: 'EXEC_FAILED', outcome: 'passthrough-failed', ruleIds: [], error: 'exit code 2' },
      'b',
      2,
    ),
    buildEvent(
      {
        tool: 'run_code',
        category: 'CODE_SYNTAX',
        outcome: 'healed-failed',
        ruleIds: ['syntax-heal'],
        before: { code: 'print(1' },
      },
      'c',
      3,
    ),
  ];
  const newestFirst = [...events].reverse();
  const counters = countersFromEvents(events, 0);

  it('returns newest first and honours the limit while counting every match', () => {
    const stats = computeStats({ counters, recent: newestFirst, now: 9, storage, query: { limit: 2 } });
    expect(stats.recent.map((event) => event.id)).toEqual(['c', 'b']);
    expect(stats.recentMatched).toBe(3);
  });

  it.each([
    [{ tool: 'bash' }, ['b']],
    [{ category: 'FS_NOT_OBSERVED' }, ['a']],
    [{ outcome: 'healed-failed' as const }, ['c']],
    [{ text: 'EXIT CODE' }, ['b']],
    [{ text: 'syntax-heal' }, ['c']],
    [{ text: 'print(1' }, ['c']],
    [{ tool: 'bash', outcome: 'healed-success' as const }, []],
  ])('filters with %j', (query, ids) => {
    const stats = computeStats({ counters, recent: newestFirst, now: 9, storage, query });
    expect(stats.recent.map((event) => event.id)).toEqual(ids);
  });

  it('rebuilds counters from events with the earliest event as start', () => {
    expect(counters.totals).toMatchObject({ calls: 3, healedSuccess: 1, healedFailed: 1, passThroughFailed: 1 });
    expect(counters.since).toBe(1);
  });
});

describe('queries', () => {
  it('parses URL search parameters and ignores empty values', () => {
    expect(
      statsQueryFromSearchParams(new URLSearchParams('tool=bash&outcome=passthrough-failed&limit=20&text=')),
    ).toEqual({
      tool: 'bash',
      outcome: 'passthrough-failed',
      limit: 20,
    });
  });

  it.each(['outcome=exploded', 'limit=-1', 'limit=ten', 'minCalls=0', `text=${'x'.repeat(500)}`])(
    'rejects %s with a clear error',
    (search) => {
      expect(() => statsQueryFromSearchParams(new URLSearchParams(search))).toThrow(StatsQueryError);
    },
  );

  it('rejects a bad query object passed to computeStats', () => {
    expect(() =>
      computeStats({ counters: new Counters(0), recent: [], now: 1, storage, query: { limit: 'all' } as never }),
    ).toThrow(/invalid stats query/);
  });
});
