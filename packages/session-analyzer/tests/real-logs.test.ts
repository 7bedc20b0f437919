/**
 * The analyzer on real DSH session logs: a deterministic sample of the 2,659 logs in the shared folder (copied to
 * a temp folder in setup), with its census checked against an independent whole-file count, the corrupt log
 * reported under "skipped", and each failure's cost checked against the usage of the next model request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSessions } from '../src/node.js';
import { COUNTERFACTUAL_OUTCOMES, type AnalysisReport, type SessionAnalysis } from '../src/index.js';
import {
  copyRealSample,
  decompress,
  hasRealSessions,
  referenceCount,
  tempDir,
  type ReferenceCount,
} from './support.js';

describe.skipIf(!hasRealSessions)('real DSH session logs (sample)', () => {
  let dir: string;
  let files: string[];
  let reference: ReferenceCount;
  let report: AnalysisReport;
  let sessions: SessionAnalysis[];

  beforeAll(async () => {
    dir = tempDir('real');
    // every 25th log, plus the folders whose logs carry errors (PTY tools, cancelled calls, hooks, outcome-unknown
    // closers; most of them written in the flat tool/result shape) and the corrupt one
    files = copyRealSample(dir, 25, [
      'pty-tools',
      'cancel-tool-calls',
      'product-subagent-result-diagnostic',
      'approval-composer',
      'persistent-pwsh-tool-turn',
      'hook-cc-posttool-block',
      'tool-outcome-unknown',
      'subagent-continuable',
    ]);
    reference = referenceCount(files);
    ({ report, sessions } = await analyzeSessions({ sessionsDir: dir, keepSessions: true, now: () => 0 }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('counts what an independent whole-file reading counts', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(reference.errors).toBeGreaterThan(10);
    // both tool/result shapes are in the sample, errors included
    expect(reference.flatErrors).toBeGreaterThan(10);
    expect(reference.errors - reference.flatErrors).toBeGreaterThan(10);
    const { census } = report;
    expect(census.sessions).toBe(reference.sessions);
    expect(census.toolCalls).toBe(reference.toolCalls);
    expect(census.toolResults).toBe(reference.toolResults);
    expect(census.errors).toBe(reference.errors);
    expect(census.sessionsWithErrors).toBe(reference.sessionsWithErrors);
    expect(Object.fromEntries(census.byCode.map((row) => [row.key, row.count]))).toEqual(reference.byCode);
    expect(census.errorRate).toBeCloseTo(reference.errors / reference.toolCalls, 10);
  });

  it('lists the corrupt log under skipped, with one line, and analyses the rest', () => {
    expect(reference.corrupt.length).toBeGreaterThan(0);
    for (const file of reference.corrupt) {
      const entry = report.skipped.find((skip) => path.join(dir, skip.file) === file);
      expect(entry?.reason).toMatch(/^line \d+ is not JSON/);
    }
    expect(report.filesAnalysed + report.skipped.length).toBe(files.length);
    expect(report.filesSeen).toBe(files.length);
  });

  it('replays every failure: outcomes add up to the errors, and logs without a tool list are not replayed', () => {
    const outcomes = report.counterfactual.outcomes;
    expect(COUNTERFACTUAL_OUTCOMES.reduce((sum, key) => sum + outcomes[key], 0)).toBe(report.census.errors);
    for (const session of sessions) {
      for (const failure of session.failures) {
        if (!session.toolsRecorded) expect(failure.outcome).toBe('unknown');
        else expect(failure.outcome).not.toBe('unknown');
      }
    }
    // the normalized fixtures write "{{tools}}" instead of the tool list
    expect(report.census.sessionsWithoutToolList).toBeGreaterThan(0);
  });

  it("costs a failure at the next model request's recorded usage, shared among that step's failures", () => {
    let checked = 0;
    for (const session of sessions) {
      const failure = session.failures.find((item) => item.costSource === 'measured');
      if (!failure) continue;
      const events = decompress(session.file)
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      const resultAt = (callId: string) =>
        events.findIndex(
          (event) =>
            event.type === 'tool/result' && (event.data?.message?.source?.callId ?? event.data?.callId) === callId,
        );
      const resultIndex = resultAt(failure.callId);
      const nextIndex = events.findIndex((event, index) => index > resultIndex && event.type === 'assistant/message');
      const previousIndex = events.findLastIndex(
        (event, index) => index < resultIndex && event.type === 'assistant/message',
      );
      const usage = events[nextIndex].data.usage;
      const tokens = (usage.inputTokens ?? 0) + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
      const sameRequest = session.failures.filter(
        (item) => resultAt(item.callId) > previousIndex && resultAt(item.callId) < nextIndex,
      );
      const total = sameRequest.reduce((sum, item) => sum + item.costTokens, 0);
      expect(total).toBe(tokens);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(3);
    expect(report.cost.tokens).toBe(report.cost.measuredTokens + report.cost.estimatedTokens);
  });

  it('sees no plugin in logs written before it existed (DSH re-serializing streamed arguments is not a repair)', () => {
    expect(sessions.filter((session) => session.plugin).map((session) => session.file)).toEqual([]);
    // the sample holds calls whose streamed text differs from the logged call only in whitespace
    expect(files.some((file) => file.includes('persistent-pwsh-tool-turn'))).toBe(true);
  });

  it('never shows a raw secret-shaped argument: previews are redacted', () => {
    for (const row of report.census.repeatedFailures) expect(row.argumentsPreview).not.toMatch(/sk-[A-Za-z0-9]{20,}/);
    expect(JSON.stringify(report.stats)).not.toMatch(/sk-[A-Za-z0-9]{20,}/);
  });
});
