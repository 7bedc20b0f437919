/**
 * Joining the plugin's receipts to a session's calls, on a real DSH log with real timestamps: by call id inside
 * the session's time span, and (for an event log that carries no usable call id) by tool name and a result time
 * within 500 ms, closest pair first, each receipt used once.
 */
import { describe, expect, it } from 'vitest';
import { ANONYMOUS_RECEIPTS, analyzeSessionText, type Receipt } from '../src/index.js';
import { allRealLogs, decompress, hasRealSessions } from './support.js';

describe.skipIf(!hasRealSessions)('plugin receipts', () => {
  // the first real log with at least two timed results of successful calls
  const timedResults = (events: any[]) =>
    events
      .filter(
        (event) =>
          event.type === 'tool/result' &&
          typeof event.time === 'number' &&
          event.data?.message?.content?.[0]?.isError === false,
      )
      .map((event) => ({ callId: event.data.message.source.callId as string, time: event.time as number }));
  let file = '';
  let text = '';
  let events: any[] = [];
  for (const candidate of allRealLogs()) {
    try {
      text = decompress(candidate);
      events = text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    } catch {
      continue;
    }
    file = candidate;
    if (timedResults(events).length >= 2) break;
  }
  const results = timedResults(events);
  const nameOf = (callId: string) =>
    events.find((event) => event.type === 'tool/call' && event.data.callId === callId)?.data.name as string;

  it('has what the test needs', () => {
    expect(results.length).toBeGreaterThanOrEqual(2);
  });

  it('joins by call id within the session, and ignores receipts from other times', () => {
    const [first, second] = results as [(typeof results)[0], (typeof results)[0]];
    const receipts = new Map<string, Receipt[]>([
      [first.callId, [{ callId: first.callId, tool: nameOf(first.callId), at: first.time, outcome: 'healed-success' }]],
      [
        second.callId,
        [
          {
            callId: second.callId,
            tool: nameOf(second.callId),
            at: second.time + 86_400_000,
            outcome: 'healed-success',
          },
        ],
      ],
    ]);
    const analysis = analyzeSessionText(file, text, receipts);
    expect(analysis.plugin?.healedCallIds).toEqual([first.callId]);
    expect(analysis.plugin?.receipts).toEqual({ healedSuccess: 1, healedFailed: 0 });
    expect(analyzeSessionText(file, text).plugin).toBeUndefined();
  });

  it('joins receipts without a call id to the closest result of the same tool, once each', () => {
    const [first, second] = results as [(typeof results)[0], (typeof results)[0]];
    const anonymous: Receipt[] = [
      { callId: ANONYMOUS_RECEIPTS, tool: nameOf(second.callId), at: second.time + 2, outcome: 'healed-success' },
      { callId: ANONYMOUS_RECEIPTS, tool: 'no_such_tool', at: first.time, outcome: 'healed-success' },
      { callId: ANONYMOUS_RECEIPTS, tool: nameOf(first.callId), at: first.time - 5_000, outcome: 'healed-success' },
    ].sort((a, b) => a.at - b.at);
    const analysis = analyzeSessionText(file, text, new Map([[ANONYMOUS_RECEIPTS, anonymous]]));
    expect(analysis.plugin?.healedCallIds).toEqual([second.callId]);
    expect(analysis.plugin?.receipts.healedSuccess).toBe(1);
  });
});
