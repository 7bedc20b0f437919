/**
 * The analyzer on real DSH session logs: a deterministic sample of the 2,659 logs in the shared folder (copied to
 * a temp folder in setup), with its census checked against an independent whole-file count, the corrupt log
 * reported under "skipped", and each failure's cost checked against the usage of the next model request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSessions } from '../src/node.js';
import type { AnalysisReport, SessionAnalysis } from '../src/index.js';
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
      'both-mode-turn/session-49ec25c9d66c',
      'acp-agent-tests-snapshots-fs-policy',
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

  it('predicts every failure and says per row what the prediction rests on; at most 5% stay unknown', () => {
    const outcomes = report.prediction.outcomes;
    const sum = Object.values(outcomes).reduce((total, count) => total + count, 0);
    expect(sum).toBe(report.census.errors);
    expect(outcomes.notReplayable).toBeLessThanOrEqual(report.census.errors * 0.05);
    for (const session of sessions) {
      for (const failure of session.failures) {
        if (session.toolsRecorded) expect(failure.basis).toBe('recorded-tools');
        else expect(failure.basis).not.toBe('recorded-tools');
        expect(failure.outcome === 'unknown').toBe(failure.basis === 'none');
        expect(failure.basisNote.length).toBeGreaterThan(10);
      }
    }
    // the normalized fixtures write "{{tools}}" instead of the tool list
    expect(report.census.sessionsWithoutToolList).toBeGreaterThan(0);
  });

  it('settles errors of logs without a tool list by their error class, or by the schemas of the release that wrote them', () => {
    const unlisted = sessions.filter((session) => !session.toolsRecorded).flatMap((session) => session.failures);
    // host decisions (policy, PTY, sandbox, abort, subagent…) need no tool list: no repair changes them
    const pty = unlisted.find((failure) => /^unknown PTY session/.test(failure.errorPreview));
    expect(pty?.basis).toBe('error-class');
    expect(pty?.outcome).toBe('nothing');
    expect(pty?.basisNote).toContain('PTY');
    // run_code without a description in a format-0 log: rc.8's run_code requires it, the error names it
    const flagship = unlisted.find((failure) => failure.code === 'INVALID_ARGS' && failure.tool === 'run_code');
    expect(flagship).toMatchObject({
      outcome: 'healed',
      ruleId: 'run_code.fill-description',
      basis: 'release-schemas',
    });
    expect(flagship?.basisNote).toContain('0.1.0-rc.8');
    // an edit before a read, at an absolute path: observe (read) then retry, with rc.8's read and edit schemas
    const observed = unlisted.filter(
      (failure) => failure.code === 'FS_NOT_OBSERVED' && failure.outcome === 'recovered',
    );
    expect(observed.length).toBeGreaterThan(0);
    for (const failure of observed) expect(failure.basis).toBe('release-schemas');
    // an unknown tool stays unknown: which tools a session presents varies
    for (const failure of unlisted.filter((item) => item.code === 'UNKNOWN_TOOL'))
      expect(failure.outcome).toBe('unknown');
  });

  it("costs a failure at the next model request's recorded usage, shared among that step's failures", () => {
    let checked = 0;
    for (const session of sessions) {
      const failure = session.failures.find((item) => item.cost.source === 'measured');
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
      const sum = (key: 'uncachedInput' | 'cacheRead' | 'cacheWrite') =>
        sameRequest.reduce((total, item) => total + item.cost[key], 0);
      expect(sum('uncachedInput')).toBe(usage.inputTokens ?? 0);
      expect(sum('cacheRead')).toBe(usage.cacheReadTokens ?? 0);
      expect(sum('cacheWrite')).toBe(usage.cacheWriteTokens ?? 0);
      expect(sum('uncachedInput') + sum('cacheRead') + sum('cacheWrite')).toBe(tokens);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(3);
    const { measured } = report.cost;
    expect(measured.total).toBe(measured.uncachedInput + measured.cacheRead + measured.cacheWrite);
    expect(measured.cacheRead).toBeGreaterThan(0);
  });

  it("flags a test mock's usage (10 input tokens, no cache fields) and keeps it out of the measured cost", () => {
    const pty = sessions.find((session) => session.file.includes('pty-tools/session-a23dcdd7fd8e'));
    const charged = pty?.failures.filter((failure) => failure.cost.source !== 'none') ?? [];
    expect(charged.length).toBeGreaterThan(0);
    for (const failure of charged) expect(failure.cost.source).toBe('mock');
    expect(report.cost.mock.failures).toBeGreaterThanOrEqual(charged.length);
    const mockTokens = sessions
      .flatMap((session) => session.failures)
      .filter((failure) => failure.cost.source === 'mock')
      .reduce((total, failure) => total + failure.cost.uncachedInput + failure.cost.cacheRead, 0);
    expect(report.cost.mock.tokens).toBe(mockTokens);
  });

  it('lists each failure with its file, session id and the line of its result', () => {
    expect(report.failures.length).toBe(report.census.errors);
    for (const row of report.failures.slice(0, 50)) {
      const lines = decompress(row.file).split('\n');
      const event = JSON.parse(lines[row.line - 1] as string);
      expect(event.type).toBe('tool/result');
      expect(JSON.parse(lines[0] as string).id).toBe(row.sessionId);
    }
  });

  it('sees no plugin in logs written before it existed (DSH re-serializing streamed arguments is not a repair)', () => {
    expect(sessions.filter((session) => session.plugin).map((session) => session.file)).toEqual([]);
    // the sample holds calls whose streamed text differs from the logged call only in whitespace
    expect(files.some((file) => file.includes('persistent-pwsh-tool-turn'))).toBe(true);
  });

  it('never shows a raw secret-shaped argument: previews are redacted', () => {
    for (const row of report.census.repeatedFailures) expect(row.argumentsPreview).not.toMatch(/sk-[A-Za-z0-9]{20,}/);
    expect(JSON.stringify(report)).not.toMatch(/sk-[A-Za-z0-9]{20,}/);
  });
});
