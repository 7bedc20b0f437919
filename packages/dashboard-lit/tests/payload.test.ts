/**
 * The payload check and the pure view logic, run in Node: real store payloads are accepted, malformed ones get
 * one clear message, rankings keep the server's order and the floor, and filters match what they say.
 */
import { describe, expect, it } from 'vitest';
import { statsPayloadValidator } from '@dsh-tool-normalizer/telemetry-store/query';
import { checkPayload } from '../src/payload.js';
import { EMPTY_FILTER, eventsQueryOf, filterEvents, formatRate, formatTokens, orderRows } from '../src/format.js';
import { eventMatches, eventsQueryFromSearchParams, eventsQueryToSearchParams } from '../src/feed.js';
import { emptyPayload, fixturePayload } from './fixtures/stats-payload.js';
import { catalogueFixture } from './fixtures/catalogue-payload.js';
import { RAW_SECRET, storePayload } from './fixtures/store-payload.js';

describe('checkPayload', () => {
  it('accepts a payload computed by the real telemetry store', () => {
    const payload = storePayload();
    const checked = checkPayload(payload);
    expect(checked).toEqual({ ok: true, payload });
    expect(JSON.stringify(payload)).not.toContain(RAW_SECRET);
  });

  it("accepts the browser-test fixtures, which also satisfy the store's own schema", () => {
    for (const payload of [fixturePayload(), emptyPayload(), catalogueFixture()]) {
      expect(checkPayload(payload).ok).toBe(true);
      expect(
        statsPayloadValidator.Check(payload),
        JSON.stringify([...statsPayloadValidator.Errors(payload)].slice(0, 2)),
      ).toBe(true);
    }
  });

  it('returns the same object it was given (no copy, no change)', () => {
    const payload = fixturePayload();
    const checked = checkPayload(payload);
    expect(checked.ok && checked.payload).toBe(payload);
  });

  it.each([
    [null, 'the stats payload is not a JSON object'],
    [[], 'the stats payload is not a JSON object'],
    [{ v: 2 }, 'unsupported stats payload version 2 (this dashboard reads version 1)'],
    [
      { ...fixturePayload(), totals: { ...fixturePayload().totals, calls: '907' } },
      'invalid stats payload: payload.totals.calls must be a finite number',
    ],
    [
      { ...fixturePayload(), rates: { ...fixturePayload().rates, healingSuccessRate: 1.5 } },
      'invalid stats payload: payload.rates.healingSuccessRate must be a number between 0 and 1, or null',
    ],
    [
      { ...fixturePayload(), recent: [{ ...fixturePayload().recent[0], before: { html: '<b>' } }] },
      'invalid stats payload: payload.recent[0].before must be a string',
    ],
    [{ ...fixturePayload(), tools: 'run_code' }, 'invalid stats payload: payload.tools must be an array'],
    [
      { ...fixturePayload(), options: [{ name: 'otlpHeaders', value: { a: 1 }, defaultValue: {} }] },
      'invalid stats payload: payload.options[0].value must be a boolean, number, string, list of strings or map of strings',
    ],
  ])('rejects %j with a clear message', (value, message) => {
    expect(checkPayload(value)).toEqual({ ok: false, message });
  });
});

describe('orderRows', () => {
  it('keeps the server ranking, appends ranked rows it left out, and lists rows below the floor by calls', () => {
    const payload = fixturePayload();
    const { ranked, belowFloor } = orderRows(payload.tools, ['read', 'bash']);
    expect(ranked.map((row) => row.name)).toEqual(['read', 'bash', 'str_replace_editor', 'run_code']);
    expect(belowFloor.map((row) => row.name)).toEqual(['write', 'grep']);
  });

  it('never ranks a row the server marked as below the floor, even if the ranking names it', () => {
    const payload = fixturePayload();
    expect(orderRows(payload.tools, ['write']).ranked.map((row) => row.name)).not.toContain('write');
  });
});

describe('filterEvents', () => {
  const events = fixturePayload().recent;
  it('matches every non-empty field and searches text case-insensitively', () => {
    expect(filterEvents(events, EMPTY_FILTER)).toHaveLength(events.length);
    expect(filterEvents(events, { ...EMPTY_FILTER, tool: 'run_code' }).map((event) => event.id)).toEqual([
      'ev-1',
      'ev-3',
    ]);
    expect(filterEvents(events, { ...EMPTY_FILTER, text: 'BEARER' }).map((event) => event.id)).toEqual(['ev-3']);
    expect(filterEvents(events, { ...EMPTY_FILTER, text: 'view-range-clamp' }).map((event) => event.id)).toEqual([
      'ev-6',
    ]);
    expect(
      filterEvents(events, {
        ...EMPTY_FILTER,
        tool: 'write',
        category: 'fs-not-observed',
        outcome: 'healed-failed',
        text: 'stale',
      }).map((event) => event.id),
    ).toEqual(['ev-4']);
    expect(filterEvents(events, { ...EMPTY_FILTER, tool: 'write', outcome: 'passthrough' })).toEqual([]);
  });
});

describe('formatting', () => {
  it('formats rates with one decimal and large token counts compactly', () => {
    expect(formatRate(79 / 86)).toBe('91.9%');
    expect(formatRate(0)).toBe('0.0%');
    expect(formatRate(1)).toBe('100.0%');
    expect(formatTokens(9_999)).toBe('9,999');
    expect(formatTokens(153_300_000)).toBe('153.3M');
  });
});

describe('the rule filter of the events query', () => {
  const event = (ruleIds: string[]) => ({
    at: 1,
    tool: 'edit',
    category: 'fs-not-observed',
    outcome: 'healed-success',
    ruleIds,
    changes: ['a change naming hint.error-hints in text'],
  });

  it('round-trips through the URL and rejects what no rule id holds', () => {
    const query = { rule: 'recover.observe-then-retry', tool: 'edit' };
    expect(eventsQueryFromSearchParams(eventsQueryToSearchParams(query))).toEqual(query);
    expect(eventsQueryFromSearchParams(new URLSearchParams('rule='))).toEqual({});
    expect(() => eventsQueryFromSearchParams(new URLSearchParams({ rule: 'a\u0000b' }))).toThrow(
      'rule must not contain control characters',
    );
    expect(() => eventsQueryFromSearchParams(new URLSearchParams({ rule: 'r'.repeat(201) }))).toThrow(
      'rule must be at most 200 characters',
    );
  });

  it.each([
    [['recover.observe-then-retry'], 'recover.observe-then-retry', true],
    [['args.fill-description', 'hint.error-hints'], 'hint.error-hints', true],
    [['args.fill-description-x'], 'args.fill-description', false],
    [[], 'hint.error-hints', false],
  ])('ruleIds %j with rule %s matches: %s', (ruleIds, rule, matches) => {
    expect(eventMatches(event(ruleIds), { rule })).toBe(matches);
  });

  it('a rule filter set in the form becomes the query', () => {
    expect(eventsQueryOf({ ...EMPTY_FILTER, rule: 'hint.repeat-failure' })).toEqual({ rule: 'hint.repeat-failure' });
  });
});
