/** Building stored events: whatever the adapter passes, the result is bounded and valid against the schema. */
import { describe, expect, it } from 'vitest';
import { EVENT_LIMITS, buildEvent, inputProblem, isTelemetryEvent, type TelemetryEventInput } from '../src/query.js';

const huge = 'sk-live-'.padEnd(100_000, 'Q');
const extremes: TelemetryEventInput[] = [
  { tool: '', category: '', outcome: 'passthrough', ruleIds: [] },
  {
    tool: huge,
    category: huge,
    outcome: 'healed-failed',
    ruleIds: Array.from({ length: 100 }, () => huge),
    before: { nested: [huge, huge], n: 1 },
    after: huge,
    changes: Array.from({ length: 100 }, () => huge),
    error: huge,
    tokensSaved: Number.POSITIVE_INFINITY,
    model: huge,
    callId: huge,
  },
  {
    tool: 'bash',
    category: 'X',
    outcome: 'passthrough-failed',
    ruleIds: [],
    tokensSaved: -5,
    before: undefined,
    after: null,
    error: '',
  },
  {
    tool: 't',
    category: 'c',
    outcome: 'healed-success',
    ruleIds: [42 as never],
    changes: 'not an array' as never,
    before: 10n as never,
  },
];

describe('buildEvent', () => {
  it.each(extremes.map((input, index) => [index, input] as const))(
    'input #%i becomes a valid, bounded event',
    (_index, input) => {
      const event = buildEvent(input, 'id-1', 5);
      expect(isTelemetryEvent(event)).toBe(true);
      expect(JSON.stringify(event).length).toBeLessThan(
        EVENT_LIMITS.previewChars * 2 +
          EVENT_LIMITS.errorChars +
          EVENT_LIMITS.changes * (EVENT_LIMITS.changeChars + 64) +
          EVENT_LIMITS.ruleIds * 80 +
          2000,
      );
      expect(JSON.stringify(event)).not.toContain(
        'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ',
      );
    },
  );

  it('counts tokens only when they are a finite positive number', () => {
    expect(buildEvent(extremes[1] as TelemetryEventInput, 'a', 1).tokensSaved).toBe(0);
    expect(buildEvent({ ...(extremes[0] as TelemetryEventInput), tokensSaved: 1234 }, 'a', 1).tokensSaved).toBe(1234);
  });

  it('keeps short values exactly as given', () => {
    const event = buildEvent(
      {
        tool: 'edit',
        category: 'FS',
        outcome: 'healed-success',
        ruleIds: ['r'],
        before: { path: 'a.ts' },
        error: 'boom',
      },
      'id',
      7,
    );
    expect(event).toEqual({
      v: 1,
      id: 'id',
      at: 7,
      tool: 'edit',
      category: 'FS',
      outcome: 'healed-success',
      ruleIds: ['r'],
      changes: [],
      tokensSaved: 0,
      before: '{"path":"a.ts"}',
      error: 'boom',
    });
  });
});

describe('inputProblem', () => {
  it.each([
    [null, 'must be an object'],
    [{ category: 'c', outcome: 'passthrough', ruleIds: [] }, '`tool`'],
    [{ tool: 't', outcome: 'passthrough', ruleIds: [] }, '`category`'],
    [{ tool: 't', category: 'c', outcome: 'ok', ruleIds: [] }, 'unknown outcome'],
    [{ tool: 't', category: 'c', outcome: 'passthrough' }, '`ruleIds`'],
  ])('names what is wrong with %j', (input, message) => {
    expect(inputProblem(input)).toContain(message);
  });

  it('accepts a well-formed input', () => {
    expect(inputProblem({ tool: 't', category: 'c', outcome: 'passthrough', ruleIds: [] })).toBeUndefined();
  });
});
