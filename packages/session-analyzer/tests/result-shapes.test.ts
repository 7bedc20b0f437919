/**
 * Every `tool/result` shape DSH has written, each read and counted once: the wrapped tool message, the flat shape
 * with its three error forms, a flat success without `isError`, a surface rewrite (not a new result), and an event in
 * neither shape, which skips the log with its line number instead of vanishing from the counts.
 */
import { describe, expect, it } from 'vitest';
import { analyzeSessionText, SkipSession } from '../src/index.js';

const header = { type: 'session', id: 's', cwd: '/w' };
const call = (callId: string) => ({
  type: 'tool/call',
  data: { turn: 1, step: 1, callId, name: 'read', arguments: '{"path":"a"}' },
});
const text = (value: string) => [{ type: 'text', text: value }];
const wrapped = (callId: string, isError: boolean, extra: object = {}, surfaceOp: unknown = 'append') => ({
  type: 'tool/result',
  data: {
    turn: 1,
    step: 1,
    message: {
      source: { kind: 'tool', callId },
      content: [{ type: 'tool-result', toolCallId: callId, content: text(isError ? 'Error: x' : 'ok'), isError }],
      role: 'user',
      id: callId,
    },
    ...extra,
  },
  surfaceOp,
});
const flat = (callId: string, data: object) => ({
  type: 'tool/result',
  data: { turn: 1, step: 1, callId, content: text('Error: y'), ...data },
});
const analyze = (events: object[]) =>
  analyzeSessionText('s.jsonl', [header, ...events].map((event) => JSON.stringify(event)).join('\n'));

describe('tool/result shapes', () => {
  it('reads the wrapped and the flat shape, with every error form, each result once', () => {
    const analysis = analyze([
      call('a'),
      wrapped('a', true, { error: { name: 'FsError', code: 'FS_NOT_FOUND' } }),
      call('b'),
      flat('b', { isError: true, error: { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' } }),
      call('c'),
      flat('c', {
        isError: true,
        error: { message: 'skipped', info: { name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH' } },
      }),
      call('d'),
      flat('d', { isError: true, error: { message: 'command aborted' } }),
      call('e'),
      flat('e', {}),
      call('f'),
      wrapped('f', false),
    ]);
    expect(analysis.toolCalls).toBe(6);
    expect(analysis.toolResults).toBe(6);
    expect(analysis.errors).toBe(4);
    expect(analysis.failures.map((failure) => [failure.callId, failure.code])).toEqual([
      ['a', 'FS_NOT_FOUND'],
      ['b', 'TOOL_OUTCOME_UNKNOWN'],
      ['c', 'ABORTED_BEFORE_DISPATCH'],
      ['d', undefined],
    ]);
    // a flat result without isError is a success
    expect(analysis.successesByTool).toEqual({ read: 2 });
  });

  it('does not count a surface rewrite of an earlier result as another result', () => {
    // DSH's replace marker: { op: 'replace', start, end } over the seqs of the result it rewrites
    const analysis = analyze([
      call('a'),
      wrapped('a', true),
      wrapped('a', true, {}, { op: 'replace', start: 2, end: 2 }),
    ]);
    expect([analysis.toolResults, analysis.errors]).toEqual([1, 1]);
  });

  it('skips the log, with the line number, for a result or call in neither shape', () => {
    expect(() => analyze([call('a'), { type: 'tool/result', data: { turn: 1, step: 1, result: 'x' } }])).toThrow(
      SkipSession,
    );
    expect(() => analyze([call('a'), { type: 'tool/result', data: { turn: 1, step: 1, result: 'x' } }])).toThrow(
      /^line 3: a tool\/result in neither shape/,
    );
    expect(() => analyze([{ type: 'tool/call', data: { turn: 1, step: 1, name: 'read' } }])).toThrow(
      /^line 2: a tool\/call without a call id/,
    );
  });
});
